"""``workspace/executeCommand``: what the editors' commands and status menus ask the server.

- ``akgen.server.check`` [uri]: check the (saved) document now, whatever ``check_on_save`` says; returns its last check.
- ``akgen.server.runTask`` [uri]: the same check, answered with every case's result (the bench task of the kernel).
- ``akgen.server.lastTrace`` [uri]: the Chrome trace file of the document's last run (open it in https://ui.perfetto.dev).
- ``akgen.server.info`` [uri?]: the environment report (`info.environment`), the worker and the document's last check.

Each returns a JSON object with a ``message`` sentence the client can show as it is.
"""

from __future__ import annotations

import asyncio
from dataclasses import asdict
from pathlib import Path
from typing import Any, Protocol

from pygls.uris import to_fs_path

from akgen_lsp.bench.cann import select_toolchain
from akgen_lsp.config import Settings
from akgen_lsp.server.features.info import environment, server_version
from akgen_lsp.server.features.save_check import SaveChecks
from akgen_lsp.server.host import FeatureHost
from akgen_lsp.server.scheduler import Scheduler
from akgen_lsp.server.session import SettingsProvider

COMMANDS = ("akgen.server.check", "akgen.server.runTask", "akgen.server.lastTrace", "akgen.server.info")
# "Generate kernel for this task", "Improve performance" and the cancel of either: features/generate.py, loaded when
# first asked for
GENERATE_COMMANDS = (
    "akgen.server.generateKernel",
    "akgen.server.improvePerformance",
    "akgen.server.cancelGenerate",
)


class CommandHost(FeatureHost, Protocol):
    """The server as the commands see it: the features' host, plus the checks, the scheduler, the settings."""

    checks: SaveChecks
    scheduler: Scheduler
    settings: SettingsProvider


def server_status(settings: Settings) -> dict[str, Any]:
    """The ``server`` part of ``akgen/status``: version, toolchain, model (the status bar shows them)."""
    backend = str(settings["model.backend"])
    model = (
        "catalog"
        if backend == "none"
        else f"{backend}: {Path(str(settings['model.path'])).name or settings['model.name'] or settings['model.endpoint']}"
    )
    return {
        "state": "running",
        "version": server_version(),
        "toolchain": select_toolchain(str(settings["toolchain.name"])),
        "model": model,
        "check_on_save": settings["check_on_save"],
    }


def _uri(host: CommandHost, args: list[Any]) -> str | None:
    uri = args[0] if args and isinstance(args[0], str) else None
    if isinstance(args[0] if args else None, dict):
        uri = args[0].get("uri")
    return uri


async def _check(host: CommandHost, uri: str | None) -> dict[str, Any]:
    if not uri or not host.is_open(uri):
        return {
            "ok": False,
            "message": "akgen: open the kernel you want to check (the command works on an open "
            "AscendC file).",
        }
    doc = host.document(uri)
    settings = host.settings_for(doc)
    if not host.is_ascendc(doc, settings):
        return {
            "ok": False,
            "message": f"akgen: {Path(doc.path).name} is not an AscendC file (an .asc file, or C++ "
            "that includes kernel_operator.h).",
        }
    task = host.scheduler.schedule(uri, "save:check", lambda: host.checks.check(host, doc, settings))
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        if not task.cancelled():
            raise
        return {"ok": False, "message": "akgen: the check was replaced by a newer one."}
    last = host.checks.last.get(uri)
    if last is None:
        return {"ok": False, "message": "akgen: the check did not finish."}
    return {
        "ok": last.state in ("passed", "failed", "no task"),
        **asdict(last),
        "message": f"akgen: {last.message}",
    }


def _trace(host: CommandHost, uri: str | None) -> dict[str, Any]:
    last = host.checks.last.get(uri or "")
    if last is None or not last.trace or not Path(last.trace).is_file():
        name = Path(to_fs_path(uri) or "this file").name if uri else "this file"
        return {
            "ok": False,
            "trace": None,
            "message": f"akgen: no run trace for {name} yet: save it (or run "
            '"akgen: Check now") once it has a task, then ask again.',
        }
    return {
        "ok": True,
        "trace": last.trace,
        "message": f"akgen: the last run's Chrome trace is {last.trace}; open "
        "it in https://ui.perfetto.dev (Open trace file) or chrome://tracing.",
    }


def _info(host: CommandHost, uri: str | None) -> dict[str, Any]:
    doc = host.document(uri) if uri and host.is_open(uri) else None
    settings = host.settings_for(doc) if doc is not None else host.settings.for_path(None)
    worker = host.checks.worker
    last = host.checks.last.get(uri or "")
    # with the document's folder: the references of its akgen.toml tasks are tried too (one needing torch is named)
    report = environment(settings, Path(doc.path) if doc is not None and doc.path else None)
    lines = [
        f"{'ok ' if e['ok'] else 'NOT'} {name}: {e['what']} ({e['detail']})" for name, e in report.items()
    ]
    return {
        "ok": all(e["ok"] for e in report.values()),
        "environment": report,
        "worker": {
            "pid": worker.pid if worker.running else None,
            "starts": worker.starts,
            "import_s": worker.import_s,
        },
        "settings": {
            k: {"value": v, "from": settings.origin(k)}
            for k, v in settings.as_dict().items()
            if settings.origin(k) != "default"
        },
        "last_check": asdict(last) if last else None,
        "message": "\n".join(lines),
    }


async def execute(host: CommandHost, name: str, args: list[Any]) -> dict[str, Any]:
    uri = _uri(host, args)
    if name in ("akgen.server.check", "akgen.server.runTask"):
        result = await _check(host, uri)
        if name == "akgen.server.runTask" and result.get("figures"):
            cases = result["figures"].get("case_results") or []
            rows = [
                f"case {c.get('case_id')}: {c.get('status')}"
                + (f", max |diff| {c['max_abs']}" if c.get("max_abs") is not None else "")
                for c in cases
            ]
            result["cases"] = cases
            result["message"] = "\n".join([result["message"], *rows])
        return result
    if name == "akgen.server.lastTrace":
        return _trace(host, uri)
    if name == "akgen.server.info":
        return _info(host, uri)
    return {"ok": False, "message": f"akgen: unknown command {name}"}
