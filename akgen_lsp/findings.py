"""The one currency of the project: a `Finding`, with its `Span`, `Fix` and `Edit`.

Every source of problems (static rules, compiler output, simulator checks, numeric comparison, the cost model)
produces findings. The server turns them into LSP diagnostics and code actions; the CLI prints them like a compiler,
as JSON, or as SARIF 2.1.0. Nothing here knows about LSP.

Positions are 1-based lines and 1-based columns counted in Unicode code points (characters). The end of a span is
exclusive: a span covering the three characters ``Add`` at the start of line 4 is (4, 1) - (4, 4).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from akgen_lsp.error_classes import normalize as _normalize_class


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    HINT = "hint"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2, Severity.HINT: 3}


@dataclass(frozen=True, order=True)
class Span:
    """A region of a file: 1-based lines and character columns; the end is exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def point(cls, path: str, line: int, column: int = 1) -> Span:
        return cls(path, line, column, line, column)

    @classmethod
    def whole_line(cls, path: str, line: int, text: str | None = None) -> Span:
        """The span of a whole line, without its newline (needs the text to know the length)."""
        length = len(_line_of(text, line)) if text is not None else 0
        return cls(path, line, 1, line, length + 1)

    def with_path(self, path: str) -> Span:
        return replace(self, path=path)


@dataclass(frozen=True)
class Edit:
    """Replace the text in `span` by `new_text` (an insertion when the span is empty)."""

    span: Span
    new_text: str


@dataclass(frozen=True)
class Fix:
    """A titled set of edits. `safe` fixes are certain and may be applied without asking."""

    title: str
    edits: tuple[Edit, ...]
    safe: bool = False


@dataclass(frozen=True)
class Finding:
    """One problem in one place.

    `code` is a stable identifier (``AKG101`` for static rules, ``SIM-UB-OOB`` for simulator checks, ``CXX`` for
    compiler errors); `source` names the producer (``akgen-lint``, ``akgen-build``, ``akgen-run``); `error_class` is the
    AscendKernelGen error taxonomy class where known (``api_mismatch``, ``dtype``, ``scope``, ``memory``, ``syntax``, ...);
    `data` carries raw material such as the compiler's original text.

    `error_class` is always a class of the taxonomy (`akgen_lsp.error_classes`) or None: a class fixed by the code,
    a compiler message's class, or the producer's class with older names (``queue``, ``anti_cheat``) mapped.
    """

    code: str
    message: str
    span: Span
    severity: Severity = Severity.ERROR
    source: str = "akgen-lint"
    error_class: str | None = None
    fixes: tuple[Fix, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        cls = _normalize_class(self.code, self.error_class, self.message)
        if cls != self.error_class:
            object.__setattr__(self, "error_class", cls)

    @property
    def path(self) -> str:
        return self.span.path

    def sort_key(self) -> tuple[str, int, int, int, str]:
        return (self.span.path, self.span.line, self.span.column, self.severity.rank, self.code)


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=Finding.sort_key)


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)


# --------------------------------------------------------------------------------------------------- JSON


def span_to_json(span: Span) -> dict[str, Any]:
    return {
        "path": span.path,
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
    }


def fix_to_json(fix: Fix) -> dict[str, Any]:
    return {
        "title": fix.title,
        "safe": fix.safe,
        "edits": [{**span_to_json(e.span), "new_text": e.new_text} for e in fix.edits],
    }


def finding_to_json(finding: Finding) -> dict[str, Any]:
    out: dict[str, Any] = {
        **span_to_json(finding.span),
        "severity": finding.severity.value,
        "code": finding.code,
        "source": finding.source,
        "message": finding.message,
        "fixes": [fix_to_json(f) for f in finding.fixes],
    }
    if finding.error_class:
        out["error_class"] = finding.error_class
    if finding.data:
        out["data"] = dict(finding.data)
    return out


def findings_to_json(findings: Iterable[Finding], indent: int | None = 2) -> str:
    return json.dumps([finding_to_json(f) for f in findings], indent=indent, ensure_ascii=False)


