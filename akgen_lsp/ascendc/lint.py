"""Run the static rules over one text: parse once, run each selected rule, isolate a rule that raises."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from akgen_lsp.ascendc import parse_errors
from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.ascendc.catalog import Catalog, load_catalog
from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.project import ProjectFacts, file_arch, project_facts
from akgen_lsp.ascendc.rules import Rule, select_rules
from akgen_lsp.ascendc.syntax import ParsedFile, parse
from akgen_lsp.config import Settings, defaults
from akgen_lsp.findings import Finding, Severity, Span, sort_findings

log = logging.getLogger(__name__)
_reported: set[tuple[str, str]] = set()

ASCENDC_HEADERS = (
    "kernel_operator.h",
    "kernel_operator_intf.h",
    "lib/matmul_intf.h",
    "kernel_tiling/kernel_tiling.h",
)


def is_ascendc(path: str | Path, text: str | None, settings: Settings | None = None) -> bool:
    """Whether a file is AscendC: an ``.asc`` file, or a C++ file that includes an Ascend C header."""
    settings = settings or defaults()
    suffix = Path(path).suffix.lower()
    if suffix in [e.lower() for e in settings["files.extensions"]]:
        return True
    if suffix not in [e.lower() for e in settings["files.cpp_extensions"]]:
        return False
    if text is None:
        try:
            text = Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return False
    head = text[:200_000]
    return any(h in head for h in ASCENDC_HEADERS) or "__aicore__" in head


def target_cann(settings: Settings, project: ProjectFacts) -> tuple[str, str]:
    """(CANN version, where it comes from): the setting when set, else the project's, else the default."""
    if settings.origin("cann.version") != "default" or not project.cann_version:
        return settings["cann.version"], f"setting cann.version ({settings.origin('cann.version')})"
    return project.cann_version, project.version_source


def target_arch(
    settings: Settings, path: str, text: str, project: ProjectFacts | None = None
) -> tuple[str, str]:
    """(arch profile, why): the setting when set, else what the file says (arch35/), else what the project's CMake
    builds for, else the default."""
    if settings.origin("arch") == "default":
        found = file_arch(path, text)
        if found is not None:
            return found
        project = project if project is not None else project_facts(path, text)
        if project.arch:
            try:
                return load_arch(project.arch).name, f"{project.arch_source} ({project.arch})"
            except ValueError:
                pass  # a soc we have no profile for: the setting
    return settings["arch"], f"setting arch ({settings.origin('arch')})"


def rules_for(settings: Settings) -> list[Rule]:
    return select_rules(settings["lint.select"], settings["lint.ignore"], settings["lint.extend_select"])


def lint_text(
    text: str,
    path: str = "<memory>",
    settings: Settings | None = None,
    catalog: Catalog | None = None,
    rules: Sequence[Rule] | None = None,
    previous: ParsedFile | None = None,
) -> list[Finding]:
    """All findings of the selected rules on `text`, sorted. A rule that raises is logged once and skipped.
    `previous` (the same document's last parse) makes the parse incremental; the findings are the same."""
    return lint_parsed(parse(text, path, previous), settings, catalog, rules)


def lint_parsed(
    parsed: ParsedFile,
    settings: Settings | None = None,
    catalog: Catalog | None = None,
    rules: Sequence[Rule] | None = None,
) -> list[Finding]:
    """`lint_text` on a file already parsed (the server keeps each document's parse for the next, incremental one)."""
    path = parsed.path
    settings = settings or defaults()
    depth = _bracket_depth(parsed.code)
    if depth > MAX_NESTING:
        # the tree of such a text is as deep, and tree-sitter's queries and parent links are slow on deep trees (48 KB
        # of `(` took seconds per keystroke): one finding says so, no rule runs (docs/security.md, "Resources")
        return [
            Finding(
                "AKG000",
                f"brackets nest {depth} deep in this file (more than {MAX_NESTING}): the static "
                "checks skip it; no kernel nests that deep, so look for text pasted by mistake",
                Span.point(path, 1),
                Severity.WARNING,
            )
        ]
    project = project_facts(path, parsed.text)
    ctx = LintContext(
        parsed=parsed,
        catalog=catalog or load_catalog(),
        arch=load_arch(target_arch(settings, path, parsed.text, project)[0]),
        cann_version=target_cann(settings, project)[0],
        project=project,
    )
    findings: list[Finding] = []
    broken = parse_errors.BrokenRegions.of(parsed)
    for rule in rules if rules is not None else rules_for(settings):
        try:
            found = list(rule.check(ctx))
            if (
                broken is not None
            ):  # half-typed code: a rule is silent where its facts come from a misread tree
                found = [f for f in found if not broken.covers(f.span, rule.region)]
            findings.extend(found)
        except Exception:  # a broken rule must not take the others down
            key = (rule.code, path)
            if key not in _reported:
                _reported.add(key)
                log.exception("rule %s failed on %s; its findings are skipped", rule.code, path)
    return sort_findings(_dedupe(findings))


MAX_NESTING = 256
_NOT_BRACKET = re.compile(r"[^()\[\]{}]+")


def _bracket_depth(code: str) -> int:
    """The deepest nesting of ( [ { in a code view (comments and strings blanked); closers without an opener are
    ignored."""
    depth = deepest = 0
    for c in _NOT_BRACKET.sub("", code):
        if c in "([{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif depth:
            depth -= 1
    return deepest


def _dedupe(findings: Iterable[Finding]) -> list[Finding]:
    seen: set[tuple[object, ...]] = set()
    out = []
    for f in findings:
        key = (f.code, f.span, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out
