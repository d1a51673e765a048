"""The error block: one error of a build or run log, with everything a classifier, a report or a repair needs.

A block is tool, file, line, column, severity, message, the notes (each with its own location), the user's source
line, the context frames (include chain, "In instantiation of" / "required from" backtrace, collapsed), fix-it
suggestions, a stable `signature` (the message with identifiers, numbers and types abstracted: "no member named
'Softmax'" and "no member named 'SyncFunc'" share one), the raw log text, and where it came from (`origin`: the log
file and line, the bench task, sample and model). Several reports of one root cause (the same undeclared name at 20
uses) are one block with `count` and the other `occurrences`.

Blocks travel as JSON lines (`to_json` / `from_json`); unknown keys are kept in `extra`, so a newer file reads back.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, TextIO

from akgen_lsp.logs.signature import signature

RAW_LIMIT = 4000  # characters of raw log kept per block
NOTES_LIMIT = 40


@dataclass
class Note:
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            k: v
            for k, v in (
                ("message", self.message),
                ("file", self.file),
                ("line", self.line),
                ("column", self.column),
            )
            if v is not None
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Note:
        return cls(
            str(obj.get("message", "")), obj.get("file"), _int(obj.get("line")), _int(obj.get("column"))
        )


@dataclass
class ErrorBlock:
    tool: str  # gcc, clang, bisheng, cmake, make, ninja, ld, msopgen, build.sh, npu-runtime, sim, bench, lint
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    severity: str = "error"
    notes: list[Note] = field(default_factory=list)
    source_line: str | None = None
    context: list[str] = field(default_factory=list)
    fixits: list[str] = field(default_factory=list)
    raw: str = ""
    code: str | None = None
    error_class: str | None = None
    signature: str = ""
    count: int = 1
    occurrences: list[tuple[str | None, int | None, int | None]] = field(default_factory=list)
    origin: dict[str, Any] = field(default_factory=dict)
    label: str | None = None  # a known class (hand-labelled fixture, or the mutation that was injected)
    # ``FILE:LINE:COL`` where the compiler reported an error that was moved to the user's line
    header: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.signature:
            self.signature = signature(self.message)
        self.raw = self.raw[:RAW_LIMIT]
        del self.notes[NOTES_LIMIT:]

    @property
    def signature_id(self) -> str:
        """A short stable id of the signature (the same across logs, machines and runs)."""
        return hashlib.sha1(self.signature.encode("utf-8")).hexdigest()[:12]

    @property
    def where(self) -> str:
        if not self.file:
            return "(no location)"
        return f"{self.file}:{self.line or 1}" + (f":{self.column}" if self.column else "")

    def group_key(self) -> tuple[Any, ...]:
        """Blocks with this key are one root cause: the same message (not only the same signature) in one file, with
        the same notes apart from their places (clang says only "no matching function for call to 'Add'": its
        candidates' notes tell a missing argument from a wrong dtype)."""
        notes = tuple(
            n.message
            for n in self.notes
            if "requested here" not in n.message and "required from" not in n.message
        )
        return (self.tool, self.file, self.message, self.code, notes)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tool": self.tool,
            "severity": self.severity,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "code": self.code,
            "error_class": self.error_class,
            "signature": self.signature,
            "signature_id": self.signature_id,
            "notes": [n.to_json() for n in self.notes],
            "source_line": self.source_line,
            "context": list(self.context),
            "fixits": list(self.fixits),
            "count": self.count,
            "occurrences": [list(o) for o in self.occurrences],
            "origin": dict(self.origin),
            "raw": self.raw,
        }
        if self.label:
            out["label"] = self.label
        if self.header:
            out["header"] = self.header
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> ErrorBlock:
        known = {f.name for f in fields(cls)} | {"signature_id"}
        occ = [
            (o[0], _int(o[1]), _int(o[2]))
            for o in obj.get("occurrences", ())
            if isinstance(o, list | tuple) and len(o) == 3
        ]
        return cls(
            tool=str(obj.get("tool", "unknown")),
            message=str(obj.get("message", "")),
            file=obj.get("file"),
            line=_int(obj.get("line")),
            column=_int(obj.get("column")),
            severity=str(obj.get("severity", "error")),
            notes=[Note.from_json(n) for n in obj.get("notes", ()) if isinstance(n, Mapping)],
            source_line=obj.get("source_line"),
            context=[str(c) for c in obj.get("context", ())],
            fixits=[str(x) for x in obj.get("fixits", ())],
            raw=str(obj.get("raw", "")),
            code=obj.get("code"),
            error_class=obj.get("error_class"),
            signature=str(obj.get("signature", "")),
            count=int(obj.get("count", 1) or 1),
            occurrences=occ,
            origin=dict(obj.get("origin", {}) or {}),
            label=obj.get("label"),
            header=obj.get("header"),
            extra={k: v for k, v in obj.items() if k not in known},
        )


def _int(v: Any) -> int | None:
    try:
        return int(v) if v is not None else None
    except (TypeError, ValueError):
        return None


class LineParser:
    """What the build-system and NPU line parsers share: `feed` a line (True when it was theirs), `take` the blocks
    finished so far, `close` at the end of the log (the open block is finished too)."""

    def __init__(self) -> None:
        self.current: ErrorBlock | None = None
        self._done: list[ErrorBlock] = []

    def take(self) -> list[ErrorBlock]:
        out, self._done = self._done, []
        return out

    def close(self) -> list[ErrorBlock]:
        self._finish()
        return self.take()

    def _finish(self) -> None:
        raise NotImplementedError


def group_blocks(blocks: Iterable[ErrorBlock]) -> list[ErrorBlock]:
    """One block per root cause: blocks with the same `group_key` merge into the first (count, occurrences)."""
    out: dict[tuple[Any, ...], ErrorBlock] = {}
    for b in blocks:
        key = b.group_key()
        first = out.get(key)
        if first is None:
            out[key] = b
            continue
        first.count += b.count
        if len(first.occurrences) < 200:
            first.occurrences.append((b.file, b.line, b.column))
            first.occurrences.extend(b.occurrences[: 200 - len(first.occurrences)])
    return list(out.values())


def write_jsonl(blocks: Iterable[ErrorBlock], out: TextIO) -> int:
    n = 0
    for b in blocks:
        out.write(json.dumps(b.to_json(), ensure_ascii=False) + "\n")
        n += 1
    return n


class BlocksFileError(ValueError):
    """A blocks file that cannot be read; the message names the file and the line."""


def read_jsonl(path: str | Path) -> Iterator[ErrorBlock]:
    """The blocks of a JSONL file written by `akgen errors mine`. A line cut short (an interrupted write) is skipped;
    any other bad line is an error naming it."""
    p = Path(path)
    try:
        fh = p.open(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise BlocksFileError(f"cannot read {p}: {exc.strerror or exc}") from None
    with fh:
        lines = iter(fh)
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                if not line.endswith("\n"):
                    return  # the last line, cut short
                raise BlocksFileError(
                    f"{p}:{n}: not a JSON line of error blocks; write it with `akgen errors mine "
                    "LOG --out FILE.jsonl`"
                ) from None
            if not isinstance(obj, dict) or "message" not in obj:
                raise BlocksFileError(
                    f'{p}:{n}: not an error block (no "message"); write it with `akgen errors '
                    "mine LOG --out FILE.jsonl`"
                )
            yield ErrorBlock.from_json(obj)
