""""Generate kernel for this task" and "Improve performance" end to end: `akgen serve` driven by pytest-lsp as VS Code
on the question kernel of a task folder, the tiny GGUF forced round by round by GBNF grammars (real llama.cpp
inference), every round checked in the check worker; the kernel is written with workspace/applyEdit only after it
verified, and a cancel through the progress, or by the cancel command, stops the work and writes nothing."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from akgen_lsp.bench.runner import default_suite
from akgen_lsp.model.tiny import literal_grammar, write_tiny_gguf

from .lsp_helpers import CONFIG, initialize_params, open_file, record_apply_edit

pytestmark = pytest.mark.asyncio(loop_scope="module")

FIXTURES = Path(__file__).resolve().parents[1] / "generate" / "fixtures"  # the loop's forced answers
CORRECT = (FIXTURES / "abs_case0.cpp").read_text(encoding="utf-8")
NO_COMPILE = CORRECT.replace("Abs(y, x, TILE);", "AscendC::Absolute(y, x, TILE);")
WRONG = CORRECT.replace("Abs(y, x, TILE);", "Muls(y, x, (half)-1.0, TILE);")
ONE_CORE = (CORRECT.replace("        len = TOTAL / GetBlockNum();\n", "        len = GetBlockIdx() == 0 ? TOTAL : 0;\n")
            .replace("(__gm__ half *)x + len * GetBlockIdx(), len)", "(__gm__ half *)x, TOTAL)")
            .replace("(__gm__ half *)y + len * GetBlockIdx(), len)", "(__gm__ half *)y, TOTAL)"))  # on core 0 only


def answer(code: str) -> str:
    return f"Here is the kernel.\n\n<kernel_impl>\n```cpp\n{code.rstrip()}\n```\n</kernel_impl>\n"
N_CTX = 12288
APPLIED: list[types.ApplyWorkspaceEditParams] = []


@pytest.fixture(scope="module")
def task(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the bundled AbsMath task folder (its question kernel is what the commands write)."""
    root = tmp_path_factory.mktemp("gen-ws")
    dst = root / "level1" / "Math" / "AbsMath"
    shutil.copytree(default_suite() / "tasks" / "level1" / "Math" / "AbsMath", dst)
    return dst


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient, task: Path, tmp_path_factory: pytest.TempPathFactory):
    gguf = write_tiny_gguf(tmp_path_factory.mktemp("gguf") / "forced.gguf", n_ctx=N_CTX)
    # round 0 does not compile, round 1 computes -x, round 2 is correct; "Improve performance" starts from the
    # one-core kernel (its round 0) and its round 1 answers the kernel that splits the work over every core
    grammars = [literal_grammar(answer(NO_COMPILE)), literal_grammar(answer(WRONG)), literal_grammar(answer(CORRECT))]
    options = {"lint": {"debounce_ms": 20},
               "model": {"backend": "llama_cpp", "path": str(gguf), "n_ctx": N_CTX, "n_threads": 1},
               "generate": {"grammar": grammars, "max_tokens": 1800, "memory": False, "perf_rounds": 1}}

    record_apply_edit(lsp_client, APPLIED)
    await lsp_client.initialize_session(initialize_params("visual-studio-code", options, root=task.parents[2]))
    yield
    await lsp_client.shutdown_session()


def _written(params: types.ApplyWorkspaceEditParams) -> str:
    (change,) = params.edit.document_changes or []
    assert isinstance(change, types.TextDocumentEdit) and change.text_document.version == 1
    (edit,) = change.edits
    assert isinstance(edit, types.TextEdit) and (edit.range.start.line, edit.range.start.character) == (0, 0)
    return edit.new_text


async def _run(client: LanguageClient, command: str, uri: str) -> dict[str, Any]:
    return await asyncio.wait_for(client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=[uri])), 600)


async def _started(client: LanguageClient, before: set[Any]) -> str:
    """The token of the progress that began after `before` and reported its first round."""
    while True:
        for t in set(client.progress_reports) - before:
            if any(isinstance(v, types.WorkDoneProgressReport) for v in client.progress_reports[t]):
                return str(t)
        await asyncio.sleep(0.05)


