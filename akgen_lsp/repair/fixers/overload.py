"""A call with one argument too many or too few, where exactly one overload of the catalog fits the arguments given.

``no matching function for call to 'Add(...)'`` (g++) / ``no matching function for call to 'Add'`` (clang) on a
call of an Ascend C API: each argument is classed by what the file says it is (a ``LocalTensor``, a
``GlobalTensor``, anything else), each overload's parameters the same way. One argument too many: the argument
whose removal makes an overload fit goes (when one or two do; two equal arguments are one). One too few: where the overloads that fit with one
more argument all want it at one place (those that differ only in their templates count as one) and it is a count (``count``, ``calCount``), the count the other calls of the function pass
(the most common one, when one is) is inserted. Neither is certain: the author may have meant another overload.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence

from tree_sitter import Node

from akgen_lsp.ascendc.catalog import Overload
from akgen_lsp.ascendc.commas import split_top_level
from akgen_lsp.ascendc.kernel_model import tensor_info
from akgen_lsp.ascendc.syntax import Call, lookup
from akgen_lsp.findings import Edit, Finding, Fix, Span
from akgen_lsp.repair.fixers.base import QUOTED, FixContext, Proposal, arguments_text

NAME = "overload"
_NO_MATCH = re.compile(rf"no matching (?:member )?function for call to {QUOTED}(?:[\w:]*::)?(?P<name>\w+)")
_COUNT_PARAMS = frozenset({"count", "calCount", "calcount", "dataSize", "size"})


_SCALARS = re.compile(
    r"(?:unsigned |signed |long |short )*(?:u?int(?:8|16|32|64)_t|int|long|short|char|float|double|"
    r"half|bfloat16_t|bool|size_t)"
)


def _kinds_in_message(message: str) -> list[str] | None:
    """The kinds of the arguments the compiler lists (``for call to 'DataCopy(const AscendC::LocalTensor<float>&,
    uint32_t&)'``): local, global or scalar, unknown for anything else; None when the message lists none."""
    m = re.search(rf"for call to {QUOTED}[\w:]*\(", message)
    if m is None:
        return None
    depth, end = 1, None
    for i in range(m.end(), len(message)):
        depth += message[i] in "(<"
        depth -= message[i] in ")>"
        if depth == 0:
            end = i
            break
    if end is None:
        return None
    inside = message[m.end() : end].strip()
    out = []
    for t in split_top_level(inside) if inside else []:
        base = t.replace("const", "").replace("&", "").strip()
        if "LocalTensor" in base:
            out.append("local")
        elif "GlobalTensor" in base:
            out.append("global")
        elif _SCALARS.fullmatch(base):
            out.append("scalar")
        else:
            out.append("unknown")
    return out


def _enum_kind(ctx: FixContext, type_text: str) -> str | None:
    """``enum:RoundMode`` for a parameter type that is an enum of the catalog."""
    base = type_text.replace("const", "").replace("&", "").strip().rsplit("::", 1)[-1]
    if base and any(e.kind == "enum" for e in ctx.catalog.lookup(base)):
        return f"enum:{base}"
    return None


def _kind_of_type(t: str) -> str:
    base = t.replace("const", "").strip()
    if "LocalTensor" in base:
        return "local"
    if "GlobalTensor" in base:
        return "global"
    if base.endswith("[]") or "Params" in base or "Tiling" in base:
        return "struct"
    if re.fullmatch(r"[A-Z]\w*\s*&?", base) and base.rstrip("&").strip() in ("T", "U", "S", "V"):
        return "any"  # a template parameter: tensors and scalars both bind
    return "scalar"


def _kind_of_arg(ctx: FixContext, node: Node) -> str:
    info = tensor_info(ctx.model, node)
    if info is not None:
        return "local" if info[0] == "LocalTensor" else "global"
    if node.type in ("number_literal", "true", "false") or ctx.model.eval(node) is not None:
        return "scalar"
    text = ctx.parsed.node_text(node)
    if node.type == "identifier":  # a variable the file declares: scalar unless its type is a tensor
        decl = lookup(ctx.parsed, text, node)
        if (
            decl is not None
            and decl.type_name
            and "Tensor" not in decl.type_name
            and decl.type_name != "auto"
        ):
            return "scalar"
    if node.type == "qualified_identifier" and any(
        e.kind == "enumerator" for e in ctx.catalog.lookup(text.rsplit("::", 1)[-1])
    ):
        scope = text.rsplit("::", 2)[-2] if text.count("::") >= 1 else ""
        return f"enum:{scope}" if scope else "scalar"  # RoundMode::CAST_NONE
    return "unknown"


