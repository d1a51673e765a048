"""``float16`` / ``bfloat16`` (and ``fp16`` / ``bf16``) in a compile error: every use of that spelling as a type
becomes ``half`` / ``bfloat16_t``, in one fix (the compiler reports the first use; the others fail with it).

The uses are the linter's (AKG160 knows a type position from a variable named ``bf16``); the fix is certain: these
spellings mean the same types in every framework they come from.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from akgen_lsp.findings import Finding, Fix
from akgen_lsp.repair.fixers.base import QUOTED, UNQUOTED, FixContext, Proposal

NAME = "type spelling"
_WRONG = re.compile(rf"{QUOTED}(?P<name>float16|bfloat16|fp16|bf16){UNQUOTED}")


def propose(ctx: FixContext, finding: Finding) -> Iterator[Proposal]:
    m = _WRONG.search(finding.message)
    if m is None:
        return
    name = m.group("name")
    uses = [
        f
        for f in ctx.lint("AKG160")
        if f.fixes
        and f.data.get("name", name) == name
        and ctx.parsed.line_text(f.span.line)[f.span.column - 1 : f.span.end_column - 1] == name
    ]
    edits = tuple(e for f in uses for e in f.fixes[0].edits)
    if not edits or not any(f.span.line == finding.span.line for f in uses):
        return
    right = edits[0].new_text
    title = f"Replace '{name}' with '{right}'" + (f" ({len(edits)} uses)" if len(edits) > 1 else "")
    yield Proposal(Fix(title, edits), True, NAME)
