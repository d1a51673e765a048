"""A configured model whose backend's package is missing is said once, visibly (the server shows `problem`), with
the command that installs it; completions go on from the catalog."""

from __future__ import annotations

import sys

import pytest

from akgen_lsp.config import defaults
from akgen_lsp.server.features.inline import InlineCompletions

pytestmark = pytest.mark.asyncio


async def test_a_missing_backend_package_is_said_once_with_its_install_command(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # find_spec("llama_cpp") is None: not installed
    settings = defaults().with_overrides({"model.backend": "llama_cpp", "model.path": "/nowhere/m.gguf"}, "test")
    inline = InlineCompletions()
    try:
        await inline._service_for(settings, None)
        said = inline.problem or ""
        assert said.startswith("akgen: model.backend is llama_cpp (test), but the llama_cpp backend needs "
                               "llama-cpp-python"), said
        assert "-m pip install 'llama-cpp-python==" in said and "from the Ascend C catalog" in said
        inline.problem = None
        await inline._service_for(settings.with_overrides({"model.n_threads": 1}, "test"), None)
        assert inline.problem is None  # once per backend
    finally:
        await inline.close()
