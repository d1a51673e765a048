"""The editor's "Generate kernel for this task" and "Improve performance" (``workspace/executeCommand``).

- ``akgen.server.generateKernel`` [uri]: the open kernel file of an NPUKernelBench task folder
  (``<Op>/question/op_kernel/<op>.cpp`` or an answer's); the closed loop (`akgen_lsp.generate`) runs its rounds with
  the configured model (the task's prompt, then each failure's diagnostic report), every round checked like a save
  in the check worker, with work-done progress that can be cancelled (the model stops, the checks' processes are
  killed). In static shape (``bench.mode``) the answer is the kernel, checked on the task's first case (a
  static-shape instance); in dynamic shape it is the kernel and its host tiling (``op_host/<op>.cpp`` and
  ``op_host/<op>_tiling.h`` beside ``op_kernel/``), checked together on every case of the task;
- ``akgen.server.improvePerformance`` [uri]: the open kernel, which must pass its check, goes through performance
  rounds (``generate.perf_rounds``, at least one): feedback from the estimate, a faster kernel kept only if it still
  passes;
- ``akgen.server.cancelGenerate`` [uri]: stops the one running on that document as its progress's cancel does (VS
  Code's Cancel button, Neovim's :AkgenGenerateCancel); the running command then answers ``cancelled``. A
  ``$/cancelRequest`` cannot do it: pygls answers an executeCommand's cancel without stopping its handler.
Only a kernel that verified is written, as one edit of the document (``workspace/applyEdit``; in dynamic shape one
edit of the kernel and its op_host files, the tiling header created when it is new), after a message that says what
was verified ("verified on the simulator: compiles, 1/1 cases pass, est. 1.0 us; round 2 of 3"); when none
verified, the message gives each round's outcome and nothing is written; nothing is written either when one of the
files changed in the editor meanwhile. The answer is a JSON object with ``message``, ``written``, the rounds and
(dynamic shape) the ``files`` written.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from lsprotocol import types

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.bench.tasks import TaskError
from akgen_lsp.check.kernel import kernel_task
from akgen_lsp.check.result import CheckResult, Status, check_timeout
from akgen_lsp.check.worker import checker_for, plain_settings
from akgen_lsp.findings import Edit, Span
from akgen_lsp.generate.attempt import Attempt
from akgen_lsp.generate.bench import loop_config
from akgen_lsp.generate.evaluators import CheckerEvaluator
from akgen_lsp.generate.loop import run_rounds
from akgen_lsp.generate.memory import ExperienceMemory
from akgen_lsp.model.backends import BackendError
from akgen_lsp.repair.backend import HOW_TO_CONFIGURE, repair_model
from akgen_lsp.repair.remember import store_for
from akgen_lsp.server.convert import Lines, to_text_edits, workspace_edit
from akgen_lsp.server.features.commands import GENERATE_COMMANDS
from akgen_lsp.server.features.save_check import SaveChecks
from akgen_lsp.server.host import FeatureHost

GENERATE, IMPROVE, CANCEL = GENERATE_COMMANDS


class _Stop:
    """How a running generation is stopped (its progress's cancel, the cancel command); a stop asked for before the
    loop started is kept for it."""

    def __init__(self) -> None:
        self.requested = False
        self.job: asyncio.Future[Any] | None = None

    def __call__(self) -> None:
        self.requested = True
        if self.job is not None:
            self.job.cancel()


# each running generation's stop, by its document's URI (one at a time per document)
_RUNNING: dict[str, _Stop] = {}


class GenerateHost(FeatureHost, Protocol):
    checks: SaveChecks

    def client_supports_document_changes(self) -> bool: ...

    def client_supports_create_files(self) -> bool: ...

    async def apply_edit(self, edit: types.WorkspaceEdit, label: str) -> bool: ...


def _fail(message: str) -> dict[str, Any]:
    return {"ok": False, "written": False, "message": f"akgen: {message}"}


def cancel(uri: str | None) -> dict[str, Any]:
    """Stop the generation running on `uri`: nothing is written, and its command answers ``cancelled``."""
    stop = _RUNNING.get(uri or "")
    if stop is None:
        return {
            "ok": False,
            "cancelled": False,
            "message": "akgen: nothing is being generated for this file.",
        }
    stop()
    return {"ok": True, "cancelled": True, "message": "akgen: cancelling: nothing will be written."}


async def run(host: GenerateHost, name: str, uri: str | None) -> dict[str, Any]:
    if name == CANCEL:
        return cancel(uri)
    work = Path(
        tempfile.mkdtemp(prefix="akgen-generate-")
    )  # an akgen.toml table's task folder, while it runs
    try:
        return await _run(host, name, uri, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


async def _run(host: GenerateHost, name: str, uri: str | None, work: Path) -> dict[str, Any]:
    improve = name == IMPROVE
    if not uri or not host.is_open(uri):
        return _fail(
            "open a kernel that has a task (an akgen.toml [[task]], or <Op>/question/op_kernel/<op>.cpp of "
            "a task folder) first."
        )
    if uri in _RUNNING:
        return _fail("a generation is already running on this file: wait for its message, or cancel it.")
    doc = host.document(uri)
    settings = host.settings_for(doc)
    try:
        task = kernel_task(doc.path, settings, work)
    except (TaskError, OSError) as exc:
        return _fail(str(exc))
    if task is None:
        return _fail(
            f"{Path(doc.path).name} has no task: add a [[task]] for it to the akgen.toml beside it (file, "
            "kernel, inputs, outputs, reference; see samples/akgen.toml), or open the kernel of an "
            "NPUKernelBench task folder (<Op>/question/op_kernel/<op>.cpp)."
        )
    dynamic = str(settings["bench.mode"]) == "dynamic"
    host_files = _HostFiles(host, task.op, Path(doc.path).parent.parent / "op_host") if dynamic else None
    given = host_files.texts() if host_files is not None else {}
    if improve and host_files is not None and f"{task.op}.cpp" not in given:
        return _fail(
            f"Improve performance in dynamic shape needs the kernel's host tiling, "
            f"{host_files.folder / task.op}.cpp, and there is none: run Generate kernel (it writes both), "
            "or set bench.mode to static."
        )
    try:
        model = repair_model(settings, Path(doc.path).parent, kind="generation")
    except BackendError as exc:
        return _fail(str(exc))
    if model is None:
        return _fail(
            "no model configured: see models/README.md. "
            + HOW_TO_CONFIGURE.replace(
                'No model is configured, so "Fix with KernelGen-LM" is not offered. ', ""
            )
        )
    if model.route:
        host.log(f"akgen: generation: {model.route}", types.MessageType.Info)
    what = "Improve performance" if improve else "Generate kernel"
    shape = "dynamic shape, every case" if dynamic else "static shape"
    stop = _RUNNING[uri] = _Stop()  # from here on the cancel command finds it
    try:
        token = await host.begin_progress(
            f"akgen: {what} ({task.name}, {shape}, {model.label})", cancellable=True
        )
    except BaseException:
        _RUNNING.pop(uri, None)
        raise
    per_step = float(settings["toolchain.timeout_s"])
    # static: the first case (compile, run, compare); dynamic: the host and the kernel built, then every case
    timeout = check_timeout(per_step, 3 + len(task.cases()) if dynamic else 3)
    checker = checker_for(
        host.checks.worker, plain_settings(settings), timeout, max_cases=None if dynamic else 1
    )
    version, original = doc.version, doc.source

    def say(message: str) -> None:
        host.report_progress(token, message)

    async def work() -> Attempt | str:
        await model.backend.load()
        cfg = loop_config(settings, model.backend, model.spec if model.spec.known else None)
        # Generate stops at the first kernel that passes; Improve performance is the performance rounds
        cfg = replace(cfg, perf_rounds=max(1, cfg.perf_rounds) if improve else 0)
        memory = (
            ExperienceMemory(store_for(settings), model=model.label) if settings["generate.memory"] else None
        )
        attempt = Attempt(task, load_arch(str(settings["arch"])), cfg, settings, memory=memory)
        if improve:
            say("checking the kernel as it is" + (" with its host tiling, every case" if host_files else ""))
            before: CheckResult = await (
                checker(doc.path, original, host=given) if given else checker(doc.path, original)
            )
            if before.status is not Status.PASS:
                return (
                    f"Improve performance needs a kernel that passes; this one {before.summary()}: fix it first "
                    '("Fix with KernelGen-LM", or Generate kernel).'
                )
            attempt.seed(original, before, given)
        await run_rounds([attempt], model.backend, CheckerEvaluator(checker, doc.path), cfg, progress=say)
        return attempt

    job = stop.job = asyncio.ensure_future(work())
    if stop.requested:
        job.cancel()
    host.on_progress_cancel(token, stop)
    result: Attempt | str | None = None
    try:
        result = await job
    except asyncio.CancelledError:
        if not stop.requested:
            raise
    except BackendError as exc:
        result = f"the model failed: {exc}"
    finally:
        _RUNNING.pop(uri, None)
        if not job.done():
            job.cancel()
        with contextlib.suppress(BaseException):
            await job
        with contextlib.suppress(Exception):
            await model.backend.close()
    if stop.requested or result is None:
        host.end_progress(token, "cancelled: nothing was written")
        return {**_fail(f"{what} was cancelled; nothing was written."), "cancelled": True}
    if isinstance(result, str):
        host.end_progress(token, result)
        return _fail(result)
    return await _write(host, uri, version, original, result, improve, token, what, host_files)


async def _write(
    host: GenerateHost,
    uri: str,
    version: int | None,
    original: str,
    a: Attempt,
    improve: bool,
    token: str | None,
    what: str,
    host_files: _HostFiles | None,
) -> dict[str, Any]:
    rounds = [
        {"round": r.index, "kind": r.kind, "status": r.status, "summary": r.summary()} for r in a.rounds
    ]
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
    if (
        improve
        and a.rounds[0].outcome is not None
        and a.rounds[0].outcome.estimate_us
        and best.outcome.estimate_us
    ):
        gain = f", {a.rounds[0].outcome.estimate_us:.2f} us -> {best.outcome.estimate_us:.2f} us"
    files = a.host_files(best)
    together = ""
    if host_files is not None:
        names = ", ".join(f"op_host/{n}" for n in sorted(files))
        together = f" (dynamic shape: op_kernel/{a.task.op}.cpp with {names}, every case)"
    message = (
        f"akgen: {what}: verified on the simulator before writing: {verified}{gain}{together} (round "
        f"{best.index} of {len(a.rounds)}). {history}"
    )
    host.end_progress(token, f"verified: {verified}")
    host.show(message, types.MessageType.Info)
    changed = not host.is_open(uri) or host.document(uri).version != version
    if host_files is not None and not changed:
        changed = host_files.changed()
    if changed:
        message = (
            "akgen: a file changed in the editor while the kernel was generated, so nothing was written."
        )
        host.show(message, types.MessageType.Warning)
        return {"ok": False, "written": False, "rounds": rounds, "message": message}
    doc = host.document(uri)
    lines = Lines(original, doc.position_codec)
    end = original.splitlines() or [""]
    # the whole document up to the end of its last line (its final newline stays): no editor adds a line
    span = Span(doc.path, 1, 1, len(end), len(end[-1]) + 1)
    edit = workspace_edit(
        uri, version, [Edit(span, best.code.rstrip())], lines, host.client_supports_document_changes()
    )
    written_files = [doc.path]
    if host_files is not None:
        written_files += host_files.add_to(edit, files, doc.position_codec)
    written = await host.apply_edit(edit, f"akgen: {what}")
    answer: dict[str, Any] = {
        "ok": written,
        "written": written,
        "rounds": rounds,
        "verified": verified,
        "message": message,
        "code": best.code,
    }
    if host_files is not None:
        answer["files"] = written_files if written else []
        answer["host"] = files
        if written:
            host.show(
                f"akgen: {what}: wrote {', '.join(Path(f).name for f in written_files)} in the editor; save "
                "them to keep them (the host files are edited in their buffers).",
                types.MessageType.Info,
            )
    return answer


class _HostFiles:
    """Dynamic shape: the op_host folder beside the kernel's op_kernel/ (``<op>.cpp``, ``<op>_tiling.h``), read from
    the editor where a file is open, else from disk; their versions are kept so that a change meanwhile is seen."""

    def __init__(self, host: GenerateHost, op: str, folder: Path) -> None:
        self.host, self.op, self.folder = host, op, folder
        self.names = (f"{op}.cpp", f"{op}_tiling.h")
        self.before = {name: self._state(name) for name in self.names}

    def _uri(self, name: str) -> str:
        return (self.folder / name).as_uri()

    def _state(self, name: str) -> tuple[str, int | None, str | None]:
        """(where, editor version, text): open in the editor, on disk, or missing."""
        uri = self._uri(name)
        if self.host.is_open(uri):
            d = self.host.document(uri)
            return "open", d.version, d.source
        try:
            return "disk", None, (self.folder / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return "missing", None, None

    def texts(self) -> dict[str, str]:
        return {name: text for name, (_w, _v, text) in self.before.items() if text is not None}

    def changed(self) -> bool:
        return any(self._state(name) != self.before[name] for name in self.names)

    def add_to(self, edit: types.WorkspaceEdit, files: dict[str, str], codec: Any) -> list[str]:
        """Add the op_host files' edits to `edit` (after the kernel's): each whole file replaced, a new file created
        first (or, for a client that cannot create files, written here: it did not exist, so nothing is lost).
        Returns the paths."""
        out = []
        can_create = self.host.client_supports_create_files() and edit.document_changes is not None
        for name in self.names:
            text = files.get(name)
            if text is None:
                continue
            where, ver, old = self.before[name]
            path, uri = self.folder / name, self._uri(name)
            if where == "missing" and not can_create:
                self.folder.mkdir(parents=True, exist_ok=True)
                path.write_text(text.rstrip() + "\n", encoding="utf-8")
                out.append(str(path))
                continue
            old_lines = (old or "").splitlines() or [""]
            span = Span(str(path), 1, 1, len(old_lines), len(old_lines[-1]) + 1)
            new = text.rstrip() if where != "missing" else text.rstrip() + "\n"
            (te,) = to_text_edits([Edit(span, new)], Lines(old or "", codec))
            if edit.document_changes is not None:
                if where == "missing":
                    edit.document_changes.append(
                        types.CreateFile(
                            uri=uri, options=types.CreateFileOptions(overwrite=False, ignore_if_exists=True)
                        )
                    )
                edit.document_changes.append(
                    types.TextDocumentEdit(
                        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=ver),
                        edits=[te],
                    )
                )
            else:
                edit.changes = {**(edit.changes or {}), uri: [te]}
            out.append(str(path))
        return out
