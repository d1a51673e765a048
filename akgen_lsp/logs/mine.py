"""Logs -> error blocks (`akgen errors mine LOG... [--format ...]`).

`mine_log(path, fmt)` reads one log: a text log (g++, clang/bisheng, CMake / make / ninja / build.sh, msopgen, the
linker, NPU runtime errors, any mix of them, optionally gzip-compressed), a `akgen sim run --json` result, a bench
run's `results.jsonl`, or `akgen check --format json`. With ``fmt="auto"`` the format is recognised from the first
64 KiB; a log nothing recognises is a `LogFormatError` that says to pass ``--format``, and binary data is refused.
Blocks of one root cause are grouped, exact repeats (a binary build prints each error once per dtype) dropped, and
wrapper lines (make's ``*** Error 2``, ``collect2``) dropped when the log has a more precise error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from akgen_lsp.logs.blocks import ErrorBlock, Note, group_blocks
from akgen_lsp.logs.compiler import DIAG
from akgen_lsp.logs.paths import PathMapper
from akgen_lsp.logs.records import RecordsError, mine_bench_records, mine_lint, mine_sim_result
from akgen_lsp.logs.text import iter_lines, mine_lines, open_binary

FORMATS = (
    "auto",
    "gcc",
    "clang",
    "bisheng",
    "cmake",
    "make",
    "ninja",
    "msopgen",
    "ld",
    "npu",
    "sim",
    "bench",
    "lint",
)
TEXT_FORMATS = ("gcc", "clang", "bisheng", "cmake", "make", "ninja", "msopgen", "ld", "npu")
HEAD_BYTES = 64 * 1024
MAX_GROUPS = 100_000

__all__ = ["FORMATS", "LogFormatError", "RecordsError", "detect_format", "mine_log", "mine_logs"]


class LogFormatError(ValueError):
    """A log that cannot be mined as asked; the message says why and what to do."""


_MARKERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "npu",
        re.compile(
            r"\bEZ9999\b|\b50701[3-6]\b|\b5070(?:3[4-6]|4[2-6])\b|aclrt\w+\(.*\) failed|\baclnn\w+ failed|"
            r"ACL stream synchronize failed|\b56100[0-3]\b|\b5611\d\d\b"
        ),
    ),
    ("msopgen", re.compile(r"msopgen\b.*(?:ERROR|error)|\[ERROR\].*(?:op description|json)", re.I)),
    ("cmake", re.compile(r"^\s*CMake Error\b", re.M)),
    ("ninja", re.compile(r"^\s*(?:FAILED: |ninja: build stopped)", re.M)),
    ("make", re.compile(r"^\s*g?make(?:\[\d+\])?: \*\*\*", re.M)),
    ("ld", re.compile(r"undefined reference to [`']|ld\.lld: error:|collect2: error:")),
)
_CLANG = re.compile(r"\d+ errors? generated\.|^\s*~*\^~*\s*$|\bbisheng\b|\bccec\b|tikcfw", re.M)
_BISHENG = re.compile(r"\bbisheng\b|\bccec\b|tikcfw|tikcpp|ascendc_kernel", re.I)


def _looks_binary(head: bytes) -> bool:
    if b"\x00" in head[:8192]:
        return True
    sample = head[:8192]
    if not sample:
        return False
    bad = sum(1 for b in sample if b < 9 or 13 < b < 32 or b == 127)
    return bad / len(sample) > 0.1


def detect_format(path: Path) -> str:
    """The format of a log from its first 64 KiB (see `FORMATS`); raises LogFormatError when nothing fits."""
    try:
        with open_binary(path) as fh:
            head = fh.read(HEAD_BYTES)
    except OSError as exc:
        raise LogFormatError(f"cannot read {path}: {exc.strerror or exc}") from None
    if _looks_binary(head):
        raise LogFormatError(
            f"{path} is binary data, not a text log; nothing was mined (pass the build's text "
            "output, a results.jsonl or a `akgen sim run --json` result)"
        )
    text = head.decode("utf-8", errors="replace")
    stripped = text.lstrip()
    if stripped.startswith("{"):
        first = stripped.splitlines()[0]
        try:
            obj = json.loads(first)
        except json.JSONDecodeError:
            obj = None
        if isinstance(obj, dict) and "task" in obj and "findings" in obj:
            return "bench"
        if '"findings"' in text and '"status"' in text:
            return "sim"
    if stripped.startswith("[") and '"code"' in text and '"message"' in text:
        return "lint"
    compiler = sum(1 for ln in text.splitlines() if DIAG.match(ln))
    if compiler:
        if _BISHENG.search(text):
            return "bisheng"
        return "clang" if _CLANG.search(text) else "gcc"
    for name, rx in _MARKERS:
        if rx.search(text):
            return name
    raise LogFormatError(
        f"could not recognise this log ({path}): no compiler diagnostic, build-system, linker or NPU "
        "runtime error in its first 64 KiB; use --format (one of "
        f"{', '.join(FORMATS[1:])})"
    )


_FOLLOW_ON = re.compile(r"^(?:expected |stray |missing terminating)")


def _fold_follow_ons(blocks: Iterable[ErrorBlock]) -> Iterator[ErrorBlock]:
    """A compiler error right after another at the same line is a consequence of it when it is a parse error
    (``expected primary-expression`` after ``no member named 'Dequeue'``) or comes from the same library header
    (a second failure inside the template the first one instantiated): it becomes a note of the first."""
    prev: ErrorBlock | None = None
    for b in blocks:
        if (
            prev is not None
            and b.code == "CXX"
            and prev.code == "CXX"
            and b.file == prev.file
            and b.line == prev.line
            and b.message != prev.message
            and (_FOLLOW_ON.match(b.message) or any(c.startswith("reported in") for c in b.context))
        ):
            prev.notes.append(Note(f"follow-on error: {b.message}", b.file, b.line, b.column))
            continue
        if prev is not None:
            yield prev
        prev = b
    if prev is not None:
        yield prev


def _drop_wrappers(blocks: list[ErrorBlock]) -> list[ErrorBlock]:
    precise = [b for b in blocks if not b.extra.get("wrapper")]
    return precise if precise else blocks


def _dedupe(blocks: Iterable[ErrorBlock]) -> Iterator[ErrorBlock]:
    seen: set[tuple[Any, ...]] = set()
    for b in blocks:
        key = (b.tool, b.file, b.line, b.column, b.message)
        if key in seen:
            continue
        if len(seen) < MAX_GROUPS:
            seen.add(key)
        yield b


def mine_log(
    path: str | Path,
    fmt: str = "auto",
    mapper: PathMapper | None = None,
    warnings: bool = False,
    origin: Mapping[str, Any] | None = None,
    model: str | None = None,
) -> list[ErrorBlock]:
    """The error blocks of one log, grouped by root cause, in log order."""
    p = Path(path)
    if fmt not in FORMATS:
        raise LogFormatError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    if not p.is_file():
        raise LogFormatError(f"{p} is not a file")
    if fmt == "auto":
        fmt = detect_format(p)
    mapper = mapper or PathMapper()
    if fmt == "sim":
        raw = mine_sim_result(p, warnings)
    elif fmt == "lint":
        raw = mine_lint(p, warnings)
    elif fmt == "bench":
        raw = list(mine_bench_records(p, model, warnings))
    else:
        tool = fmt if fmt in ("gcc", "clang", "bisheng") else "gcc"
        raw = list(
            _fold_follow_ons(
                _dedupe(mine_lines(iter_lines(p), tool, mapper, warnings, msopgen=fmt == "msopgen"))
            )
        )
    blocks = group_blocks(_drop_wrappers(raw)) if fmt != "bench" else _group_per_record(raw)
    for b in blocks:
        b.origin.setdefault("log", str(p))
        b.origin.setdefault("format", fmt)
        if model and not b.origin.get("model"):
            b.origin["model"] = model
        b.origin.update(origin or {})
    return blocks


def _group_per_record(blocks: list[ErrorBlock]) -> list[ErrorBlock]:
    """Bench blocks are grouped within a record (task, sample), never across: each record is its own failure."""
    out: list[ErrorBlock] = []
    current: list[ErrorBlock] = []
    key: tuple[Any, ...] | None = None
    for b in blocks:
        k = (b.origin.get("log_line"),)
        if k != key and current:
            out.extend(group_blocks(current))
            current = []
        key = k
        current.append(b)
    out.extend(group_blocks(current))
    return out


def mine_logs(
    paths: Iterable[str | Path],
    fmt: str = "auto",
    sources: Iterable[str | Path] = (),
    warnings: bool = False,
    model: str | None = None,
) -> Iterator[ErrorBlock]:
    """`mine_log` over several logs, with one path mapper for the source folders."""
    mapper = PathMapper(list(sources))
    for p in paths:
        yield from mine_log(p, fmt, mapper, warnings, model=model)
