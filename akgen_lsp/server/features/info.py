"""What the tool runs with, for `:checkhealth akgen`, `:AkgenInfo`, the VS Code status menu and `akgen info`:
the server's version and Python, the toolchain and its compiler, the sandbox tool, the completion model.

Each entry is ``{"ok": bool, "what": ..., "detail": sentence}``: a sentence that says what to do when it is not ok.
No LSP here (the CLI prints the same report).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from akgen_lsp.bench.cann import select_toolchain
from akgen_lsp.config import Settings


def server_version() -> str:
    try:
        from importlib.metadata import version

        return version("akgen-lsp")
    except Exception:  # a source tree without metadata
        return "0.0.0"


def _first_line(cmd: list[str]) -> str | None:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (out.stdout or out.stderr).strip().splitlines()
    return text[0] if text and out.returncode == 0 else None


def _entry(ok: bool, what: str, detail: str) -> dict[str, Any]:
    return {"ok": ok, "what": what, "detail": detail}


def compiler(settings: Settings) -> dict[str, Any]:
    name = str(settings["toolchain.cxx"] or "g++")
    cxx = os.environ.get("AKGEN_CXX") or shutil.which(name)
    if not cxx:
        return _entry(False, name, f"{name} not found: install GCC 11 or newer (apt-get install g++) or set "
                      "toolchain.cxx; without it saving a kernel cannot compile and run it")
    line = _first_line([cxx, "--version"])
    return _entry(line is not None, cxx, line or f"{cxx} --version failed")


def sandbox() -> dict[str, Any]:
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return _entry(False, "bwrap", "bubblewrap is not installed (apt-get install bubblewrap): kernels run with "
                      "rlimits and a scrubbed environment only, not in a sandbox")
    return _entry(True, bwrap, _first_line([bwrap, "--version"]) or "bubblewrap")


def model(settings: Settings) -> dict[str, Any]:
    backend = str(settings["model.backend"])
    if backend == "none":
        return _entry(True, "none", "no model: inline completions come from the Ascend C catalog; set model.backend "
                      "and model.path for KernelGen-LM (`akgen model list`)")
    if backend == "openai":
        endpoint = str(settings["model.endpoint"])
        return _entry(bool(endpoint), f"openai {endpoint}", endpoint or "model.endpoint is empty: set it to the "
                      "server's base URL, e.g. http://127.0.0.1:8000/v1")
    path = str(settings["model.path"])
    if not path:
        return _entry(False, backend, f"model.backend is {backend} but model.path is empty: set it to the model "
                      "file (`akgen model list`)")
    exists = Path(path).expanduser().exists()
    return _entry(exists, f"{backend} {path}", "found" if exists else f"model file not found: {path}; set "
                  "model.path or run `akgen model list`")


def target(settings: Settings, path: Path | None = None) -> dict[str, Any]:
    """The CANN version and arch the checker targets for `path` (a file or folder), and where each comes from."""
    from akgen_lsp.ascendc.lint import target_arch, target_cann
    from akgen_lsp.ascendc.project import project_facts

    where = (path if path is not None else Path.cwd()).resolve()
    probe = where / "_" if where.is_dir() else where
    text = ""
    if where.is_file():
        try:
            text = where.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
    project = project_facts(probe, text)
    cann, cann_from = target_cann(settings, project)
    arch, arch_from = target_arch(settings, str(probe), text)
    kind = "" if project.kind == "unknown" else f"; project kind {project.kind}"
    return _entry(True, f"CANN {cann}, {arch}", f"CANN version from {cann_from}; arch from {arch_from}{kind}")


def environment(settings: Settings, path: Path | None = None) -> dict[str, Any]:
    """The report: server, target (CANN version and arch), toolchain, compiler, sandbox, model (each with ok / what /
    detail)."""
    toolchain = select_toolchain(str(settings["toolchain.name"]))
    return {
        "server": _entry(True, f"akgen-lsp {server_version()}", f"Python {sys.version.split()[0]} ({sys.executable})"),
        "target": target(settings, path),
        "toolchain": _entry(toolchain != "none", toolchain, "check on save is off (toolchain.name = none)"
                            if toolchain == "none" else f"check on save compiles and runs on {toolchain}"),
        "compiler": compiler(settings),
        "sandbox": sandbox(),
        "model": model(settings),
    }
