"""The verified model repair with real parts: llama.cpp inference of the tiny GGUF, forced by a GBNF grammar to give a
known answer, then extracted, linted, compiled and run on the simulator in the check worker's jobs."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from conftest import llama_server_process  # tests/conftest.py

from akgen_lsp.check.process import descendants
from akgen_lsp.check.result import Checker, CheckResult
from akgen_lsp.check.worker import CheckWorker, checker_for, plain_settings
from akgen_lsp.config import Settings, load_settings
from akgen_lsp.findings import apply_edits
from akgen_lsp.model.backends.llama_cpp import LlamaCppBackend
from akgen_lsp.model.backends.openai import OpenAIBackend
from akgen_lsp.model.tiny import literal_grammar, write_tiny_gguf
from akgen_lsp.repair.edits import minimal_edits
from akgen_lsp.repair.model_repair import model_repair
from akgen_lsp.repair.verify import repairable

from .conftest import WORKSPACE, broken, original

pytestmark = pytest.mark.asyncio(loop_scope="module")

# the kernel with the name of an API mistyped: its build error is the one the model is asked to repair
BROKEN = (("Abs(yLocal, xIn, TILE_LENGTH);", "AscendC::Absolute(yLocal, xIn, TILE_LENGTH);"),)
# a plausible repair that compiles and runs, and computes the wrong thing (-x instead of |x|)
WRONG = original().replace("Abs(yLocal, xIn, TILE_LENGTH);", "Muls(yLocal, xIn, (half)-1.0, TILE_LENGTH);")


def answer(code: str, why: str = "Absolute is not an Ascend C API; the absolute value is Abs.") -> str:
    return f"{why}\n\n```cpp\n{code.rstrip()}\n```\n"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_gguf(tmp_path_factory.mktemp("gguf") / "tiny.gguf", n_ctx=16384)


def settings_for(ws: Path, grammar: str, samples: int = 1, **extra: object) -> Settings:
    return load_settings(ws).with_overrides({"fix.grammar": grammar, "fix.samples": samples, "fix.max_tokens": 2400,
                                             "fix.temperature": 0.7, "model.n_ctx": 16384, **extra}, "test")


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the workspace for the module (a repair checks texts; it never writes the file)."""
    dst = tmp_path_factory.mktemp("model-ws") / "ws"
    shutil.copytree(WORKSPACE, dst)
    return dst


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def worker() -> AsyncIterator[CheckWorker]:
    w = CheckWorker()
    try:
        yield w
    finally:
        await w.close()


_BEFORE: dict[str, CheckResult] = {}


async def _before(ws: Path, checker: Checker) -> tuple[str, str, CheckResult]:
    """The broken kernel, its path and its check (made once per module)."""
    text = broken(*BROKEN)
    path = str(ws / "abs.cpp")
    if path not in _BEFORE:
        _BEFORE[path] = await checker(path, text)
    return text, path, _BEFORE[path]


async def _repair(ws: Path, tiny: Path, worker: CheckWorker, grammar: str, samples: int = 1):  # type: ignore[no-untyped-def]
    settings = settings_for(ws, grammar, samples)
    checker = checker_for(worker, plain_settings(settings), 300.0)
    text, path, before = await _before(ws, checker)
    target = next(f for f in before.findings if repairable(f))
    backend = LlamaCppBackend(str(tiny), n_ctx=16384, n_threads=1)
    await backend.load()
    steps: list[tuple[str, int | None]] = []
    result = await model_repair(text, path, target, before, backend, checker, settings,
                                progress=lambda m, p: steps.append((m, p)))
    return text, result, steps


async def test_a_forced_answer_is_verified_and_offered_as_a_minimal_edit(ws: Path, tiny: Path,
                                                                         worker: CheckWorker) -> None:
    text, result, steps = await _repair(ws, tiny, worker, literal_grammar(answer(original())))
    best = result.best
    assert best is not None and best.text == original(), [c.failure() for c in result.candidates]
    assert result.title() == "Fix with KernelGen-LM: compiles, 1/1 cases pass" or \
        result.title().startswith("Fix with KernelGen-LM: compiles, 1/1 cases pass, est.")
    (edit,) = minimal_edits(text, best.text, "abs.cpp")  # one small edit, not the whole file
    assert edit.span.line == edit.span.end_line and apply_edits(text, [edit]) == original()
    assert (edit.span.column, edit.span.end_column, edit.new_text) == (14, 30, "bs")  # "AscendC::Absolute" -> "Abs"
    assert "verified on the simulator" in result.message()
    assert steps[0][0] == "building the diagnostic report" and steps[-1][1] == 100
    assert result.report is not None and "Absolute" in result.report.markdown()


async def test_a_plausible_but_wrong_repair_is_rejected_with_its_first_failure(ws: Path, tiny: Path,
                                                                              worker: CheckWorker) -> None:
    _text, result, _steps = await _repair(ws, tiny, worker, literal_grammar(answer(WRONG, "Use Muls.")))
    assert result.best is None
    (c,) = result.candidates
    assert c.verdict is not None and c.verdict.outcome.compiles and not c.ok
    message = result.message()
    assert "none of 1 candidates verified, so nothing was applied" in message
    assert "still fails" in message or "no case passes" in message


