"""The editor's "Generate kernel for this task" and "Improve performance" (``workspace/executeCommand``).

- ``akgen.server.generateKernel`` [uri]: the open kernel file of an NPUKernelBench task folder
  (``<Op>/question/op_kernel/<op>.cpp`` or an answer's); the closed loop (`akgen_lsp.generate`) runs its rounds with
  the configured model (the task's prompt, then each failure's diagnostic report), every round checked like a save
  in the check worker (the task's first case: a static-shape instance), with work-done progress that can be
  cancelled (the model stops, the checks' processes are killed);
- ``akgen.server.improvePerformance`` [uri]: the open kernel, which must pass its check, goes through performance
  rounds (``generate.perf_rounds``, at least one): feedback from the estimate, a faster kernel kept only if it still
  passes.
Only a kernel that verified is written, as one edit of the document (``workspace/applyEdit``), after a message that
says what was verified ("verified on the simulator: compiles, 1/1 cases pass, est. 1.0 us; round 2 of 3"); when none
verified, the message gives each round's outcome and nothing is written. The answer is a JSON object with
``message``, ``written`` and the rounds.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from lsprotocol import types

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.bench.tasks import TaskError, find_task_for_path
from akgen_lsp.findings import Edit, Span
from akgen_lsp.generate.attempt import Attempt
from akgen_lsp.generate.bench import loop_config
from akgen_lsp.generate.evaluators import CheckerEvaluator
from akgen_lsp.generate.loop import run_rounds
from akgen_lsp.generate.memory import ExperienceMemory
from akgen_lsp.model.backends import BackendError
from akgen_lsp.repair.backend import HOW_TO_CONFIGURE, repair_model
from akgen_lsp.repair.remember import store_for
from akgen_lsp.repair.verify import CheckOutcome
from akgen_lsp.server.check_worker import checker_for, plain_settings
from akgen_lsp.server.convert import Lines, workspace_edit
from akgen_lsp.server.features.commands import GENERATE_COMMANDS
from akgen_lsp.server.features.save_check import SaveChecks
from akgen_lsp.server.host import FeatureHost

GENERATE, IMPROVE = GENERATE_COMMANDS


class GenerateHost(FeatureHost, Protocol):
    checks: SaveChecks

    def client_supports_document_changes(self) -> bool: ...

    async def apply_edit(self, edit: types.WorkspaceEdit, label: str) -> bool: ...


def _fail(message: str) -> dict[str, Any]:
    return {"ok": False, "written": False, "message": f"akgen: {message}"}


async def run(host: GenerateHost, name: str, uri: str | None) -> dict[str, Any]:
    improve = name == IMPROVE
    if not uri or not host.is_open(uri):
        return _fail("open the kernel file of a task folder (<Op>/question/op_kernel/<op>.cpp) first.")
    doc = host.document(uri)
    settings = host.settings_for(doc)
    try:
        found = find_task_for_path(Path(doc.path))
    except TaskError as exc:
        return _fail(str(exc))
    if found is None:
        return _fail(f"{Path(doc.path).name} is not the kernel of an NPUKernelBench task folder "
                     "(<Op>/question/op_kernel/<op>.cpp with the task's api_desc.md and validation/ above it).")
    task, _index = found
    if str(settings["bench.mode"]) != "static":
        return _fail("the editor's generation writes one kernel file (static shape); for kernel + host tiling run "
                     f"`akgen generate --task {task.name} --mode dynamic`.")
    try:
        model = repair_model(settings, Path(doc.path).parent, kind="generation")
    except BackendError as exc:
        return _fail(str(exc))
    if model is None:
        return _fail(HOW_TO_CONFIGURE.replace('"Fix with KernelGen-LM" is not offered', "there is nothing to "
                                              "generate with"))
    if model.route:
        host.log(f"akgen: generation: {model.route}", types.MessageType.Info)
    what = "Improve performance" if improve else "Generate kernel"
    token = await host.begin_progress(f"akgen: {what} ({task.name}, {model.label})", cancellable=True)
    timeout = 3 * float(settings["toolchain.timeout_s"]) + 30.0
    checker = checker_for(host.checks.worker, plain_settings(settings), timeout, max_cases=1)
    version, original = doc.version, doc.source

    def say(message: str) -> None:
        host.report_progress(token, message)

    async def work() -> Attempt | str:
        await model.backend.load()
        cfg = loop_config(settings, model.backend, model.spec if model.spec.known else None)
        # Generate stops at the first kernel that passes; Improve performance is the performance rounds
        cfg = replace(cfg, perf_rounds=max(1, cfg.perf_rounds) if improve else 0)
        memory = ExperienceMemory(store_for(settings), model=model.label) if settings["generate.memory"] else None
        attempt = Attempt(task, load_arch(str(settings["arch"])), cfg, settings, memory=memory)
        if improve:
            say("checking the kernel as it is")
            before: CheckOutcome = await checker(doc.path, original)
            if before.status != "pass":
                return (f"Improve performance needs a kernel that passes; this one {before.summary()}: fix it first "
                        "(\"Fix with KernelGen-LM\", or Generate kernel).")
            attempt.seed(original, before)
        await run_rounds([attempt], model.backend, CheckerEvaluator(checker, doc.path), cfg, progress=say)
        return attempt

    job = asyncio.ensure_future(work())
    cancelled = False

    def stop() -> None:
        nonlocal cancelled
        cancelled = True
        job.cancel()

    host.on_progress_cancel(token, stop)
    result: Attempt | str | None = None
    try:
        result = await job
    except asyncio.CancelledError:
        if not cancelled:
            raise
    except BackendError as exc:
        result = f"the model failed: {exc}"
    finally:
        if not job.done():
            job.cancel()
        with contextlib.suppress(BaseException):
            await job
        with contextlib.suppress(Exception):
            await model.backend.close()
    if cancelled or result is None:
        host.end_progress(token, "cancelled: nothing was written")
        return {**_fail(f"{what} was cancelled; nothing was written."), "cancelled": True}
    if isinstance(result, str):
        host.end_progress(token, result)
        return _fail(result)
    return await _write(host, uri, version, original, result, improve, token, what)


async def _write(host: GenerateHost, uri: str, version: int | None, original: str, a: Attempt, improve: bool,
                 token: str | None, what: str) -> dict[str, Any]:
    rounds = [{"round": r.index, "kind": r.kind, "status": r.status, "summary": r.summary()} for r in a.rounds]
    history = "; ".join(f"round {r.index}: {r.summary()}" for r in a.rounds if r.kind != "given")
    best = a.best
    new = best is not None and best.code is not None and (not improve or best.kind != "given")
    if not new or best is None or best.code is None or best.outcome is None:
        why = a.stopped or ("no faster kernel kept every case passing" if improve else "no kernel passed")
        message = f"akgen: {what}: nothing verified, so nothing was written ({why}). {history}"
        host.end_progress(token, "nothing verified")
        host.show(message, types.MessageType.Warning)
        return {"ok": False, "written": False, "rounds": rounds, "message": message}
    verified = best.outcome.summary()
    gain = ""
    if improve and a.rounds[0].outcome is not None and a.rounds[0].outcome.estimate_us and best.outcome.estimate_us:
        gain = f", {a.rounds[0].outcome.estimate_us:.2f} us -> {best.outcome.estimate_us:.2f} us"
    message = (f"akgen: {what}: verified on the simulator before writing: {verified}{gain} (round {best.index} of "
               f"{len(a.rounds)}). {history}")
    host.end_progress(token, f"verified: {verified}")
    host.show(message, types.MessageType.Info)
    if not host.is_open(uri) or host.document(uri).version != version:
        message = "akgen: the document changed while the kernel was generated, so nothing was written."
        host.show(message, types.MessageType.Warning)
        return {"ok": False, "written": False, "rounds": rounds, "message": message}
    doc = host.document(uri)
    lines = Lines(original, doc.position_codec)
    end = original.splitlines() or [""]
    # the whole document up to the end of its last line (its final newline stays): no editor adds a line
    span = Span(doc.path, 1, 1, len(end), len(end[-1]) + 1)
    edit = workspace_edit(uri, version, [Edit(span, best.code.rstrip())], lines,
                          host.client_supports_document_changes())
    written = await host.apply_edit(edit, f"akgen: {what}")
    return {"ok": written, "written": written, "rounds": rounds, "verified": verified, "message": message,
            "code": best.code}
