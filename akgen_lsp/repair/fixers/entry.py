"""The kernel entry and device qualifiers in a build error: a missing ``extern "C"`` (the entry's symbol is C++-
mangled: ``undefined reference to `add_custom'``, ``kernel entry 'x' not implement``, no entry found), a missing
``__global__`` / ``__aicore__`` (bisheng: ``calling a __host__ function("f") from a __aicore__ function("k") is not
allowed``).

The fixes are the linter's (AKG110 knows which function is the entry and which helper the kernel calls); each is
certain: it adds the qualifier the entry or the helper must have and changes nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from akgen_lsp.findings import Finding
from akgen_lsp.repair.fixers.base import FixContext, Proposal

NAME = "kernel entry"
_ENTRY = re.compile(
    r"no kernel entry|kernel entry .* not implement|undefined (?:reference to|symbol)|"
    r"extern \"C\"|__global__|__aicore__|calling a __host__ function",
    re.I,
)
_HOST_CALL = re.compile(r"calling a __host__ function\s*\(\s*\"?(?P<callee>\w+)")


def propose(ctx: FixContext, finding: Finding) -> Iterator[Proposal]:
    if finding.code not in ("CXX", "LINK", "BENCH-ENTRY", "CANN-ENTRY") and not finding.code.startswith(
        "CANN"
    ):
        return
    if not _ENTRY.search(finding.message):
        return
    host = _HOST_CALL.search(finding.message)
    for f in ctx.lint("AKG110"):
        for fx in f.fixes:
            if host is not None and host.group("callee") not in fx.title:
                continue
            yield Proposal(fx, True, NAME)
