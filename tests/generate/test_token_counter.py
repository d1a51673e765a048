"""The loop's token counter counts each text once with the backend's own tokenizer (real llama.cpp over the tiny
GGUF): the conversation is bounded again every round over the same task prompt and older turns."""

from __future__ import annotations

import asyncio
from pathlib import Path

from akgen_lsp.generate.conversation import Turn, bound
from akgen_lsp.generate.loop import token_counter
from akgen_lsp.model.backends.llama_cpp import LlamaCppBackend
from akgen_lsp.model.tiny import write_tiny_gguf


def test_each_text_is_tokenized_once_and_counts_are_the_tokenizers(tmp_path: Path) -> None:
    backend = LlamaCppBackend(str(write_tiny_gguf(tmp_path / "count.gguf", n_ctx=512)), n_ctx=512, n_threads=1)
    asyncio.run(backend.load())
    calls: list[str] = []
    real = backend.count_tokens

    def counted(text: str) -> int | None:
        calls.append(text)
        return real(text)

    backend.count_tokens = counted  # type: ignore[method-assign]
    try:
        count = token_counter(backend)
        task = [{"role": "system", "content": "You write Ascend C kernels."},
                {"role": "user", "content": "Write AbsMath. " * 200}]
        turns = [Turn(f"answer {i} " * 50, f"feedback {i} " * 50, f"round {i}") for i in range(3)]
        for n in range(1, 4):  # three rounds of one attempt: the conversation grows by one turn each
            b = bound(task, turns[:n], 100_000, count)
            assert b.tokens == sum(real(m["content"]) + 8 for m in b.messages)
        assert len(calls) == len(set(calls)) == 2 + 2 * 3  # the task's two messages, each turn's answer, feedback
    finally:
        asyncio.run(backend.close())
