"""Check on save: compile the kernel on the sim toolchain, run its task's cases, compare, estimate.

The server registers `check_on_save` as ``save_checks["build"]``; on each save of an AscendC document (setting
``check_on_save``) it runs `akgen_lsp.bench.check.check_kernel` in a child process of its own session (this module
run as ``python -m akgen_lsp.server.features.save_check``: JSON request on stdin, JSON answer on stdout), so a new
save or closing the document cancels the check and kills the whole process group (compiler and simulator included).

What it publishes, for the version that was saved (dropped when the text changed since):
- source ``build``: compile errors (``akgen-build``);
- source ``run``: runtime check failures at the user's line and wrong numbers (``akgen-run``), task problems
  (``akgen-bench``) and one information at the kernel entry line with the figures, labelled as an estimate:
  ``estimated 11.8 us on Ascend910B2 (estimate), 1/1 cases pass``.
A file no task applies to gets nothing from this check (the lint still runs). A crash of the check is logged and
shown once per message; the server keeps serving.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import signal
import sys
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from lsprotocol import types
from pygls.workspace import TextDocument

from akgen_lsp.config import Settings
from akgen_lsp.findings import Finding, Severity, Span, finding_from_json, finding_to_json

if TYPE_CHECKING:
    from akgen_lsp.server.protocol import AkgenServer

log = logging.getLogger(__name__)

BUILD = "build"
RUN = "run"
ESTIMATE_CODE = "AKGEN-ESTIMATE"

# messages already shown to the user, per server: a crash repeated on every save is said once
_shown: WeakKeyDictionary[Any, set[str]] = WeakKeyDictionary()

_ENTRY_RE = re.compile(r'extern\s*"C"|__global__')


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


def figures_message(figures: Mapping[str, Any]) -> str | None:
    """The one-line summary of a check's figures, or None when there is nothing to say (no task, no estimate)."""
    if not figures.get("task"):
        return None
    parts: list[str] = []
    est = figures.get("estimate_us")
    arch = figures.get("arch") or "the target"
    if isinstance(est, (int, float)):
        label = figures.get("estimate_label") or "estimate"
        extra = f"; bound: {figures['bound']}" if figures.get("bound") else ""
        parts.append(f"estimated {est:.1f} us on {arch} ({label}{extra})")
    else:
        parts.append(f"no time estimate on {arch} (status: {figures.get('status') or 'unknown'})")
    cases, passed = figures.get("cases"), figures.get("passed_cases")
    if isinstance(cases, int) and isinstance(passed, int):
        parts.append(f"{passed}/{cases} cases pass")
    return ", ".join(parts)


def split_findings(path: str, text: str, findings: Sequence[Finding],
                   figures: Mapping[str, Any]) -> dict[str, list[Finding]]:
    """The findings by server source (``build``, ``run``), with the figures as an information at the entry line.

    Findings about another file (a host file, the task folder) are placed at line 1 of this one with the file named,
    so they are not lost.
    """
    out: dict[str, list[Finding]] = {BUILD: [], RUN: []}
    here = os.path.realpath(path)
    for f in findings:
        if f.span.path and os.path.realpath(f.span.path) != here:
            f = Finding(f.code, f"{f.message} ({f.span.path}:{f.span.line})", Span.point(path, 1),
                        severity=f.severity, source=f.source, error_class=f.error_class, data=f.data)
        out[BUILD if f.source == "akgen-build" else RUN].append(f)
    message = figures_message(figures)
    if message is not None:
        out[RUN].append(Finding(ESTIMATE_CODE, message, Span.point(path, entry_line(text)),
                                severity=Severity.INFO, source="akgen-run",
                                data={k: v for k, v in figures.items() if k != "timings"}))
    return out


def _plain_settings(settings: Settings) -> dict[str, Any]:
    return {k: v for k, v in settings.as_dict().items() if isinstance(v, (str, int, float, bool, list, type(None)))}


