"""CANN build logs in the workspace -> findings at the files they name.

A custom-op build (`build.sh`, CMake, msopgen) writes logs such as ``build.log`` / ``build_out/*.log`` /
``CMakeFiles/CMakeError.log`` into the project. When one appears or changes, `logs.cann.parse_build_log`
reads it (bisheng diagnostics moved to the user's line, CMake, linker, msopgen errors) and its findings are shown in
the sources of the project it belongs to, as the ``log`` diagnostic source, until the log changes again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path

from akgen_lsp.findings import Finding
from akgen_lsp.logs.cann import parse_build_log

LOG_SOURCE = "log"
MAX_LOG_BYTES = 8 * 1024 * 1024
_LOG_NAMES = ("cmakeerror.log", "cmakeoutput.log")


def is_build_log(path: str | Path) -> bool:
    """A log a build wrote: ``*.log`` named like a build or CMake log, or any log in a ``build*`` / ``log*``
    folder."""
    p = Path(path)
    name = p.name.lower()
    if not name.endswith(".log"):
        return False
    if name in _LOG_NAMES or "build" in name or "compile" in name:
        return True
    return any(part.lower().startswith(("build", "log")) for part in p.parent.parts[-2:])


def project_root(log: Path, workspace: Path | None = None) -> Path:
    """The custom-op project a log belongs to: the nearest folder above it with ``op_kernel/`` or a
    ``CMakeLists.txt`` (not above the workspace), else the log's folder."""
    for folder in log.parents:
        if workspace is not None and workspace not in (folder, *folder.parents):
            break
        if (folder / "op_kernel").is_dir() or (folder / "CMakeLists.txt").is_file():
            return folder
    return log.parent


def read_log(log: Path, sources: Iterable[Path]) -> dict[str, list[Finding]]:
    """The findings of one log by the file they are in (``sources``: the project's files, to map the paths the
    build printed, which are often copies, to the user's files). An unreadable or oversized log gives nothing."""
    from akgen_lsp.safety import read_regular

    try:  # a regular file only: a log that is a link to /dev/stdin or a FIFO never blocks the server
        text = read_regular(log, MAX_LOG_BYTES).decode("utf-8", "replace")
    except OSError:
        return {}
    user_files = {str(p): str(p) for p in sources}
    by_file: dict[str, list[Finding]] = {}
    for finding in parse_build_log(text, user_files):
        path = finding.span.path
        if not Path(path).is_absolute():
            path = str((log.parent / path).resolve())
        by_file.setdefault(path, []).append(finding if path == finding.span.path else _moved(finding, path))
    return by_file


def _moved(finding: Finding, path: str) -> Finding:
    return dataclasses.replace(finding, span=finding.span.with_path(path))
