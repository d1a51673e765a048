"""akgen's own JSON outputs -> error blocks: `akgen sim run --json` results, a bench run's `results.jsonl`,
`akgen check --format json`.

Bench records carry where each error came from (task, level, sample, mode, status, and the model when the run
says: the record's ``model``, else the ``model`` or ``candidates_from`` of the ``summary.json`` beside it).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from akgen_lsp.logs.blocks import ErrorBlock
from akgen_lsp.logs.findings import blocks_from_finding_json
from akgen_lsp.logs.text import iter_lines

MAX_JSON_BYTES = 256 * 1024 * 1024


class RecordsError(ValueError):
    """A JSON log that cannot be read; the message names the file and what to do."""


def _load_json(path: Path) -> Any:
    if path.stat().st_size > MAX_JSON_BYTES:
        raise RecordsError(
            f"{path} is larger than {MAX_JSON_BYTES >> 20} MiB; a `akgen sim run --json` result is "
            "far smaller: is this the right file?"
        )
    try:
        return json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except json.JSONDecodeError as exc:
        raise RecordsError(
            f"{path}: not valid JSON ({exc.msg} at line {exc.lineno}); use --format for a text log"
        ) from None


def mine_sim_result(path: Path, warnings: bool = False) -> list[ErrorBlock]:
    obj = _load_json(path)
    if not isinstance(obj, Mapping) or not isinstance(obj.get("findings"), list):
        raise RecordsError(f'{path}: not a `akgen sim run --json` result (no "findings" list)')
    origin = {"log": str(path), "status": obj.get("status")}
    return blocks_from_finding_json(obj["findings"], origin, errors_only=not warnings)


def mine_lint(path: Path, warnings: bool = False) -> list[ErrorBlock]:
    obj = _load_json(path)
    if not isinstance(obj, list):
        raise RecordsError(f"{path}: not the output of `akgen check --format json` (a JSON list of findings)")
    return blocks_from_finding_json(obj, {"log": str(path)}, errors_only=not warnings)


def _run_model(path: Path) -> str | None:
    summary = path.parent / "summary.json"
    if not summary.is_file():
        return None
    try:
        obj = json.loads(summary.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    if not isinstance(obj, Mapping):
        return None
    if obj.get("model"):
        return str(obj["model"])
    frm = obj.get("candidates_from")
    return Path(str(frm)).name if frm and frm != "answers" else None


def mine_bench_records(path: Path, model: str | None = None, warnings: bool = False) -> Iterator[ErrorBlock]:
    """Blocks of every failed record of a results.jsonl, streamed line by line."""
    default_model = model or _run_model(path)
    for n, line in enumerate(iter_lines(path), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by an interrupted run: the bench skips it too
        if not isinstance(rec, Mapping) or "findings" not in rec:
            raise RecordsError(
                f'{path}:{n}: not a bench record (no "findings"); mine a results.jsonl written by '
                "`akgen bench run`"
            )
        origin = {
            "log": str(path),
            "log_line": n,
            "task": rec.get("task"),
            "level": rec.get("level"),
            "sample": rec.get("sample"),
            "mode": rec.get("mode"),
            "status": rec.get("status"),
            "model": rec.get("model") or default_model,
        }
        yield from blocks_from_finding_json(rec.get("findings") or (), origin, errors_only=not warnings)
