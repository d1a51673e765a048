"""Mutations of API use: invented names, names of another CANN version, arguments dropped or added, wrong dtypes."""

from __future__ import annotations

import re
from collections.abc import Iterator

from akgen_lsp.errors.mutations.base import Edit, Mutation, MutationContext

# invented names that are the right name in another CANN version are `renamed_api`, not inventions
_VERSIONED = frozenset({"Divs", "Subs", "ReduceRepeat", "ReduceDataBlock", "ReducePairElem"})
_TYPE_RE = re.compile(r"\b(TQue|TBuf|TPipe|DataCopyParams|DataCopyPadParams)\b(?=\s*[<\w])")
_ENUM_RE = re.compile(r"\b(CAST_RINT|V_MTE3|MTE2_V)\b")
_DTYPES = {"half": "float", "float": "half", "bfloat16_t": "float", "int32_t": "float", "int16_t": "half"}
_SPELLING = {"half": "float16", "bfloat16_t": "bfloat16"}


def _inventions(ctx: MutationContext) -> dict[str, list[tuple[str, bool]]]:
    """Real short name -> [(invented short name, is a member)] from the catalog's list of invented names."""
    out: dict[str, list[tuple[str, bool]]] = {}
    for inv in ctx.catalog.invented.values():
        short = inv.name.rsplit("::", 1)[-1]
        if short in _VERSIONED or "::" not in inv.replacement:
            continue
        rep_parent, rep_short = inv.replacement.rsplit("::", 1)
        member = rep_parent != "AscendC"
        if member != (inv.name.count("::") > 1):
            continue  # a free function invented for a method (AscendC::GetValue): the call would change shape
        out.setdefault(rep_short, []).append((short, member))
    return out


def invented_api(ctx: MutationContext) -> Iterator[Mutation]:
    table = _inventions(ctx)
    seen: set[tuple[str, str]] = set()
    for c in ctx.calls:
        if c.user_defined or c.short not in table:
            continue
        for fake, member in table[c.short]:
            if member != c.is_member or (c.short, fake) in seen:
                continue
            seen.add((c.short, fake))
            a, b = ctx.span(c.name_node)
            yield Mutation(
                "invented_api",
                "hallucinated_api",
                (Edit(a, b, fake),),
                ctx.line_of(a),
                f"renamed the call {c.short} to the invented {fake}",
                f"`{fake}` is not an Ascend C API: there is no such name in any CANN version. The API that "
                f"does this is `{c.short}`.",
            )
    code = ctx.pf.code
    for rx, names in (
        (
            _TYPE_RE,
            {
                "TQue": "TQueue",
                "TBuf": "TBuffer",
                "TPipe": "Pipe",
                "DataCopyParams": "DataCopyParam",
                "DataCopyPadParams": "DataCopyPadParam",
            },
        ),
        (_ENUM_RE, {"CAST_RINT": "CAST_NEAREST", "V_MTE3": "VEC_MTE3", "MTE2_V": "MTE2_VEC"}),
    ):
        done: set[str] = set()
        for m in rx.finditer(code):
            name = m.group(1)
            if name in done:
                continue
            done.add(name)
            fake = names[name]
            yield Mutation(
                "invented_api",
                "hallucinated_api",
                (Edit(m.start(), m.end(), fake),),
                ctx.line_of(m.start()),
                f"renamed {name} to the invented {fake}",
                f"`{fake}` does not exist in Ascend C; the name is `{name}`.",
            )


def renamed_api(ctx: MutationContext) -> Iterator[Mutation]:
    """A name of a later CANN version where the kernel targets an earlier one (``Subs`` exists from CANN 9.0; on
    8.5 the kernel must write ``Adds`` with the negated scalar)."""
    for c in ctx.calls_named("Adds"):
        if len(c.args) != 4 or c.is_member:
            continue
        a, b = ctx.span(c.name_node)
        sa, sb = ctx.span(c.args[2])
        scalar = ctx.text[sa:sb]
        yield Mutation(
            "renamed_api",
            "renamed_api",
            (Edit(a, b, "Subs"), Edit(sa, sb, f"-({scalar})")),
            ctx.line_of(a),
            "wrote Adds(dst, src, v, n) as Subs(dst, src, -(v), n)",
            "`Subs` exists only from CANN 9.0; the kernel targets CANN "
            f"{ctx.cann_version}, which has `Adds`: add the negated scalar instead.",
        )
        return  # one site per kernel is enough: the others are the same mistake


def drop_argument(ctx: MutationContext) -> Iterator[Mutation]:
    for c in ctx.calls:
        if c.user_defined or c.resolved is None or len(c.args) < 2 or c.short in ("SetGlobalBuffer",):
            continue
        last, prev = c.args[-1], c.args[-2]
        _, pb = ctx.span(prev)
        _, lb = ctx.span(last)
        a = pb
        yield Mutation(
            "drop_argument",
            "api_mismatch",
            (Edit(a, lb, ""),),
            ctx.line_of(a),
            f"dropped the last argument of {c.short}",
            f"`{c.short}` was called without its last argument (`{ctx.node_text(last)}`); no overload of "
            f"`{c.short}` takes these arguments.",
        )


def extra_argument(ctx: MutationContext) -> Iterator[Mutation]:
    for c in ctx.calls:
        if c.user_defined or c.resolved is None or not c.args:
            continue
        last = c.args[-1]
        _, b = ctx.span(last)
        yield Mutation(
            "extra_argument",
            "api_mismatch",
            (Edit(b, b, f", {ctx.node_text(last)}"),),
            ctx.line_of(b),
            f"passed the last argument of {c.short} twice",
            f"`{c.short}` got one argument too many (`{ctx.node_text(last)}` twice); no overload takes "
            "that many.",
        )


_TEMPLATE_ARG = re.compile(
    r"\b(AllocTensor|DeQue|Get|GetWithOffset)\s*<\s*(half|float|bfloat16_t|int32_t|int16_t|T)"
    r"\s*>"
)
_LOCAL_DECL = re.compile(r"\bLocalTensor\s*<\s*(half|float|bfloat16_t)\s*>")


def wrong_dtype(ctx: MutationContext) -> Iterator[Mutation]:
    """The wrong element type in a template argument (half where float is meant), or a spelling the toolkit does not
    know (``float16``, ``bfloat16``)."""
    code = ctx.pf.code
    done: set[tuple[str, str]] = set()
    for m in _TEMPLATE_ARG.finditer(code):
        api, t = m.group(1), m.group(2)
        for new in [_DTYPES[t]] if t in _DTYPES else ["float"]:
            if (api, new) in done:
                continue
            done.add((api, new))
            a, b = m.start(2), m.end(2)
            yield Mutation(
                "wrong_dtype",
                "dtype",
                (Edit(a, b, new),),
                ctx.line_of(a),
                f"{api}<{t}> written as {api}<{new}>",
                f"`{api}<{new}>` gives a tensor of `{new}` where the code needs `{t}`: the element types of "
                "the tensors no longer match.",
            )
    for m in _LOCAL_DECL.finditer(code):
        t = m.group(1)
        if t in _SPELLING and ("spell", t) not in done:
            done.add(("spell", t))
            a, b = m.start(1), m.end(1)
            yield Mutation(
                "wrong_dtype",
                "dtype",
                (Edit(a, b, _SPELLING[t]),),
                ctx.line_of(a),
                f"{t} spelled {_SPELLING[t]}",
                f"`{_SPELLING[t]}` is not a type in Ascend C; write `{t}`.",
            )
