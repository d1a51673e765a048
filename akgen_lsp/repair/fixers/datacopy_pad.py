"""A ``DataCopy`` whose length is not a whole number of 32-byte blocks (the simulator's ``SIM-DC-ROUNDDOWN``: the
hardware drops the tail, the numbers come out wrong) -> ``DataCopyPad`` with the exact byte count.

The count form ``DataCopy(dst, src, count)`` between GM and UB becomes ``DataCopyPad`` of one block of
``count * sizeof(T)`` bytes (the linter's AKG140 rewrite, shared in `ascendc.rewrites`); the count stays the
expression the author wrote, so the fix holds for every launch, not just the one that was run. The other reading
of the same mistake, a count a few elements short of whole blocks, gets the count rounded up to whole blocks as a
second proposal. Neither is certain (a padded tile may need other strides in the vector code after it; a rounded
count may reach past the data): only the run tells, and only what verifies is offered.
"""

from __future__ import annotations

from collections.abc import Iterator

from akgen_lsp.ascendc.kernel_model import tensor_info, type_size
from akgen_lsp.ascendc.rewrites import datacopy_pad
from akgen_lsp.findings import Edit, Finding, Fix
from akgen_lsp.repair.fixers.base import FixContext, Proposal

NAME = "DataCopyPad"
CODES = frozenset({"SIM-DC-ROUNDDOWN", "AKG140"})


def propose(ctx: FixContext, finding: Finding) -> Iterator[Proposal]:
    if finding.code not in CODES:
        return
    for call in ctx.calls_on_line(finding.span.line, "DataCopy"):
        if len(call.args) != 3 or call.receiver is not None:
            continue
        dst, src = tensor_info(ctx.model, call.args[0]), tensor_info(ctx.model, call.args[1])
        if (
            dst is None
            or src is None
            or (dst[0] == "GlobalTensor") == (src[0] == "GlobalTensor")
            or dst[1] != src[1]
        ):
            continue
        pf = ctx.parsed
        count = pf.node_text(call.args[2])
        value = ctx.model.eval(call.args[2])
        size = type_size(pf, dst[1])
        byte_len = (
            str(value * size)
            if value is not None and size
            else f"static_cast<uint32_t>(({count}) * sizeof({dst[1]}))"
        )
        new = datacopy_pad(
            pf.node_text(call.args[0]),
            pf.node_text(call.args[1]),
            byte_len,
            dst[1],
            "AscendC::" if call.qualifier == "AscendC" else "",
            src[0] == "GlobalTensor",
        )
        title = f"Use DataCopyPad with the exact length ({byte_len if byte_len.isdigit() else count + ' elements'})"
        yield Proposal(Fix(title, (Edit(pf.span(call.node), new),)), False, NAME)
        if size and 32 % size == 0:
            per_block = 32 // size
            rounded = (
                str(-(-value // per_block) * per_block)
                if value is not None
                else f"(({count}) + {per_block - 1}) / {per_block} * {per_block}"
            )
            yield Proposal(
                Fix(
                    f"Round the length up to whole 32-byte blocks ({rounded} elements)",
                    (Edit(pf.span(call.args[2]), rounded),),
                ),
                False,
                NAME,
            )
