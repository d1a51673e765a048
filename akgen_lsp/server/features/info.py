"""What the tool runs with, for `:checkhealth akgen`, `:AkgenInfo`, the VS Code status menu and `akgen info`:
the server's version and Python, the toolchain and its compiler, the sandbox, what runs the references, the model
and its backend: everything check on save and completions need.

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
        return _entry(
            False,
            name,
            f"{name} not found: install GCC 11 or newer (apt-get install g++) or set "
            "toolchain.cxx; without it saving a kernel cannot compile and run it",
        )
    line = _first_line([cxx, "--version"])
    return _entry(line is not None, cxx, line or f"{cxx} --version failed")


def sandbox(settings: Settings | None = None) -> dict[str, Any]:
    from akgen_lsp.sandbox.mode import INSTALL_HINT, probe, sandbox_mode

    if settings is not None and sandbox_mode(settings) == "off":
        return _entry(
            True,
            "off",
            f'sim.sandbox is "off" ({settings.origin("sim.sandbox")}): kernels run with your '
            "rights, not in a sandbox",
        )
    why = probe()
    bwrap = shutil.which("bwrap")
    if why is not None:
        return _entry(
            False,
            bwrap or "bwrap",
            f"{why}: saving a kernel cannot compile or run it until you {INSTALL_HINT}",
        )
    return _entry(True, str(bwrap), _first_line([str(bwrap), "--version"]) or "bubblewrap")


def references(folder: Path | None = None) -> dict[str, Any]:
    """What runs the tasks' references: NumPy always (the bundled suite's and akgen.toml's), torch where a task needs
    it. With `folder`, each [[task]] reference of the akgen.toml files from there up is tried on zeros: one the NumPy
    evaluator cannot do needs torch, and is named."""
    import importlib.util

    import numpy as np

    from akgen_lsp.bench.reference import torch_fix

    has_torch = importlib.util.find_spec("torch") is not None
    needs = [] if folder is None else _tasks_needing_torch(folder)
    if needs and not has_torch:
        return _entry(
            False,
            f"numpy {np.__version__}, no torch",
            f"the reference of {', '.join(needs)} needs torch "
            f"(the NumPy evaluator cannot run it): {torch_fix()}",
        )
    torch = (
        "torch installed"
        if has_torch
        else "no torch (no task here needs it)"
        if folder is not None
        else "no torch (only a reference that uses what the NumPy evaluator lacks needs it)"
    )
    return _entry(True, f"numpy {np.__version__}", f"references run with NumPy; {torch}")


def _tasks_needing_torch(folder: Path) -> list[str]:
    import numpy as np

    from akgen_lsp.bench import npref, torchlike
    from akgen_lsp.config import find_config_file

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    out: list[str] = []
    cfg = find_config_file(folder)
    seen: set[Path] = set()
    while cfg is not None and cfg not in seen:
        seen.add(cfg)
        try:
            tasks = tomllib.loads(cfg.read_text(encoding="utf-8")).get("task", []) or []
        except (OSError, ValueError):
            tasks = []
        for task in tasks:
            if not isinstance(task, dict) or not isinstance(task.get("reference"), str):
                continue
            case = (task.get("cases") or [{}])[0] if isinstance(task.get("cases"), list) else {}
            try:
                inputs = {
                    str(i["name"]): npref.cast(
                        np.zeros(i.get("shape") or case.get("shape") or [1], np.float32),
                        str(i.get("dtype") or case.get("dtype") or "float32"),
                    )
                    for i in task.get("inputs", [])
                }
                torchlike.evaluate(task["reference"], inputs, dict(task.get("params", {})))
            except torchlike.Unsupported as exc:
                out.append(f"task {task.get('name', task.get('file'))} ({exc})")
            except Exception:  # a mistake in the task itself is the check's to report, not the environment's
                continue
        parent = cfg.parent.parent
        cfg = find_config_file(parent) if parent != cfg.parent else None
    return out


def model(settings: Settings) -> dict[str, Any]:
    from akgen_lsp.model.backends import backend_missing

    backend = str(settings["model.backend"])
    missing = backend_missing(backend)
    if missing is not None:
        return _entry(False, backend, missing)
    if backend == "none":
        return _entry(
            True,
            "none",
            "no model: inline completions come from the Ascend C catalog; set model.backend "
            "and model.path for KernelGen-LM (`akgen model list`)",
        )
    if backend == "openai":
        endpoint = str(settings["model.endpoint"])
        return _entry(
            bool(endpoint),
            f"openai {endpoint}",
            endpoint
            or "model.endpoint is empty: set it to the server's base URL, e.g. http://127.0.0.1:8000/v1",
        )
    path = str(settings["model.path"])
    if not path:
        return _entry(
            False,
            backend,
            f"model.backend is {backend} but model.path is empty: set it to the model "
            "file (`akgen model list`)",
        )
    exists = Path(path).expanduser().exists()
    return _entry(
        exists,
        f"{backend} {path}",
        "found" if exists else f"model file not found: {path}; set model.path or run `akgen model list`",
    )


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
    """The report: server, target (CANN version and arch), toolchain, compiler, sandbox, references, model (each with
    ok / what / detail); with `path` (a file or folder), the target is read for it and the references of the akgen.toml
    tasks from its folder are tried too."""
    folder = None if path is None else (path if path.is_dir() else path.parent).resolve()
    toolchain = select_toolchain(str(settings["toolchain.name"]))
    return {
        "server": _entry(
            True, f"akgen-lsp {server_version()}", f"Python {sys.version.split()[0]} ({sys.executable})"
        ),
        "target": target(settings, path),
        "toolchain": _entry(
            toolchain != "none",
            toolchain,
            "check on save is off (toolchain.name = none)"
            if toolchain == "none"
            else f"check on save compiles and runs on {toolchain}",
        ),
        "compiler": compiler(settings),
        "sandbox": sandbox(settings),
        "references": references(folder),
        "model": model(settings),
    }