def _span_from_json(obj: Mapping[str, Any]) -> Span:
    line = int(obj["line"])
    column = int(obj.get("column", 1))
    return Span(
        str(obj["path"]),
        line,
        column,
        int(obj.get("end_line", line)),
        int(obj.get("end_column", column)),
    )


def finding_from_json(obj: Mapping[str, Any]) -> Finding:
    """Read one finding in the JSON shape above (the simulator's launcher and scripts write it)."""
    fixes = tuple(
        Fix(
            title=str(f["title"]),
            edits=tuple(Edit(_span_from_json(e), str(e["new_text"])) for e in f.get("edits", ())),
            safe=bool(f.get("safe", False)),
        )
        for f in obj.get("fixes", ())
    )
    return Finding(
        code=str(obj["code"]),
        message=str(obj["message"]),
        span=_span_from_json(obj),
        severity=Severity(obj.get("severity", "error")),
        source=str(obj.get("source", "akgen")),
        error_class=obj.get("error_class"),
        fixes=fixes,
        data=dict(obj.get("data", {})),
    )


# --------------------------------------------------------------------------------------------------- text


def _line_of(text: str | None, line: int) -> str:
    if text is None:
        return ""
    lines = text.splitlines()
    return lines[line - 1] if 1 <= line <= len(lines) else ""


def render_text(finding: Finding, source_text: str | None = None) -> str:
    """Compiler-style text: ``path:line:col: error[AKG101]: message``, then the line and a caret under the span."""
    sp = finding.span
    head = f"{sp.path}:{sp.line}:{sp.column}: {finding.severity.value}[{finding.code}]: {finding.message}"
    out = [head]
    src = _line_of(source_text, sp.line)
    if src:
        out.append(f"    {src.rstrip()}")
        start = max(sp.column - 1, 0)
        width = sp.end_column - sp.column if sp.end_line == sp.line and sp.end_column > sp.column else 1
        prefix = "".join(c if c == "\t" else " " for c in src[:start])
        out.append(f"    {prefix}{'^' * max(width, 1)}")
    for fix in finding.fixes:
        out.append(f"    = fix{' (safe)' if fix.safe else ''}: {fix.title}")
    return "\n".join(out)


# --------------------------------------------------------------------------------------------------- SARIF

_SARIF_LEVEL = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFO: "note",
    Severity.HINT: "note",
}

# The CWE entries the simulator's memory-safety and concurrency findings carry (`data["cwe"]`, set where the finding
# is made: launcher/findings.inc), by MITRE's names (CWE 4.14).
CWE_NAMES: dict[int, str] = {
    119: "Improper Restriction of Operations within the Bounds of a Memory Buffer",
    125: "Out-of-bounds Read",
    190: "Integer Overflow or Wraparound",
    362: "Concurrent Execution using Shared Resource with Improper Synchronization ('Race Condition')",
    369: "Divide By Zero",
    401: "Missing Release of Memory after Effective Lifetime",
    415: "Double Free",
    416: "Use After Free",
    457: "Use of Uninitialized Variable",
    476: "NULL Pointer Dereference",
    662: "Improper Synchronization",
    787: "Out-of-bounds Write",
    788: "Access of Memory Location After End of Buffer",
    823: "Use of Out-of-range Pointer Offset",
    824: "Access of Uninitialized Pointer",
    833: "Deadlock",
    909: "Missing Initialization of Resource",
}
CWE_TAXONOMY = {
    "name": "CWE",
    "version": "4.14",
    "organization": "MITRE",
    "informationUri": "https://cwe.mitre.org/data/published/cwe_v4.14.pdf",
    "downloadUri": "https://cwe.mitre.org/data/xml/cwec_v4.14.xml.zip",
    "shortDescription": {"text": "The MITRE Common Weakness Enumeration"},
}


def cwe_of(finding: Finding) -> int | None:
    """The CWE id of a memory-safety or concurrency finding, or None."""
    v = finding.data.get("cwe") if finding.data else None
    return v if isinstance(v, int) and v > 0 else None


