"""Markdown for a catalog entry and for a rule: what hover shows and what completion items carry as documentation."""

from __future__ import annotations

import functools
import re

from akgen_lsp.ascendc.arch import ArchError, load_arch
from akgen_lsp.ascendc.catalog import Entry, parse_version
from akgen_lsp.ascendc.rules import Rule

PIPE_NAMES = {
    "S": "S (scalar)",
    "V": "V (vector unit)",
    "M": "M (cube unit)",
    "MTE1": "MTE1 (L1 -> L0A/L0B)",
    "MTE2": "MTE2 (GM -> UB/L1)",
    "MTE3": "MTE3 (UB -> GM)",
    "FIX": "FIX (L0C -> GM/L1)",
    "ALL": "all pipes",
}


@functools.lru_cache(maxsize=64)
def npu_arch_of(arch: str) -> str:
    try:
        return load_arch(arch).npu_arch
    except (ArchError, OSError, KeyError, ValueError):
        return ""


def signature_lines(entry: Entry) -> list[str]:
    if entry.overloads:
        return [ov.label() for ov in entry.overloads]
    if entry.kind == "class":
        head = f"{entry.template} " if entry.template else ""
        bases = f" : {', '.join(b.removeprefix('AscendC::') for b in entry.bases)}" if entry.bases else ""
        return [f"{head}class {entry.name}{bases}"]
    if entry.kind in ("enumerator", "variable") and entry.value is not None:
        return [f"{entry.name} = {entry.value}"]
    if entry.kind == "macro":
        return [f"#define {entry.short}"]
    return [f"{entry.kind} {entry.name}"]


def availability(entry: Entry, cann_version: str) -> str:
    """A sentence on whether the entry exists in the configured CANN version, or an empty string."""
    if entry.removed and parse_version(cann_version) >= parse_version(entry.removed):
        use = f"; use `{entry.replaced_by}`" if entry.replaced_by else ""
        return f"**Not in CANN {cann_version}**: removed in {entry.removed}{use}."
    if entry.since and parse_version(cann_version) < parse_version(entry.since):
        return f"**Not in CANN {cann_version}**: available from CANN {entry.since}."
    if entry.deprecated:
        use = f"; use `{entry.replaced_by}`" if entry.replaced_by else ""
        return f"**Deprecated**{use}."
    if entry.since:
        return f"Available since CANN {entry.since}."
    return ""


_MARKDOWN_CACHE: dict[tuple[int, str, str, str, bool], str] = {}


def entry_markdown(entry: Entry, arch: str, cann_version: str, with_signature: bool = True) -> str:
    key = (id(entry), entry.name, arch, cann_version, with_signature)
    text = _MARKDOWN_CACHE.get(key)
    if text is None:
        if len(_MARKDOWN_CACHE) > 8192:
            _MARKDOWN_CACHE.clear()
        text = _MARKDOWN_CACHE[key] = _entry_markdown(entry, arch, cann_version, with_signature)
    return text


def _entry_markdown(entry: Entry, arch: str, cann_version: str, with_signature: bool) -> str:
    parts: list[str] = []
    if with_signature:
        parts.append("```cpp\n" + "\n".join(signature_lines(entry)) + "\n```")
    if entry.doc:
        parts.append(entry.doc)
    facts: list[str] = []
    if entry.pipe and entry.pipe != "none":
        facts.append(f"- **Pipe**: {PIPE_NAMES.get(entry.pipe, entry.pipe)}")
    npu = npu_arch_of(arch)
    if entry.dtypes:
        types_here = entry.dtypes_for(npu) if npu else ()
        if types_here:
            facts.append(f"- **Data types on {arch}**: {', '.join(f'`{t}`' for t in types_here)}")
        else:
            known = ", ".join(sorted(entry.dtypes))
            facts.append(f"- **Data types**: none listed for {arch} (listed for NPU arch {known})")
    if entry.header:
        facts.append(f"- **Header**: `{entry.header}`")
    avail = availability(entry, cann_version)
    if avail:
        facts.append(f"- {avail}")
    if facts:
        parts.append("\n".join(facts))
    if entry.constraints:
        parts.append("**Constraints**\n" + "\n".join(f"- {c}" for c in entry.constraints))
    return "\n\n".join(parts)


def rule_markdown(rule: Rule) -> str:
    head = f"**{rule.code}** `{rule.name}`: {rule.summary}"
    doc = rule.doc.strip()
    first, sep, rest = doc.partition("\n\n")
    if sep and first.upper().startswith(rule.code.upper()):
        doc = rest.strip()  # the title paragraph repeats the head line
    if not doc:
        return head
    # a ruff-style docstring may open with a one-line title; keep the sections
    return head + "\n\n" + demote_headings(doc)


def demote_headings(markdown: str) -> str:
    """``## What it does`` -> ``#### What it does``: rule sections read as sub-headings in a hover."""
    return re.sub(r"^(#{1,3}) ", lambda m: "#" * (len(m.group(1)) + 2) + " ", markdown, flags=re.M)
