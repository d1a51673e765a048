"""KernelGen-LM serving: backends (llama.cpp, transformers, OpenAI-compatible servers), prompts, the completion
pipeline, and the service the language server and `akgen complete` call.

    from akgen_lsp.model.service import CompletionService, InlineResult

Layout: ``backends/`` (one async streaming interface, `backends.base`), ``registry.py`` (models/registry.toml),
``prompts.py`` (FIM, chat, repair, kernel generation, retrieval), ``complete.py`` (the pipeline's stages),
``service.py`` (the stages over a backend), ``tiny.py`` (random test models).
"""
