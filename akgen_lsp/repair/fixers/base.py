"""What a deterministic fixer sees (`FixContext`: the text, its parse, the catalog, the lint and the kernel model,
each built once on demand) and what it proposes (`Proposal`: a `Fix`, whether it is certain, who made it)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.ascendc.catalog import Catalog, load_catalog
from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.kernel_model import KernelModel, kernel_model
from akgen_lsp.ascendc.lint import lint_parsed
from akgen_lsp.ascendc.rules import rule_by_code
from akgen_lsp.ascendc.syntax import Call, ParsedFile, code_view, parse
from akgen_lsp.config import Settings, defaults
from akgen_lsp.findings import Edit, Finding, Fix, Span

# a quoted name in a compiler message, in the C locale's quotes or the typographic ones of other locales
QUOTED = r"['\u2018`]"
UNQUOTED = r"['\u2019`]"


@dataclass(frozen=True)
class Proposal:
    """A fix one fixer proposes for one finding. `certain`: when it verifies, it changes nothing the author meant (a
    rename to the real name, a type spelling, a template argument the declaration gives) and may be `safe`."""

    fix: Fix
    certain: bool
    fixer: str


@dataclass
class FixContext:
    text: str
    path: str
    settings: Settings = field(default_factory=defaults)
    catalog: Catalog = field(default_factory=load_catalog)

    @cached_property
    def parsed(self) -> ParsedFile:
        return parse(self.text, self.path)

    @cached_property
    def lint_context(self) -> LintContext:
        return LintContext(
            self.parsed,
            self.catalog,
            load_arch(str(self.settings["arch"])),
            str(self.settings["cann.version"]),
        )

    @cached_property
    def model(self) -> KernelModel:
        return kernel_model(self.lint_context)

    @cached_property
    def code(self) -> str:
        """The text with comments and literals blanked (same length)."""
        return code_view(self.text)

    @cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    @cached_property
    def code_lines(self) -> list[str]:
        return self.code.splitlines()

    def line(self, n: int) -> str:
        return self.lines[n - 1] if 1 <= n <= len(self.lines) else ""

    def code_line(self, n: int) -> str:
        return self.code_lines[n - 1] if 1 <= n <= len(self.code_lines) else ""

    def lint(self, *codes: str) -> list[Finding]:
        """The findings of the rules `codes` on the text (whatever the settings select)."""
        key = "lint:" + ",".join(codes)
        cached = self._memo.get(key)
        if cached is None:
            rules = [r for r in (rule_by_code(c) for c in codes) if r is not None]
            cached = self._memo[key] = lint_parsed(self.parsed, self.settings, self.catalog, rules)
        return list(cached)

    @cached_property
    def _memo(self) -> dict[str, list[Finding]]:
        return {}

    def calls_on_line(self, line: int, *names: str) -> list[Call]:
        """The calls of the kernel model whose callee name is on `line` (named `names`, when given)."""
        found = (
            self.model.calls_named(*names)
            if names
            else [(None, c) for cs in self.model.calls_by_function.values() for c in cs]
        )
        out = []
        for _fn, c in found:
            if self.parsed.span(c.name_node).line == line:
                out.append(c)
        return out

    def word_span(self, line: int, word: str, column: int = 1) -> Span | None:
        """The occurrence of the identifier `word` on `line` nearest to `column` (in code, not in a comment)."""
        text = self.code_line(line)
        best: tuple[int, int] | None = None
        for m in re.finditer(rf"(?<![\w]){re.escape(word)}(?![\w])", text):
            dist = abs(m.start() + 1 - column)
            if best is None or dist < best[0]:
                best = (dist, m.start())
        if best is None:
            return None
        return Span(self.path, line, best[1] + 1, line, best[1] + 1 + len(word))


Fixer = Callable[[FixContext, Finding], Iterable[Proposal]]


def rename(
    ctx: FixContext, finding: Finding, old: str, new: str, why: str, certain: bool, fixer: str
) -> Proposal | None:
    """Rename the identifier `old` at the finding's line (nearest its column) to `new`."""
    span = ctx.word_span(finding.span.line, old, finding.span.column)
    if span is None or old == new:
        return None
    return Proposal(Fix(f"Change '{old}' to '{new}' ({why})", (Edit(span, new),)), certain, fixer)


def arguments_text(ctx: FixContext, call: Call) -> list[str]:
    return [ctx.parsed.node_text(a) for a in call.args]


def one_line_call(ctx: FixContext, call: Call) -> bool:
    span = ctx.parsed.span(call.node)
    return span.line == span.end_line


def unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))
