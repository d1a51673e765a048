"""akgen's own findings (lint, the sim's build and run, the bench) as error blocks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from akgen_lsp.findings import Finding, finding_from_json
from akgen_lsp.logs.blocks import ErrorBlock
from akgen_lsp.logs.compiler import parse_compiler_text


def tool_of(f: Finding) -> str:
    """The tool that produced a finding, in the block's vocabulary."""
    if f.source == "akgen-lint":
        return "lint"
    if f.code == "CXX":
        return "bisheng" if (f.data or {}).get("compiler") == "bisheng" else "gcc"
    if f.code.startswith("BENCH-"):
        return "bench"
    return {"CMAKE": "cmake", "MSOPGEN": "msopgen", "LINK": "ld", "BUILD": "make"}.get(f.code, "sim")


def block_from_finding(
    f: Finding, tool: str | None = None, origin: Mapping[str, Any] | None = None
) -> ErrorBlock:
    """A finding as a block. A compiler finding's raw lines (`data.raw`: its context, the error and its notes, as
    the sim's build keeps them) are parsed again, so the block has the notes and frames of the real log."""
    data = dict(f.data or {})
    raw = str(data.get("raw") or data.get("log") or "")
    block = ErrorBlock(
        tool=tool or tool_of(f),
        message=f.message,
        file=f.span.path,
        line=f.span.line,
        column=f.span.column,
        severity=f.severity.value,
        code=f.code,
        error_class=f.error_class,
        raw=raw or f.message,
        origin=dict(origin or {}),
    )
    if raw and f.code == "CXX":
        parsed = next(iter(parse_compiler_text(raw, tool=block.tool)), None)
        if parsed is not None:
            block.notes, block.context, block.fixits = parsed.notes, parsed.context, parsed.fixits
            block.source_line = parsed.source_line
    if data.get("header"):
        block.header = str(data["header"])
        block.context.append(f"reported in {data['header']}")
    if data.get("compiler_file"):
        block.context.append(f"reported in {data['compiler_file']}:{data.get('compiler_line', '')}")
    return block


def blocks_from_finding_json(
    items: Iterable[Any], origin: Mapping[str, Any] | None = None, errors_only: bool = True
) -> list[ErrorBlock]:
    """Blocks of findings in their JSON shape (a `akgen sim run --json` result, a bench record, `akgen check
    --format json`); with `errors_only`, warnings and information are left out."""
    out = []
    for obj in items:
        if not isinstance(obj, Mapping) or "message" not in obj or "code" not in obj:
            continue
        try:
            f = finding_from_json({**obj, "path": obj.get("path") or "", "line": obj.get("line") or 1})
        except (KeyError, ValueError, TypeError):
            continue
        if errors_only and f.severity.value != "error":
            continue
        out.append(block_from_finding(f, origin=origin))
    return out
