"""Mutations of the kernel's own logic and of what device code may use: a tail loop off by one, a tiling field read
from the wrong place, the standard library or the heap in device code."""

from __future__ import annotations

import re
from collections.abc import Iterator

from akgen_lsp.errors.mutations.base import Edit, Mutation, MutationContext

_FOR_LESS = re.compile(r"\bfor\s*\([^;]*;\s*(\w+)\s*<\s*(\w+(?:\.\w+)?)\s*;")
_TAIL = re.compile(r"(\w+)\s*-\s*(\w+)\s*<\s*(\w+)\s*\?\s*\1\s*-\s*\2\s*:")
_FIELD = re.compile(r"\b(tilingData|tiling_data|tiling)\.(\w+)\b")
_BODY_OPEN = re.compile(r"__aicore__\s+inline\s+void\s+(\w+)\s*\([^)]*\)\s*\{[ \t]*\n")


def tail_off_by_one(ctx: MutationContext) -> Iterator[Mutation]:
    """The loop over tiles runs one step too far (``<`` written ``<=``), or the tail tile is one element longer."""
    code = ctx.pf.code
    for m in _FOR_LESS.finditer(code):
        op = code.index("<", m.start(1))
        yield Mutation(
            "tail_off_by_one",
            "runtime",
            (Edit(op, op + 1, "<="),),
            ctx.line_of(op),
            f"loop condition {m.group(1)} < {m.group(2)} written as <=",
            f"the loop runs once more than it should (`{m.group(1)} <= {m.group(2)}`): the last pass reads "
            "and writes past the end of the data.",
        )
    for m in _TAIL.finditer(code):
        end = m.end() - 1  # the ':' of the ternary: the tail length is just before it
        yield Mutation(
            "tail_off_by_one",
            "runtime",
            (Edit(end, end, "+ 1 "),),
            ctx.line_of(m.start()),
            f"tail length {m.group(1)} - {m.group(2)} written one longer",
            "the last tile is one element longer than the data left: it reads and writes one element past "
            "the end.",
        )


def tiling_wrong_field(ctx: MutationContext) -> Iterator[Mutation]:
    """A tiling field read from the wrong place: two fields of the tiling struct swapped where the kernel reads
    them."""
    code = ctx.pf.code
    uses = list(_FIELD.finditer(code))
    fields = list(dict.fromkeys(m.group(2) for m in uses))
    for m in uses:
        f = m.group(2)
        other = next((g for g in fields if g != f), None)
        if other is None:
            continue
        a, b = m.start(2), m.end(2)
        yield Mutation(
            "tiling_wrong_field",
            "tiling",
            (Edit(a, b, other),),
            ctx.line_of(a),
            f"tiling field {f} read as {other}",
            f"the kernel reads `{m.group(1)}.{other}` where it needs `{f}`: the value comes from the wrong "
            "offset of the tiling data, so the host and the kernel disagree on the work split.",
        )


def device_stl(ctx: MutationContext) -> Iterator[Mutation]:
    """The standard library or the heap in a device function: a scratch std::vector or new[]."""
    code = ctx.pf.code
    for done, m in enumerate(_BODY_OPEN.finditer(code)):
        if done >= 2:
            return
        indent = " " * 8
        at = m.end()
        variants = (
            ("std::vector<float> scratch(32);", "std::vector"),
            ("float* scratch = new float[32];\n" + indent + "delete[] scratch;", "new"),
        )
        for snippet, what in variants:
            yield Mutation(
                "device_stl",
                "device_restriction",
                (Edit(at, at, f"{indent}{snippet}\n"),),
                ctx.line_of(at),
                f"added a scratch {what} to {m.group(1)}",
                f"`{what}` in device code: the AI Core has no heap and no standard library; take scratch "
                "memory from the TPipe (a TBuf) instead.",
            )