@pytest.mark.parametrize(("says", "why"), [
    ("I cannot repair this kernel without more context.", "the answer holds no code"),
    (answer(original().replace("abs_half", "abs_float")), "a different kernel: its entry is abs_float, not abs_half"),
    (answer(original()[:300]), "a different kernel"),
    (answer(broken(*BROKEN)), "the answer is the file unchanged"),
])
async def test_bad_answers_are_screened_before_any_compile(ws: Path, tiny: Path, worker: CheckWorker, says: str,
                                                           why: str) -> None:
    _text, result, _steps = await _repair(ws, tiny, worker, literal_grammar(says))
    (c,) = result.candidates
    assert c.verdict is None and c.problem is not None and c.problem.startswith(why)
    assert why in result.message()


async def test_the_openai_backend_against_llama_cpp_server(ws: Path, tiny: Path, worker: CheckWorker,
                                                           tmp_path: Path) -> None:
    """The same forced answer through `python -m llama_cpp.server` (the grammar goes in the request body)."""
    settings = settings_for(ws, literal_grammar(answer(original())))
    checker = checker_for(worker, plain_settings(settings), 300.0)
    text, path, before = await _before(ws, checker)
    target = next(f for f in before.findings if repairable(f))
    with llama_server_process(tiny, tmp_path / "server.log", n_ctx=16384) as server:
        backend = OpenAIBackend(server.base_url, model="tiny", timeout_s=300.0)
        try:
            await backend.load()
            result = await model_repair(text, path, target, before, backend, checker, settings)
        finally:
            await backend.close()
    assert result.best is not None and result.best.text == original(), result.message()


async def test_a_backend_that_is_down_is_a_sentence_and_nothing_is_applied(ws: Path, worker: CheckWorker) -> None:
    from conftest import free_port

    settings = settings_for(ws, "")
    checker = checker_for(worker, plain_settings(settings), 300.0)
    text, path, before = await _before(ws, checker)
    target = next(f for f in before.findings if repairable(f))
    backend = OpenAIBackend(f"http://127.0.0.1:{free_port()}/v1", model="m", timeout_s=2.0, retries=0)
    result = await model_repair(text, path, target, before, backend, checker, settings)
    await backend.close()
    assert result.best is None and result.problem is not None
    assert result.message().startswith("KernelGen-LM: no repair: ") and "127.0.0.1" in result.message()


async def test_cancelling_the_repair_leaves_no_process(ws: Path, tiny: Path, worker: CheckWorker) -> None:
    """Cancelled while its candidates are being compiled and run: every job's process tree is gone."""
    settings = settings_for(ws, literal_grammar(answer(original())), samples=2, **{"fix.jobs": 2})
    checker = checker_for(worker, plain_settings(settings), 300.0)
    text, path, before = await _before(ws, checker)
    target = next(f for f in before.findings if repairable(f))
    backend = LlamaCppBackend(str(tiny), n_ctx=16384, n_threads=1)
    await backend.load()
    started = asyncio.Event()

    def progress(message: str, _pct: int | None) -> None:
        if message.startswith("verifying candidate"):
            started.set()

    task = asyncio.ensure_future(model_repair(text, path, target, before, backend, checker, settings,
                                              progress=progress))
    await asyncio.wait_for(started.wait(), 300)
    for _ in range(200):  # the job has forked and reported its pid
        if worker.job_pids():
            break
        await asyncio.sleep(0.02)
    pids = worker.job_pids()
    assert pids
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # until the job, what it started (reparented to the worker once the job is gone) and the worker's record of
    # it are gone: a bound that returns at the event, long enough for a loaded machine
    for _ in range(600):
        alive = [p for p in pids if _alive(p)]
        roots = [*pids, *([worker.pid] if worker.pid is not None else [])]
        left = [d for p in roots for d in descendants(p) if _alive(d)]
        if not alive and not left and not worker.job_pids():
            break
        await asyncio.sleep(0.05)
    assert not [p for p in pids if _alive(p)] and not worker.job_pids()
    assert worker.pid is not None and not [d for d in descendants(worker.pid) if _alive(d)]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return False
    finally:
        os.sched_yield()


async def test_a_candidate_that_never_ends_is_stopped_in_the_sandbox_and_rejected(ws: Path, tiny: Path,
                                                                                 worker: CheckWorker) -> None:
    hangs = original().replace("    __aicore__ inline void Process()\n    {\n",
                               "    __aicore__ inline void Process()\n    {\n        while (true) {}\n", 1)
    assert hangs != original()
    settings = settings_for(ws, literal_grammar(answer(hangs)), **{"toolchain.timeout_s": 5.0})
    checker = checker_for(worker, plain_settings(settings), 300.0)
    text, path, before = await _before(ws, checker)
    target = next(f for f in before.findings if repairable(f))
    backend = LlamaCppBackend(str(tiny), n_ctx=16384, n_threads=1)
    await backend.load()
    result = await model_repair(text, path, target, before, backend, checker, settings)
    (c,) = result.candidates
    assert c.verdict is not None and c.verdict.outcome.status == "timeout" and not c.ok
    assert "still fails" in result.message() or "no case passes" in result.message()