def _fits(kinds: Sequence[str], ov: Overload, ctx: FixContext | None = None) -> bool:
    if not ov.accepts(len(kinds)):
        return False
    for kind, param in zip(kinds, ov.params, strict=False):
        want = _kind_of_type(param.type)
        enum = _enum_kind(ctx, param.type) if ctx is not None else None
        if (
            kind.startswith("enum:") or enum is not None
        ):  # an enumerator goes where its enum does, nothing else
            if kind != "unknown" and kind != enum:
                return False
            continue
        if kind == "unknown" or want == "any":
            continue
        if kind in ("local", "global") and want != kind:
            return False
        if kind == "scalar" and want in ("local", "global", "struct"):  # a number binds no parameter struct
            return False
    return True


def _count_expr(ctx: FixContext, call: Call) -> str | None:
    """The count the other count-form calls pass: those of the same function, else those of the file (the most
    common one, when one is most common)."""
    fn = ctx.model.function_of(call.node)
    everywhere = [c for cs in ctx.model.calls_by_function.values() for c in cs]
    for calls in ([*ctx.model.calls_in(fn)] if fn is not None else [], everywhere):
        counts: Counter[str] = Counter()
        for c in calls:
            if c is call or not c.args or c.resolved is None or not c.resolved.startswith("AscendC::"):
                continue
            entry = ctx.catalog.get(c.resolved)
            if entry is None:
                continue
            for ov in entry.overloads:
                if len(ov.params) == len(c.args) and ov.params and ov.params[-1].name in _COUNT_PARAMS:
                    counts[ctx.parsed.node_text(c.args[-1])] += 1
                    break
        if counts:
            (top, n), *rest = [*counts.most_common(2), ("", 0)]
            return top if rest[0][1] < n else None
    return None


def _removal(ctx: FixContext, call: Call, args: list[str], at: int) -> Edit:
    """Remove argument `at` with its comma."""
    nodes = call.args
    if at + 1 < len(nodes):
        a, b = ctx.parsed.span(nodes[at]), ctx.parsed.span(nodes[at + 1])
        return Edit(Span(ctx.path, a.line, a.column, b.line, b.column), "")
    a, b = ctx.parsed.span(nodes[at - 1]), ctx.parsed.span(nodes[at])
    return Edit(Span(ctx.path, a.end_line, a.end_column, b.end_line, b.end_column), "")


def propose(ctx: FixContext, finding: Finding) -> Iterator[Proposal]:
    m = _NO_MATCH.search(finding.message)
    if m is None:
        return
    name = m.group("name")
    for call in ctx.calls_on_line(finding.span.line, name):
        entry = ctx.catalog.get(call.resolved or "") or next(
            (e for e in ctx.catalog.lookup(name) if e.name.startswith("AscendC::") and e.overloads), None
        )
        if entry is None or not entry.overloads:
            continue
        kinds = [_kind_of_arg(ctx, a) for a in call.args]
        told = _kinds_in_message(finding.message)
        if told is not None and len(told) == len(kinds):  # the compiler knows the types the file leaves open
            kinds = [t if k == "unknown" else k for k, t in zip(kinds, told, strict=True)]
        if any(_fits(kinds, ov, ctx) for ov in entry.overloads):
            continue  # the arity fits: the types are wrong, which no argument count mends
        args = arguments_text(ctx, call)
        drops = [
            i
            for i in range(len(kinds))
            if any(_fits(kinds[:i] + kinds[i + 1 :], ov, ctx) for ov in entry.overloads)
        ]
        by_result: dict[str, int] = {}
        for i in drops:  # removing either of two equal arguments is one fix
            by_result.setdefault(", ".join(args[:i] + args[i + 1 :]), i)
        if 0 < len(by_result) <= 2:
            for i in by_result.values():
                yield Proposal(
                    Fix(f"Remove the extra argument '{args[i]}' of {name}", (_removal(ctx, call, args, i),)),
                    False,
                    NAME,
                )
            continue
        inserts = [
            (ov, j)
            for ov in entry.overloads
            for j in range(len(kinds) + 1)
            if j < len(ov.params)
            and _fits([*kinds[:j], "unknown", *kinds[j:]], ov, ctx)
            and len(ov.params) == len(kinds) + 1
        ]
        slots = {(j, ov.params[j].name) for ov, j in inserts}  # overloads that differ only in their templates
        if len(slots) != 1:
            continue
        ((j, param),) = slots
        if param not in _COUNT_PARAMS or j != len(kinds):
            continue
        count = _count_expr(ctx, call)
        if count is None or not call.args:
            continue
        last = ctx.parsed.span(call.args[-1])
        edit = Edit(
            Span(ctx.path, last.end_line, last.end_column, last.end_line, last.end_column), f", {count}"
        )
        yield Proposal(
            Fix(f"Pass the count '{count}' to {name} (the count of the other calls)", (edit,)), False, NAME
        )
