"""Hover: an Ascend C API name shows its signatures, dtypes for the configured arch, pipe, constraints and docs; a rule
code (``AKG101`` in a comment, or the code of a diagnostic under the cursor) shows the rule's documentation; a
simulator finding under the cursor that is a memory-safety or concurrency fault shows its CWE."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.ascendc.catalog import Catalog, KnownName
from akgen_lsp.ascendc.lint import target_arch, target_cann
from akgen_lsp.ascendc.project import project_facts
from akgen_lsp.ascendc.rules import rule_by_code
from akgen_lsp.ascendc.rules.akg104_arch_availability import ONLY_950 as _ONLY_950
from akgen_lsp.ascendc.syntax import ParsedFile, cursor
from akgen_lsp.config import Settings
from akgen_lsp.findings import Finding, cwe_of, cwe_text
from akgen_lsp.server.features.docs import entry_markdown, rule_markdown

_RULE_CODE = re.compile(r"^AKG\d{3}$", re.I)


@dataclass(frozen=True)
class HoverResult:
    markdown: str
    line: int  # 0-based
    start: int  # code points
    end: int


def findings_at(findings: Sequence[Finding], line: int, character: int) -> list[Finding]:
    """The findings under a 0-based (line, code point) position."""
    return [
        f
        for f in findings
        if f.span.line <= line + 1 <= f.span.end_line
        and (f.span.line < line + 1 or f.span.column <= character + 1)
        and (f.span.end_line > line + 1 or character + 1 <= f.span.end_column)
    ]


def weakness_markdown(finding: Finding) -> str | None:
    """The CWE of a simulator finding that is a memory-safety or concurrency fault, with MITRE's link."""
    cwe = cwe_of(finding)
    if cwe is None:
        return None
    return (
        f"**{finding.code}**: {finding.message}\n\n[{cwe_text(cwe)}]"
        f"(https://cwe.mitre.org/data/definitions/{cwe}.html)"
    )


ONLY_950_NAMESPACES = frozenset(_ONLY_950)


def _known_name(catalog: Catalog, qualifier: str, name: str) -> KnownName | None:
    """A name the newest headers declare that the hand-written catalog has no entry for."""
    if qualifier:
        for owner in (qualifier, f"AscendC::{qualifier}"):
            kn = catalog.names.get(f"{owner}::{name}")
            if kn is not None:
                return kn
        return None
    return catalog.names.get(name) or catalog.names.get(f"AscendC::{name}")


def known_markdown(kn: KnownName, arch: str) -> str:
    """Hover text of a generated names-file fact: kind, header, family, archs and argument counts."""
    lines = [f"**{kn.name}** ({kn.kind}, {kn.family.replace('_', ' ')})"]
    if kn.header:
        lines.append(f"Declared in `{kn.header}` (asc-devkit).")
    if kn.arities:
        counts = sorted(
            {
                f"{lo}" if lo == hi else (f"{lo} or more" if hi < 0 else f"{lo} to {hi}")
                for lo, hi in kn.arities
            }
        )
        lines.append(f"Takes {', '.join(counts)} argument(s).")
    npu = load_arch(arch).npu_arch
    only = ONLY_950_NAMESPACES.intersection(kn.name.split("::")[1:2])
    if only and npu != "3510":
        lines.append(f"**Not on {arch}** (__NPU_ARCH__ {npu}): only Ascend 950 (3510) has it.")
    elif only:
        lines.append("Ascend 950 (__NPU_ARCH__ 3510) only.")
    lines.append("From the generated names file (no signature or description in the catalog yet).")
    return "\n\n".join(lines)


def _target(settings: Settings, text: str, parsed: ParsedFile | None) -> tuple[str, str, str]:
    """(arch profile, CANN version, a line saying both and where they come from) for the hovered document."""
    path = parsed.path if parsed is not None else "<memory>"
    cann, cann_from = target_cann(settings, project_facts(path, text))
    arch, _why = target_arch(settings, path, text)
    npu = load_arch(arch).npu_arch
    return arch, cann, f"Checked for CANN {cann} (from {cann_from}) on {arch} (__NPU_ARCH__ {npu})"


def with_note(result: HoverResult | None, note: str, line: int, character: int) -> HoverResult:
    """`result` with a paragraph added (a hover of its own at the position when there is none)."""
    if result is None:
        return HoverResult(note, line, character, character)
    return HoverResult(f"{result.markdown}\n\n---\n\n{note}", result.line, result.start, result.end)


def hover(
    text: str,
    line: int,
    character: int,
    settings: Settings,
    catalog: Catalog,
    diagnostic_codes: Sequence[str] = (),
    diagnostic_findings: Sequence[Finding] = (),
    parsed: ParsedFile | None = None,
) -> HoverResult | None:
    line_text = cursor.line_at(text, line)
    word = cursor.word_at(line_text, character)
    weaknesses = "\n\n---\n\n".join(
        dict.fromkeys(md for f in diagnostic_findings if (md := weakness_markdown(f)) is not None)
    )
    if word is not None and _RULE_CODE.match(word.text):
        rule = rule_by_code(word.text)
        if rule is not None:
            return HoverResult(rule_markdown(rule), line, word.start, word.end)
    if word is not None and not cursor.in_comment_or_string(line_text[: word.start]):
        q = cursor.qualified_before(line_text, word.start, word.text)
        offset = cursor.offset_of(text, line, word.start)
        entries = cursor.resolve_name(text, offset, q, catalog, parsed)
        if entries:
            arch, cann, target = _target(settings, text, parsed)
            if len(entries) == 1:
                body = entry_markdown(entries[0], arch, cann)
            else:
                body = "\n\n---\n\n".join(
                    f"**{e.name}** ({e.kind})\n\n{entry_markdown(e, arch, cann)}" for e in entries
                )
            body = f"{body}\n\n*{target}*"
            return HoverResult(
                weaknesses + "\n\n---\n\n" + body if weaknesses else body, line, word.start, word.end
            )
        known = _known_name(catalog, q.qualifier if q.operator == "::" else "", word.text)
        if known is not None:
            arch, _cann, target = _target(settings, text, parsed)
            return HoverResult(f"{known_markdown(known, arch)}\n\n*{target}*", line, word.start, word.end)
    start, end = (word.start, word.end) if word else (character, character)
    for code in diagnostic_codes:
        rule = rule_by_code(code)
        if rule is not None:
            return HoverResult(rule_markdown(rule), line, start, end)
    if weaknesses:
        return HoverResult(weaknesses, line, start, end)
    return None
