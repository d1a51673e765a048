""""Generate kernel for this task" on a kernel whose task is an akgen.toml [[task]] table (not an NPUKernelBench
folder): the table is made a task (its api_desc.md written from it), the tiny GGUF answers the kernel (forced by a
GBNF grammar: real llama.cpp inference), the answer is checked on the table's inputs and reference, and written.
With no model configured, the command says so first: "no model configured: see models/README.md"."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from akgen_lsp.check.kernel import kernel_task
from akgen_lsp.config import defaults
from akgen_lsp.model.tiny import literal_grammar, write_tiny_gguf
from akgen_lsp.server.features import generate

from .lsp_helpers import CONFIG, initialize_params, open_file, record_apply_edit

pytestmark = pytest.mark.asyncio(loop_scope="module")

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CORRECT = (SAMPLES / "kernels" / "elementwise_tail.cpp").read_text(encoding="utf-8")
TABLE = ('[[task]]\nname = "ScaledAdd"\nfile = "k.cpp"\nkernel = "scaled_add"\nmode = "static"\nblock_dim = 48\n'
         'reference = "alpha * x + y"\nparams = { alpha = 0.5 }\n'
         'inputs = [{ name = "x", shape = [100003], dtype = "float32" }, '
         '{ name = "y", shape = [100003], dtype = "float32" }]\n'
         'outputs = [{ name = "z", shape = [100003], dtype = "float32" }]\n')
STUB = '#include "kernel_operator.h"\n// write scaled_add here\n'
N_CTX = 16384
APPLIED: list[types.ApplyWorkspaceEditParams] = []


def answer(code: str) -> str:
    return f"Here is the kernel.\n\n<kernel_impl>\n```cpp\n{code.rstrip()}\n```\n</kernel_impl>\n"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("table-ws")
    (root / "akgen.toml").write_text(TABLE, encoding="utf-8")
    (root / "k.cpp").write_text(STUB, encoding="utf-8")
    return root


async def test_the_table_is_a_task_with_a_description(workspace: Path, tmp_path: Path) -> None:
    task = kernel_task(workspace / "k.cpp", defaults(), tmp_path)
    assert task is not None and task.op == "scaled_add"
    desc = task.api_desc.read_text()
    assert "z = alpha * x + y" in desc and "`x`: float32, shape [100003]" in desc and "`alpha = 0.5`" in desc
    assert task.question_kernel.read_text() == STUB
    assert task.cases()[0].get("shape") == "[100003]"  # the prompt's case row: the input's shape, not [1]
    (tmp_path / "lonely.cpp").write_text("// no task\n")
    assert kernel_task(tmp_path / "lonely.cpp", defaults(), tmp_path / "w") is None


async def test_with_no_model_it_says_no_model_is_configured(workspace: Path) -> None:
    doc = SimpleNamespace(path=str(workspace / "k.cpp"), version=1, source=STUB)
    host = SimpleNamespace(is_open=lambda uri: True, document=lambda uri: doc, settings_for=lambda d: defaults())
    result = await generate.run(host, generate.GENERATE, "file:///k.cpp")  # type: ignore[arg-type]
    assert result["ok"] is False and result["message"].startswith("akgen: no model configured: see models/README.md")


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient, workspace: Path, tmp_path_factory: pytest.TempPathFactory):
    gguf = write_tiny_gguf(tmp_path_factory.mktemp("gguf") / "forced.gguf", n_ctx=N_CTX)
    options = {"lint": {"debounce_ms": 20},
               "model": {"backend": "llama_cpp", "path": str(gguf), "n_ctx": N_CTX, "n_threads": 1},
               "generate": {"grammar": [literal_grammar(answer(CORRECT))], "max_tokens": 7000, "memory": False}}
    record_apply_edit(lsp_client, APPLIED)
    await lsp_client.initialize_session(initialize_params("visual-studio-code", options, root=workspace))
    yield
    await lsp_client.shutdown_session()


async def test_generate_on_an_akgen_toml_task_writes_the_verified_kernel(client: LanguageClient,
                                                                         workspace: Path) -> None:
    uri = open_file(client, workspace / "k.cpp", STUB)
    APPLIED.clear()
    result: dict[str, Any] = await asyncio.wait_for(client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=generate.GENERATE, arguments=[uri])), 600)
    assert result["written"] is True, result["message"]
    assert "verified on the simulator before writing: compiles, 1/1 cases pass" in result["message"]
    (params,) = APPLIED
    (change,) = params.edit.document_changes or []
    assert isinstance(change, types.TextDocumentEdit)
    assert change.edits[0].new_text.rstrip() == CORRECT.rstrip()