async def test_generate_writes_the_kernel_that_verified_after_three_rounds(client: LanguageClient, task: Path) -> None:
    path = task / "question" / "op_kernel" / "abs_math.cpp"
    question = path.read_text(encoding="utf-8")
    uri = open_file(client, path, question)
    APPLIED.clear()
    result = await _run(client, "akgen.server.generateKernel", uri)
    assert result["written"] is True, result["message"]
    assert [r["status"] for r in result["rounds"]] == ["compile_error", "wrong_answer", "pass"]
    assert "verified on the simulator before writing: compiles, 1/1 cases pass" in result["message"]
    (params,) = APPLIED
    assert _written(params) == CORRECT.rstrip()  # up to the end of the last line: the final newline stays
    titles = [v.title for vs in client.progress_reports.values() for v in vs
              if isinstance(v, types.WorkDoneProgressBegin)]
    assert any(t.startswith("akgen: Generate kernel (AbsMath") for t in titles)
    shown = [m.message for m in client.messages]
    assert any("verified on the simulator before writing" in m for m in shown)


async def test_improve_performance_writes_nothing_when_the_faster_kernel_fails(client: LanguageClient,
                                                                               task: Path) -> None:
    """The one-core kernel passes; the performance round's answer (round 1: the grammar of -x) is faster but wrong,
    so it is not kept and nothing is written (a kept improvement: tests/generate/test_perf_memory.py)."""
    path = task / "answer" / "0" / "op_kernel" / "abs_math.cpp"
    uri = open_file(client, path, ONE_CORE)
    APPLIED.clear()
    result = await _run(client, "akgen.server.improvePerformance", uri)
    assert result["written"] is False and APPLIED == []
    assert [(r["kind"], r["status"]) for r in result["rounds"]] == [("given", "pass"), ("perf", "wrong_answer")]
    assert "nothing verified, so nothing was written (no faster kernel kept every case passing)" in result["message"]


async def test_improve_performance_needs_a_passing_kernel(client: LanguageClient, task: Path) -> None:
    path = task / "answer" / "0" / "op_kernel" / "abs_math.cpp"  # opened by the test before
    path.write_text(NO_COMPILE, encoding="utf-8")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=NO_COMPILE)]))
    result = await _run(client, "akgen.server.improvePerformance", path.as_uri())
    assert result["written"] is False and "needs a kernel that passes; this one does not compile" in result["message"]


async def test_a_cancel_through_the_progress_stops_and_writes_nothing(client: LanguageClient, task: Path) -> None:
    opened = (task / "question" / "op_kernel" / "abs_math.cpp").as_uri()  # opened by the first test
    APPLIED.clear()
    before = set(client.progress_reports)
    run = asyncio.ensure_future(_run(client, "akgen.server.generateKernel", opened))

    t = await asyncio.wait_for(_started(client, before), 120)
    client.protocol.notify(types.WINDOW_WORK_DONE_PROGRESS_CANCEL, types.WorkDoneProgressCancelParams(token=t))
    result = await asyncio.wait_for(run, 60)
    assert result["written"] is False and result.get("cancelled") is True and "cancelled" in result["message"]
    assert APPLIED == []


async def test_the_cancel_command_stops_and_writes_nothing(client: LanguageClient, task: Path) -> None:
    """VS Code's Cancel button and Neovim's :AkgenGenerateCancel send akgen.server.cancelGenerate for the document:
    the loop stops (the model between two tokens, the checks' processes killed), the running command answers
    "cancelled", nothing is written and the progress ends with the reason; with nothing running it says so."""
    opened = (task / "question" / "op_kernel" / "abs_math.cpp").as_uri()  # opened by the first test
    APPLIED.clear()
    idle = await _run(client, "akgen.server.cancelGenerate", opened)
    assert idle == {"ok": False, "cancelled": False, "message": "akgen: nothing is being generated for this file."}
    before = set(client.progress_reports)
    run = asyncio.ensure_future(_run(client, "akgen.server.generateKernel", opened))

    t = await asyncio.wait_for(_started(client, before), 120)
    again = await _run(client, "akgen.server.generateKernel", opened)  # one generation per document at a time
    assert again["written"] is False and "already running on this file" in again["message"]
    said = await _run(client, "akgen.server.cancelGenerate", opened)
    assert said["ok"] is True and said["cancelled"] is True
    result = await asyncio.wait_for(run, 60)
    assert result["written"] is False and result.get("cancelled") is True
    assert result["message"] == "akgen: Generate kernel was cancelled; nothing was written."
    end = [v for v in client.progress_reports[t] if isinstance(v, types.WorkDoneProgressEnd)]
    assert [e.message for e in end] == ["cancelled: nothing was written"]
    assert APPLIED == []
