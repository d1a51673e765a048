""""Generate kernel for this task" and "Improve performance" in dynamic shape (``bench.mode = "dynamic"``), end to
end: `akgen serve` driven by pytest-lsp as VS Code on AbsMath's question kernel, the tiny GGUF forced round by round
by GBNF grammars (real llama.cpp inference). The answer is the kernel and its host tiling; both are checked together
in the check worker on every case of the task before anything is written, and the edit holds the kernel, the host
tiling and the new tiling header (created)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from generate.dynamic import (
    HOST,
    HOST_NO_COMPILE,
    HOST_ONE_CORE,
    KERNEL,
    MAX_TOKENS,
    N_CTX,
    TILING,
    abs_task,
    answer,
)
from lsprotocol import types
from pytest_lsp import LanguageClient

from akgen_lsp.model.tiny import literal_grammar, write_tiny_gguf

from .lsp_helpers import CONFIG, initialize_params, open_file, record_apply_edit

pytestmark = pytest.mark.asyncio(loop_scope="module")

APPLIED: list[types.ApplyWorkspaceEditParams] = []


@pytest.fixture(scope="module")
def task(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return abs_task(tmp_path_factory.mktemp("gen-dyn-ws"))


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient, task: Path, tmp_path_factory: pytest.TempPathFactory):
    gguf = write_tiny_gguf(tmp_path_factory.mktemp("gguf") / "forced.gguf", n_ctx=N_CTX)
    # Generate: round 0's host tiling does not compile, round 1 is right. Improve performance starts from the
    # one-core host (its round 0, no model call); its round 1 answers round 1's files, which use every core
    grammars = [literal_grammar(answer(HOST_NO_COMPILE)), literal_grammar(answer())]
    options = {"lint": {"debounce_ms": 20}, "bench": {"mode": "dynamic"},
               "model": {"backend": "llama_cpp", "path": str(gguf), "n_ctx": N_CTX, "n_threads": 1},
               "generate": {"grammar": grammars, "max_tokens": MAX_TOKENS, "memory": False, "perf_rounds": 1}}

    record_apply_edit(lsp_client, APPLIED)
    await lsp_client.initialize_session(initialize_params("visual-studio-code", options, root=task.parents[2]))
    yield
    await lsp_client.shutdown_session()


async def _run(client: LanguageClient, command: str, uri: str) -> dict[str, Any]:
    return await asyncio.wait_for(client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=[uri])), 900)


def _changes(params: types.ApplyWorkspaceEditParams) -> dict[str, tuple[int | None, str, bool]]:
    """file name -> (version, new text, created first) of a documentChanges edit."""
    out: dict[str, tuple[int | None, str, bool]] = {}
    created = set()
    for change in params.edit.document_changes or []:
        if isinstance(change, types.CreateFile):
            created.add(Path(change.uri).name)
            continue
        assert isinstance(change, types.TextDocumentEdit)
        (edit,) = change.edits
        assert isinstance(edit, types.TextEdit) and (edit.range.start.line, edit.range.start.character) == (0, 0)
        name = Path(change.text_document.uri).name
        out[f"{Path(change.text_document.uri).parent.name}/{name}"] = (change.text_document.version, edit.new_text,
                                                                        name in created)
    return out


async def test_generate_writes_the_kernel_and_its_host_tiling_after_both_verified(client: LanguageClient,
                                                                                  task: Path) -> None:
    path = task / "question" / "op_kernel" / "abs_math.cpp"
    question = path.read_text(encoding="utf-8")
    uri = open_file(client, path, question)
    APPLIED.clear()
    result = await _run(client, "akgen.server.generateKernel", uri)
    assert result["written"] is True, result["message"]
    assert [r["status"] for r in result["rounds"]] == ["compile_error", "pass"]
    assert "verified on the simulator before writing: compiles, 3/3 cases pass" in result["message"]
    assert ("(dynamic shape: op_kernel/abs_math.cpp with op_host/abs_math.cpp, op_host/abs_math_tiling.h, every "
            "case)") in result["message"]
    (params,) = APPLIED
    changes = _changes(params)
    assert changes == {"op_kernel/abs_math.cpp": (1, KERNEL.rstrip(), False),
                       "op_host/abs_math.cpp": (None, HOST.rstrip(), False),  # on disk, not open: unversioned
                       "op_host/abs_math_tiling.h": (None, TILING.rstrip() + "\n", True)}  # new: created first
    assert [Path(f).name for f in result["files"]] == ["abs_math.cpp", "abs_math.cpp", "abs_math_tiling.h"]
    # the host tiling's edit replaces the whole question template, up to the end of its last line
    (host_edit,) = [c for c in params.edit.document_changes or [] if isinstance(c, types.TextDocumentEdit)
                    and c.text_document.uri.endswith("op_host/abs_math.cpp")]
    template = (task / "question" / "op_host" / "abs_math.cpp").read_text(encoding="utf-8").splitlines()
    assert host_edit.edits[0].range.end == types.Position(len(template) - 1, len(template[-1]))
    titles = [v.title for vs in client.progress_reports.values() for v in vs
              if isinstance(v, types.WorkDoneProgressBegin)]
    assert any(t.startswith("akgen: Generate kernel (AbsMath, dynamic shape, every case") for t in titles)


async def test_improve_performance_checks_the_open_host_and_writes_the_faster_one(client: LanguageClient,
                                                                                 task: Path) -> None:
    """The kernel with a host that puts everything on one core passes every case; the performance round answers
    the host that uses every core, which is faster and still passes, so it is written (the kernel is the same)."""
    answer0 = task / "answer" / "0"
    (answer0 / "op_host" / "abs_math_tiling.h").write_text(TILING, encoding="utf-8")
    host_uri = open_file(client, answer0 / "op_host" / "abs_math.cpp", HOST_ONE_CORE)  # open: its text is the editor's
    uri = open_file(client, answer0 / "op_kernel" / "abs_math.cpp", KERNEL)
    APPLIED.clear()
    result = await _run(client, "akgen.server.improvePerformance", uri)
    assert result["written"] is True, result["message"]
    assert [(r["kind"], r["status"]) for r in result["rounds"]] == [("given", "pass"), ("perf", "pass")]
    m = re.search(r"([\d.]+) us -> ([\d.]+) us", result["message"])
    assert m and float(m.group(2)) < float(m.group(1)), result["message"]
    (params,) = APPLIED
    changes = _changes(params)
    assert changes["op_host/abs_math.cpp"] == (1, HOST.rstrip(), False)  # open in the editor: its version
    assert changes["op_kernel/abs_math.cpp"] == (1, KERNEL.rstrip(), False)
    assert changes["op_host/abs_math_tiling.h"][0] is None and not changes["op_host/abs_math_tiling.h"][2]
    assert host_uri.endswith("answer/0/op_host/abs_math.cpp")


async def test_improve_performance_in_dynamic_shape_needs_the_host_tiling(client: LanguageClient,
                                                                         task: Path) -> None:
    uri = open_file(client, task / "answer" / "1" / "op_kernel" / "abs_math.cpp", KERNEL)  # no op_host beside it
    APPLIED.clear()
    result = await _run(client, "akgen.server.improvePerformance", uri)
    assert result["written"] is False and APPLIED == []
    assert "needs the kernel's host tiling" in result["message"] and "run Generate kernel" in result["message"]
