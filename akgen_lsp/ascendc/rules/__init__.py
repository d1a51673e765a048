"""Static rules: one module per rule, named ``akgNNN_<slug>.py``, each defining ``RULE = Rule(...)``.

A rule module's docstring is its documentation, in the ruff style (``## What it does`` / ``## Why is this bad?`` /
``## Example`` / ``Use instead:`` / ``## Fix safety`` / ``## References``). Hover on a diagnostic code and
``akgen rule AKG101`` show it.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from akgen_lsp.ascendc.context import LintContext
    from akgen_lsp.findings import Finding


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    summary: str
    check: Callable[[LintContext], Iterable[Finding]]
    default_enabled: bool = True
    doc: str = ""
    # Where the rule's facts come from: "statement" (the finding's own statement), "function" or "class" (the
    # enclosing one; whole-class facts such as a queue's protocol across methods). While that region has a parse
    # error (half-typed code) the rule's findings there are dropped: they would rest on a misread tree.
    region: str = "statement"


def _rule_modules() -> list[ModuleType]:
    mods = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("akg"):
            mods.append(importlib.import_module(f"{__name__}.{info.name}"))
    return mods


@lru_cache(maxsize=1)
def all_rules() -> tuple[Rule, ...]:
    """Every rule, sorted by code; each rule's `doc` is its module docstring."""
    out = []
    for mod in _rule_modules():
        rule: Rule = mod.RULE
        out.append(dataclasses.replace(rule, doc=(mod.__doc__ or "").strip()))
    return tuple(sorted(out, key=lambda r: r.code))


def rule_by_code(code: str) -> Rule | None:
    code = code.upper()
    return next((r for r in all_rules() if r.code == code), None)


def select_rules(
    select: Iterable[str] = (), ignore: Iterable[str] = (), extend: Iterable[str] = ()
) -> list[Rule]:
    """Rules to run. Codes may be prefixes (``AKG1`` selects every AKG1xx rule)."""
    select, ignore, extend = list(select), list(ignore), list(extend)

    def matches(code: str, pats: list[str]) -> bool:
        return any(code.startswith(p.upper()) for p in pats)

    out = []
    for r in all_rules():
        chosen = matches(r.code, select) if select else r.default_enabled
        if matches(r.code, extend):
            chosen = True
        if matches(r.code, ignore):
            chosen = False
        if chosen:
            out.append(r)
    return out