def cwe_text(cwe: int) -> str:
    """`CWE-787: Out-of-bounds Write`, for hover and reports."""
    return f"CWE-{cwe}: {CWE_NAMES.get(cwe, 'see https://cwe.mitre.org')}"


def findings_to_sarif(
    findings: Sequence[Finding],
    rule_docs: Mapping[str, str] | None = None,
    tool_version: str = "0.1.0",
) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run. `rule_docs` maps codes to a short description."""
    rule_docs = rule_docs or {}
    codes = sorted({f.code for f in findings})
    rule_cwe = {f.code: c for f in findings if (c := cwe_of(f)) is not None}
    cwes = sorted({c for f in findings if (c := cwe_of(f)) is not None})
    taxon = {c: i for i, c in enumerate(cwes)}
    rules = []
    for code in codes:
        rule: dict[str, Any] = {"id": code, "shortDescription": {"text": rule_docs.get(code, code)}}
        if (
            code in rule_cwe
        ):  # GitHub code scanning reads the tag; SARIF viewers the relationship to the taxon
            c = rule_cwe[code]
            rule["properties"] = {"tags": ["security", f"external/cwe/cwe-{c}"]}
            rule["relationships"] = [
                {
                    "target": {"id": str(c), "index": taxon[c], "toolComponent": {"name": "CWE", "index": 0}},
                    "kinds": ["superset"],
                }
            ]
        rules.append(rule)
    index = {code: i for i, code in enumerate(codes)}
    results = []
    for f in findings:
        sp = f.span
        result: dict[str, Any] = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _SARIF_LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": Path(sp.path).as_posix()},
                        "region": {
                            "startLine": sp.line,
                            "startColumn": sp.column,
                            "endLine": sp.end_line,
                            "endColumn": sp.end_column,
                        },
                    }
                }
            ],
        }
        if (c := cwe_of(f)) is not None:
            result["taxa"] = [{"id": str(c), "index": taxon[c], "toolComponent": {"name": "CWE", "index": 0}}]
        if f.fixes:
            result["fixes"] = [
                {
                    "description": {"text": fix.title},
                    "artifactChanges": [
                        {
                            "artifactLocation": {"uri": Path(e.span.path).as_posix()},
                            "replacements": [
                                {
                                    "deletedRegion": {
                                        "startLine": e.span.line,
                                        "startColumn": e.span.column,
                                        "endLine": e.span.end_line,
                                        "endColumn": e.span.end_column,
                                    },
                                    "insertedContent": {"text": e.new_text},
                                }
                            ],
                        }
                        for e in fix.edits
                    ],
                }
                for fix in f.fixes
            ]
        results.append(result)
    driver: dict[str, Any] = {
        "name": "akgen",
        "version": tool_version,
        "informationUri": "https://github.com/akgen-lsp/akgen-lsp",
        "rules": rules,
    }
    run: dict[str, Any] = {"tool": {"driver": driver}, "results": results}
    if cwes:
        driver["supportedTaxonomies"] = [{"name": "CWE", "index": 0}]
        run["taxonomies"] = [
            {
                **CWE_TAXONOMY,
                "taxa": [
                    {
                        "id": str(c),
                        "name": CWE_NAMES.get(c, f"CWE-{c}"),
                        "helpUri": f"https://cwe.mitre.org/data/definitions/{c}.html",
                    }
                    for c in cwes
                ],
            }
        ]
    return {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run]}


# --------------------------------------------------------------------------------------------------- edits


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits to `text` (all in one file); positions are 1-based characters."""
    starts = _line_starts(text)

    def offset(line: int, column: int) -> int:
        if line - 1 >= len(starts):
            return len(text)
        return min(starts[line - 1] + column - 1, len(text))

    ordered = sorted(edits, key=lambda e: (e.span.line, e.span.column), reverse=True)
    for e in ordered:
        a = offset(e.span.line, e.span.column)
        b = offset(e.span.end_line, e.span.end_column)
        text = text[:a] + e.new_text + text[b:]
    return text


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    return starts
