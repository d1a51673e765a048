"""Check on save: compile the kernel on the sim toolchain, run its task's cases, compare, estimate.

`SaveChecks.check(host, doc, settings)` runs `akgen_lsp.check.kernel.check_kernel` in a job of the persistent check
worker (`check.worker`: imported once, one process tree per job), so a new save, closing the document or
shutdown kills the job's whole tree (compiler and simulator included) and the next save starts warm.

When a save checks (setting ``check_on_save``): ``manual`` (the default) checks the saves a person makes, not those
the editor reports as automatic (``willSave`` reason AfterDelay or FocusOut: VS Code for the Web saves one second
after typing); ``always`` every save; ``off`` none. The command "check now" checks whatever the setting says.

What it publishes, for the version that was saved (moved to the text typed since, and following later edits: see
`server.tracking`):
- source ``build``: compile errors (``akgen-build``);
- source ``run``: runtime check failures at the user's line and wrong numbers (``akgen-run``), task problems
  (``akgen-bench``, also shown once as a message) and one information at the kernel entry line with the figures,
  labelled as an estimate: ``estimated 11.8 us on Ascend910B2 (estimate), 1/1 cases pass``.
A kernel no task applies to gets one message per file saying how to add one (the lint still runs). A crash of the
check is logged and shown once per message; the server keeps serving.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import os
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.workspace import TextDocument

from akgen_lsp.bench.cann import select_toolchain
from akgen_lsp.check.result import CheckResult, Figures, Status, check_timeout
from akgen_lsp.check.worker import CheckFailed, CheckWorker, plain_settings
from akgen_lsp.config import Settings
from akgen_lsp.findings import Finding, Severity, Span
from akgen_lsp.sandbox import sandbox_warning
from akgen_lsp.server.documents import Checked
from akgen_lsp.server.features.check_ahead import CheckAhead
from akgen_lsp.server.features.headers import HeaderFindings, include_line
from akgen_lsp.server.host import FeatureHost

log = logging.getLogger(__name__)

BUILD = "build"
RUN = "run"
ESTIMATE_CODE = "AKGEN-ESTIMATE"
AUTOMATIC_REASONS = (types.TextDocumentSaveReason.AfterDelay, types.TextDocumentSaveReason.FocusOut)

HEADER_SUFFIXES = (
    ".h",
    ".hh",
    ".hpp",
    ".hxx",
    ".inc",
)  # saved alone, a header is no kernel: no "no task" message
_ENTRY_RE = re.compile(r'extern\s*"C"|__global__')

NO_TASK = (
    "akgen: {name} has no task, so saving it only lints it. To compile and run it on the CPU simulator on save, "
    "add a [[task]] for it to akgen.toml (file, kernel, block_dim, inputs, outputs and a PyTorch reference; "
    "samples/akgen.toml shows every field), or put it in an NPUKernelBench layout (<Op>/answer/N/op_kernel/) or an "
    "operator repository's layout with a kernel UT (<op>/op_kernel/, <op>/tests/ut/op_kernel/CMakeLists.txt with "
    "AddOpTestCase for an ascend910b SoC), or set ops.test_command in akgen.toml."
)


def should_check(setting: str, reason: types.TextDocumentSaveReason | None) -> bool:
    """Whether a save with this `willSave` reason (None: the client sent none, a person saved) starts a check."""
    if setting == "off":
        return False
    if setting == "always":
        return True
    return reason not in AUTOMATIC_REASONS


def entry_line(text: str) -> int:
    """The 1-based line of the kernel entry (``extern "C" __global__ __aicore__ void name(``), else 1."""
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        code = line.split("//", 1)[0]
        if _ENTRY_RE.search(code) and "(" in code:
            return number
    for number, line in enumerate(lines, start=1):
        if _ENTRY_RE.search(line.split("//", 1)[0]):
            return number
    return 1


def figures_message(figures: Figures) -> str | None:
    """The one-line summary of a check's figures, or None when there is nothing to say (no task, no estimate)."""
    if not figures.task:
        return None
    parts: list[str] = []
    est = figures.estimate_us
    arch = figures.arch or "the target"
    cases, passed = figures.cases, figures.passed_cases
    if figures.status is Status.COMPILE_ERROR:
        parts.append(f"did not compile: no estimate on {arch}")
        if isinstance(cases, int):
            parts.append(f"0/{cases} cases run")
        return ", ".join(parts)
    if isinstance(est, (int, float)):
        label = figures.estimate_label or "estimate"
        extra = f"; bound: {figures.bound}" if figures.bound else ""
        parts.append(f"estimated {est:.1f} us on {arch} ({label}{extra})")
    else:
        parts.append(f"no time estimate on {arch} (status: {figures.status or 'unknown'})")
    if isinstance(cases, int) and isinstance(passed, int):
        parts.append(f"{passed}/{cases} cases pass")
    return ", ".join(parts)


def split_findings(
    path: str, text: str, findings: Sequence[Finding], figures: Figures
) -> dict[str, list[Finding]]:
    """The findings by server source (``build``, ``run``), with the figures as an information at the entry line.

    Findings about another file (a host file, the task folder) are placed at line 1 of this one with the file named,
    so they are not lost.
    """
    out: dict[str, list[Finding]] = {BUILD: [], RUN: []}
    here = os.path.realpath(path)
    for f in findings:
        if f.span.path and os.path.realpath(f.span.path) != here:
            # at the line that includes that file, when this one does (a header's error), else at line 1; the
            # finding's own place is its related information
            at = include_line(path, text, f.span.path) or 1
            related = [{"path": f.span.path, "line": f.span.line, "message": f"{f.code} is here"}]
            f = Finding(
                f.code,
                f"{f.message} ({f.span.path}:{f.span.line})",
                Span.point(path, at),
                severity=f.severity,
                source=f.source,
                error_class=f.error_class,
                data={**(f.data or {}), "related": related},
            )
        elif f.span.line == f.span.end_line and f.span.column == f.span.end_column:
            # a compiler's point location: underline the word there, so every editor shows it
            word = word_span(text, f.span)
            f = dataclasses.replace(f, span=word.with_path(f.span.path)) if word is not None else f
        out[BUILD if f.source == "akgen-build" else RUN].append(f)
    message = figures_message(figures)
    if message is not None:
        out[RUN].append(
            Finding(
                ESTIMATE_CODE,
                message,
                Span.point(path, entry_line(text)),
                severity=Severity.INFO,
                source="akgen-run",
                data=figures.to_json(leave_out=("timings", "trace")),
            )
        )
    return out


def word_span(text: str, span: Span) -> Span | None:
    """The identifier at the start of `span` (a compiler's point location), as a span; None when there is none."""
    lines = text.splitlines()
    if not 0 < span.line <= len(lines):
        return None
    line = lines[span.line - 1]
    start = end = span.column - 1
    while end < len(line) and (line[end].isalnum() or line[end] == "_"):
        end += 1
    if end == start:
        return None
    return Span(span.path, span.line, start + 1, span.line, end + 1)


def text_digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


def trace_path(folder: Path, path: str) -> Path:
    """Where the last run's Chrome trace of `path` is kept: one file per kernel, overwritten by each check."""
    digest = hashlib.sha1(os.path.realpath(path).encode()).hexdigest()[:10]
    return folder / f"{Path(path).stem}-{digest}.trace.json"


def trace_folder() -> Path:
    """``$AKGEN_TRACE_DIR``, else ``traces/`` in the user's private cache folder (owner and mode checked)."""
    from akgen_lsp.safety import cache_base, private_dir

    given = os.environ.get("AKGEN_TRACE_DIR")
    try:
        return private_dir(Path(given)) if given else cache_base() / "traces"
    except OSError as exc:  # not private: traces go to a fresh private temporary folder instead
        import tempfile

        log.warning("akgen: %s; the run traces go to a temporary folder", exc)
        return Path(tempfile.mkdtemp(prefix="akgen-traces-"))


# after a check of a kernel with a task: (host, the check, settings), awaited in the check's own task (a new save of
# the document cancels it with the check)
Followup = Callable[[FeatureHost, Checked, Settings], Awaitable[None]]


def short_summary(figures: Figures) -> str:
    """The few words a status line has room for: "1/1 cases pass, 11.8 us (estimate)", "did not compile"."""
    if figures.status is Status.COMPILE_ERROR:
        return "did not compile"
    parts = []
    cases, passed = figures.cases, figures.passed_cases
    if isinstance(cases, int) and isinstance(passed, int):
        parts.append(f"{passed}/{cases} cases pass")
    est = figures.estimate_us
    if isinstance(est, (int, float)):
        parts.append(f"{est:.1f} us (estimate)")
    return ", ".join(parts) or str(figures.status or "done")


@dataclass
class LastCheck:
    """What the last finished check of a document said (the status bar, "show the trace", `akgen/status`)."""

    uri: str
    state: str  # "running", "passed", "failed", "error", "no task", "cancelled"
    message: str
    seconds: float | None = None
    trace: str | None = None
    figures: dict[str, Any] = field(
        default_factory=dict
    )  # as JSON: it goes to the client (`akgen.server.info`)
    summary: str = ""  # short, with the file's name: "add_custom.cpp: 1/1 cases pass, 11.8 us (estimate)"


class SaveChecks:
    """The check-on-save feature of one server: its worker, what each document's last check said."""

    def __init__(self, worker: CheckWorker | None = None, traces: Path | None = None) -> None:
        self.worker = worker or CheckWorker()
        self.traces = traces or trace_folder()
        self.last: dict[str, LastCheck] = {}
        self.followups: list[Followup] = []
        self._no_task_said: set[str] = set()
        self.started: dict[str, str] = {}  # per document: the digest of the text its last check started from
        self.headers = HeaderFindings(
            lambda path, text, found: split_findings(path, text, found, Figures.no_task())
        )
        self._warming: asyncio.Task[None] | None = None
        self.ahead = CheckAhead()

    # -------------------------------------------------------------------------------------------- warm-up

    def warm(self, host: FeatureHost, settings: Settings) -> None:
        """Start the worker and build the precompiled header in the background (once per server)."""
        if self._warming is not None or not _toolchain_on(settings) or settings["check_on_save"] == "off":
            return

        async def run() -> None:
            try:
                prepared = await self.worker.warm(plain_settings(settings))
                log.info("check worker warm (%s): %s", self.worker.import_s, prepared)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the first save says what is wrong, with its own message
                log.warning("warming the check worker failed: %s", exc)

        self._warming = asyncio.ensure_future(run())

    # -------------------------------------------------------------------------------------------- check ahead

    def changed(self, host: FeatureHost, doc: TextDocument, settings: Settings) -> None:
        """After an edit of an AscendC document: its check ahead (features/check_ahead.py) restarts for the new text."""
        if not host.is_ascendc(doc, settings):
            return
        timeout = float(settings["toolchain.timeout_s"])
        trace = str(ahead_trace(trace_path(self.traces, doc.path)))

        async def check(path: str, plain: Mapping[str, Any], text: str) -> CheckResult:
            result = await self.worker.check(path, plain, check_timeout(timeout), trace, text=text)
            host.log(
                f"akgen: checked {Path(path).name} ahead of its save ({result.seconds:.2f} s, "
                f"{result.figures.status or 'no task'})"
            )
            return result

        self.ahead.schedule(doc, settings, check)

    def take_ahead(self, doc: TextDocument, settings: Settings) -> asyncio.Task[CheckResult] | None:
        """On save: the check ahead of the saved text, if still valid; then nothing else's check ahead is (a saved
        file may be what another kernel includes)."""
        ahead = self.ahead.take(doc, plain_settings(settings))
        self.ahead.invalidate()
        return ahead

    # -------------------------------------------------------------------------------------------- the check

    async def check(
        self,
        host: FeatureHost,
        doc: TextDocument,
        settings: Settings,
        ahead: asyncio.Task[CheckResult] | None = None,
    ) -> None:
        """Check the saved document and publish ``build`` and ``run`` for the version that was saved (with `ahead`,
        the check ahead of the saved text gives the result)."""
        if not _toolchain_on(settings):
            return
        if (warning := sandbox_warning(settings)) is not None:  # every check: sandbox off, or it cannot start
            host.show(warning, types.MessageType.Warning)
        uri, path = doc.uri, doc.path
        self.started[uri] = text_digest(doc.source)
        name = Path(path).name
        timeout = float(settings["toolchain.timeout_s"])
        tool = select_toolchain(str(settings["toolchain.name"]))
        self._status(
            host, LastCheck(uri, "running", f"checking {name} on {tool}", summary=f"checking {name}")
        )
        token = await host.begin_progress(f"akgen: checking {name} on {tool}")
        last = LastCheck(uri, "cancelled", "cancelled")
        try:
            last = await self._run(host, doc, settings, timeout, ahead)
        finally:
            host.end_progress(token, last.message)
            if last.state != "cancelled":
                self.last[uri] = last
            self._status(host, last)
        checked = host.state(uri).last_check if host.is_open(uri) else None
        if checked is not None and checked.version == doc.version and last.state != "cancelled":
            for followup in self.followups:
                try:
                    await followup(host, checked, settings)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # a broken follow-up must not take the check down
                    log.exception("after the check of %s: %s failed", checked.path, followup)
                    host.log(f"akgen: after the check: {type(exc).__name__}: {exc}", types.MessageType.Error)

    async def _run(
        self,
        host: FeatureHost,
        doc: TextDocument,
        settings: Settings,
        timeout: float,
        ahead: asyncio.Task[CheckResult] | None = None,
    ) -> LastCheck:
        uri, version, path, text = doc.uri, doc.version, doc.path, doc.source
        name = Path(path).name
        trace = trace_path(self.traces, path)
        try:
            result = await _ahead_result(ahead, trace) if ahead is not None else None
            if result is not None:
                host.log(f"akgen: {name}: the save shows the check made ahead of it (the same text)")
            else:
                result = await self.worker.check(
                    path, plain_settings(settings), check_timeout(timeout), str(trace)
                )
        except (asyncio.TimeoutError, TimeoutError):
            problem = (
                f"akgen: checking {name} on save took too long and was stopped; raise toolchain.timeout_s "
                'or set check_on_save to "off".'
            )
            host.show_once(problem, types.MessageType.Error)
            return LastCheck(
                uri, "error", f"{name}: the check took too long", summary=f"{name}: took too long"
            )
        except CheckFailed as exc:
            problem = f"akgen: checking {name} on save failed ({exc}); see the server log."
            if host.show_once(problem, types.MessageType.Error):
                log.error("check on save of %s failed: %s", path, exc)
            return LastCheck(uri, "error", f"{name}: the check failed", summary=f"{name}: the check failed")
        figures = result.figures
        if not figures.task:
            if result.findings:  # the task itself is wrong (a bench task not in the suite, a broken layout)
                host.publish_sources(uri, {BUILD: [], RUN: result.findings}, version=version, text=text)
                problem = str(figures.problem or result.findings[0].message)
                host.show_once(f"akgen: {name}: {problem}", types.MessageType.Error)
                return LastCheck(
                    uri, "error", f"{name}: task error", result.seconds, summary=f"{name}: task error"
                )
            host.clear_sources(uri, (BUILD, RUN))
            if path not in self._no_task_said and Path(path).suffix.lower() not in HEADER_SUFFIXES:
                self._no_task_said.add(path)
                host.show(NO_TASK.format(name=name), types.MessageType.Info)
            return LastCheck(
                uri,
                "no task",
                f"{name} has no task: lint only (a [[task]] for it in akgen.toml "
                "compiles and runs it on save; samples/akgen.toml shows the fields)",
                result.seconds,
                summary=f"{name}: no task, lint only (add a [[task]] to akgen.toml)",
            )
        if host.is_open(uri):
            host.state(uri).last_check = Checked(uri, version, path, text, result)
        findings = result.findings
        if settings["fix.deterministic"]:  # fixes are offered once they verified (features/repair.py)
            findings = [dataclasses.replace(f, fixes=()) for f in findings]
        host.publish_sources(uri, split_findings(path, text, findings, figures), version=version, text=text)
        self._publish_included(host, uri, path, text, findings)
        summary = figures_message(figures) or "done"
        passed = figures.status is Status.PASS
        return LastCheck(
            uri,
            "passed" if passed else "failed",
            f"{name}: {summary}",
            result.seconds,
            figures.trace or None,
            figures.to_json(leave_out=("timings",)),
            f"{name}: {short_summary(figures)}",
        )

    def _publish_included(
        self, host: FeatureHost, uri: str, path: str, text: str, findings: Sequence[Finding]
    ) -> None:
        """Findings in other files of the check (a header the kernel includes, directly or through another header)
        published for those files, open or not, with the kernel's including line as related information; a header
        no check shows anything in any more is cleared."""
        here = os.path.realpath(path)
        by_file: dict[str, list[Finding]] = {}
        for f in findings:
            other = os.path.realpath(f.span.path) if f.span.path else here
            if other == here or not os.path.isfile(other):
                continue
            at = include_line(path, text, other)
            related = [{"path": path, "line": at or 1, "message": f"included by {Path(path).name}"}]
            by_file.setdefault(Path(other).as_uri(), []).append(
                dataclasses.replace(f, data={**(f.data or {}), "related": related})
            )
        self.headers.update(host, uri, by_file)

    def _status(self, host: FeatureHost, last: LastCheck) -> None:
        host.notify_status(
            check={
                "uri": last.uri,
                "state": last.state,
                "message": last.message,
                "summary": last.summary,
                "seconds": last.seconds,
                "trace": last.trace,
            }
        )

    async def close(self) -> None:
        if self._warming is not None and not self._warming.done():
            self._warming.cancel()
        await self.ahead.close()
        await self.worker.close()


def ahead_trace(trace: Path) -> Path:
    """Where a check ahead writes its Chrome trace (the save's trace file is only replaced when it is used)."""
    return trace.with_name(trace.stem + ".ahead" + trace.suffix)


async def _ahead_result(ahead: asyncio.Task[CheckResult], trace: Path) -> CheckResult | None:
    """The result of the check ahead, its trace moved to the save's trace file; None if it did not give one (it
    failed or was cancelled: the save then checks itself). Cancelling the save cancels it too."""
    try:
        result = await asyncio.shield(ahead)
    except asyncio.CancelledError:
        if not ahead.cancelled():  # the save itself was cancelled (a new save): the check ahead goes with it
            ahead.cancel()
            raise
        return None
    except Exception:  # CheckFailed, a timeout: the save's own check says what is wrong
        return None
    if result.figures.trace:
        try:
            os.replace(str(result.figures.trace), trace)
            return dataclasses.replace(result, figures=dataclasses.replace(result.figures, trace=str(trace)))
        except OSError:
            pass
    return result


def _toolchain_on(settings: Settings) -> bool:
    return str(settings["toolchain.name"]) != "none"