async def run_check(path: str, settings: Mapping[str, Any], timeout_s: float) -> tuple[list[Finding], dict[str, Any]]:
    """`check_kernel(path, settings)` in a child process group; cancelling the awaiting task kills the group.

    Raises RuntimeError with a sentence when the child fails or answers nonsense, TimeoutError past `timeout_s`.
    """
    request = json.dumps({"path": path, "settings": dict(settings)}).encode()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "akgen_lsp.server.features.save_check",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(request), timeout_s)
    except BaseException:  # cancelled (new save, close, shutdown) or timed out: nothing of it may keep running
        _kill_group(proc)
        raise
    finally:
        if proc.returncode is not None:
            _kill_group(proc)  # the kernel's own children, if any outlived it
    if proc.returncode != 0:
        tail = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"the check process exited with status {proc.returncode} ({tail[0]})")
    try:
        answer = json.loads(out)
        findings = [finding_from_json(f) for f in answer["findings"]]
        figures = dict(answer["figures"])
    except (ValueError, KeyError, TypeError) as exc:
        raise RuntimeError(f"the check process gave an answer that is not JSON findings ({exc})") from exc
    return findings, figures


def _kill_group(proc: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def _once(ls: Any, message: str) -> bool:
    seen = _shown.setdefault(ls, set())
    if message in seen:
        return False
    seen.add(message)
    return True


def _client_has_progress(ls: AkgenServer) -> bool:
    try:
        window = ls.client_capabilities.window
    except AttributeError:  # not initialized yet
        return False
    return bool(window and window.work_done_progress)


async def _begin_progress(ls: AkgenServer, title: str) -> str | None:
    if not _client_has_progress(ls):
        return None
    token = f"akgen-check-{uuid.uuid4().hex}"
    try:
        await asyncio.wait_for(ls.work_done_progress.create_async(token), 5.0)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # the client refused or did not answer: check without a progress bar
        log.debug("no work-done progress: %s", exc)
        return None
    ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(title=title, cancellable=False))
    return token


def _end_progress(ls: AkgenServer, token: str | None, message: str) -> None:
    if token is None:
        return
    try:
        ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))
    except Exception:  # the client is gone
        log.debug("could not end progress %s", token)
    ls.work_done_progress.tokens.pop(token, None)


async def check_on_save(ls: AkgenServer, doc: TextDocument, settings: Settings) -> None:
    """The ``save_checks["build"]`` entry: check the saved document and publish ``build`` and ``run``."""
    if str(settings.get("toolchain.name", "auto")) == "none":
        return
    uri, version, path, text = doc.uri, doc.version, doc.path, doc.source
    timeout = float(settings.get("toolchain.timeout_s", 60.0) or 60.0)
    from akgen_lsp.bench.cann import select_toolchain

    tool = select_toolchain(str(settings.get("toolchain.name", "auto")))
    token = await _begin_progress(ls, f"akgen: checking {Path(path).name} on {tool}")
    ended = "cancelled"
    try:
        try:
            findings, figures = await run_check(path, _plain_settings(settings), 3 * timeout + 30.0)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            ended = "failed"
            problem = f"akgen: checking {Path(path).name} on save failed ({exc}); see the server log."
            if isinstance(exc, TimeoutError):
                problem = (f"akgen: checking {Path(path).name} on save took too long and was stopped; raise "
                           "toolchain.timeout_s or turn check_on_save off.")
            if _once(ls, problem):
                log.error("check on save of %s failed: %s", path, exc)
                ls.show(problem, types.MessageType.Error)
            return
        if not figures.get("task"):
            ended = "no task for this file"
            for source in (BUILD, RUN):
                ls.clear_source(uri, source)
            return
        by_source = split_findings(path, text, findings, figures)
        for source in (BUILD, RUN):
            ls.publish_findings(uri, source, by_source[source], version=version)
        ended = figures_message(figures) or "done"
    finally:
        _end_progress(ls, token, ended)


def _main() -> int:
    """The child process: read ``{"path", "settings"}`` on stdin, print ``{"findings", "figures"}``."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    request = json.loads(sys.stdin.read())
    from akgen_lsp.bench.check import check_kernel

    findings, figures = check_kernel(request["path"], request.get("settings") or {})
    answer = {"findings": [finding_to_json(f) for f in findings], "figures": figures}
    sys.stdout.write(json.dumps(answer, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(_main())
