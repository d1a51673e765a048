"""Constant evaluation: `const_eval` computes integer constant expressions of the file (None when unknown, never
raises); `TYPE_SIZES` are the sizes ``sizeof`` knows."""

from __future__ import annotations

import re
from collections.abc import Mapping

from tree_sitter import Node

from akgen_lsp.ascendc.syntax.declarations import _declarations_by_name
from akgen_lsp.ascendc.syntax.grammar import (
    F_ALTERNATIVE,
    F_ARGUMENT,
    F_ARGUMENTS,
    F_CONDITION,
    F_CONSEQUENCE,
    F_DECLARATOR,
    F_FIELD,
    F_FUNCTION,
    F_LEFT,
    F_NAME,
    F_OPERATOR,
    F_RIGHT,
    F_TYPE,
    F_VALUE,
)
from akgen_lsp.ascendc.syntax.names import enumerators, lookup, type_aliases
from akgen_lsp.ascendc.syntax.parsing import ParsedFile, parse
from akgen_lsp.ascendc.syntax.preprocessor import macros
from akgen_lsp.ascendc.syntax.type_names import _template_arg_texts, base_type_name, strip_templates

TYPE_SIZES: dict[str, int] = {
    "half": 2,
    "float16_t": 2,
    "bfloat16_t": 2,
    "float": 4,
    "float32_t": 4,
    "double": 8,
    "bool": 1,
    "char": 1,
    "signed char": 1,
    "unsigned char": 1,
    "short": 2,
    "unsigned short": 2,
    "int": 4,
    "unsigned": 4,
    "unsigned int": 4,
    "long": 8,
    "unsigned long": 8,
    "long long": 8,
    "unsigned long long": 8,
    "int8_t": 1,
    "uint8_t": 1,
    "int16_t": 2,
    "uint16_t": 2,
    "int32_t": 4,
    "uint32_t": 4,
    "int64_t": 8,
    "uint64_t": 8,
    "size_t": 8,
    "hifloat8_t": 1,
    "fp8_e4m3fn_t": 1,
    "fp8_e5m2_t": 1,
    "float8_e4m3_t": 1,
    "float8_e5m2_t": 1,
    "int4b_t": 1,
}
_INT_WIDTH = {
    "int8_t": (8, True),
    "uint8_t": (8, False),
    "int16_t": (16, True),
    "uint16_t": (16, False),
    "int32_t": (32, True),
    "uint32_t": (32, False),
    "int64_t": (64, True),
    "uint64_t": (64, False),
    "int": (32, True),
    "unsigned": (32, False),
    "unsigned int": (32, False),
    "short": (16, True),
    "char": (8, True),
    "unsigned char": (8, False),
    "long": (64, True),
    "size_t": (64, False),
}
_NUMBER_RE = re.compile(r"^(0[xX][0-9a-fA-F']+|0[bB][01']+|0[0-7']*|[1-9][0-9']*)([uUlLzZ]*)$")
_EXPR_PARSE_CACHE: dict[str, tuple[ParsedFile, Node | None]] = {}


def _wrap(value: int, type_text: str) -> int:
    w = _INT_WIDTH.get(" ".join(type_text.replace("const", "").split()))
    if w is None:
        return value
    bits, signed = w
    value &= (1 << bits) - 1
    if signed and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def _parse_number(text: str) -> int | None:
    text = text.strip()
    if text[:1] in "-+" and len(text) > 1:
        v = _parse_number(text[1:])
        return None if v is None else (-v if text[0] == "-" else v)
    m = _NUMBER_RE.match(text)
    if not m:
        return None
    digits = m.group(1).replace("'", "")
    try:
        if digits[:2] in ("0x", "0X"):
            return int(digits[2:], 16)
        if digits[:2] in ("0b", "0B"):
            return int(digits[2:], 2)
        if len(digits) > 1 and digits[0] == "0":
            return int(digits, 8)
        return int(digits)
    except ValueError:
        return None


def _expression_node(text: str) -> tuple[ParsedFile, Node | None]:
    """Parse `text` as one expression (cached)."""
    got = _EXPR_PARSE_CACHE.get(text)
    if got is None:
        wrapped = f"auto __akg_value = ({text});"
        sub = parse(wrapped, "<expr>")
        node = None
        decl = sub.root.named_children[0] if sub.root.named_child_count else None
        if decl is not None and decl.type == "declaration":
            init = decl.child_by_field_id(F_DECLARATOR)
            if init is not None and init.type == "init_declarator":
                node = init.child_by_field_id(F_VALUE)
        if len(_EXPR_PARSE_CACHE) > 4096:
            _EXPR_PARSE_CACHE.clear()
        got = _EXPR_PARSE_CACHE[text] = (sub, node)
    return got


_EVAL_STEPS = 2000  # nodes one evaluation may visit


class _Eval:
    def __init__(self, pf: ParsedFile, env: Mapping[str, int], types: Mapping[str, str]) -> None:
        self.pf = pf
        self.env = env
        self.types = types
        self.active: set[object] = set()
        self.steps = 0
        values = pf.memo.get("const_values")
        if values is None:
            values = pf.memo["const_values"] = {}
        # value and evaluation steps of each constant declaration, by id (declarations live as long as `pf`)
        self.values: dict[int, tuple[int, int]] = values  # type: ignore[assignment]

    def node(self, sub: ParsedFile, n: Node | None, at: Node | None) -> int | None:
        self.steps += 1
        if n is None or self.steps > _EVAL_STEPS:
            return None
        t = n.type
        if t == "number_literal":
            return _parse_number(sub.node_text(n))
        if t == "true":
            return 1
        if t in ("false", "null", "nullptr"):
            return 0
        if t == "char_literal":
            body = sub.node_text(n)[1:-1]
            return ord(body) if len(body) == 1 else None
        if t == "parenthesized_expression":
            inner = [c for c in n.named_children if c.type != "comment"]
            return self.node(sub, inner[-1], at) if inner else None
        if t in ("identifier", "field_identifier"):
            return self.name(sub.node_text(n), at)
        if t == "qualified_identifier":
            name = n.child_by_field_id(F_NAME)
            while name is not None and name.type == "qualified_identifier":
                name = name.child_by_field_id(F_NAME)
            return (
                self.name(sub.node_text(name), at) if name is not None and name.type == "identifier" else None
            )
        if t == "field_expression":
            fld = n.child_by_field_id(F_FIELD)
            obj = n.child_by_field_id(F_ARGUMENT)
            if obj is not None and obj.type == "this" and fld is not None:
                return self.name(sub.node_text(fld), at)
            return None
        if t == "unary_expression":
            op = sub.node_text(n.child_by_field_id(F_OPERATOR) or n.children[0])
            v = self.node(sub, n.child_by_field_id(F_ARGUMENT), at)
            if v is None:
                return None
            return {"-": -v, "+": v, "~": ~v, "!": int(not v)}.get(op)
        if t == "binary_expression":
            return self.binary(sub, n, at)
        if t == "conditional_expression":
            c = self.node(sub, n.child_by_field_id(F_CONDITION), at)
            if c is None:
                return None
            return self.node(sub, n.child_by_field_id(F_CONSEQUENCE if c else F_ALTERNATIVE), at)
        if t == "cast_expression":
            v = self.node(sub, n.child_by_field_id(F_VALUE), at)
            typ = n.child_by_field_id(F_TYPE)
            return None if v is None else _wrap(v, sub.node_text(typ) if typ is not None else "")
        if t == "sizeof_expression":
            return self.sizeof(sub, n)
        if t == "call_expression":
            return self.call(sub, n, at)
        return None

    def binary(self, sub: ParsedFile, n: Node, at: Node | None) -> int | None:
        op_node = n.child_by_field_id(F_OPERATOR)
        op = sub.node_text(op_node) if op_node is not None else ""
        a = self.node(sub, n.child_by_field_id(F_LEFT), at)
        if a is None:
            return None
        if op == "&&" and not a:
            return 0
        if op == "||" and a:
            return 1
        b = self.node(sub, n.child_by_field_id(F_RIGHT), at)
        if b is None:
            return None
        try:
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if op == "/":
                return None if b == 0 else int(a / b) if abs(a) < 2**52 and abs(b) < 2**52 else _cdiv(a, b)
            if op == "%":
                return None if b == 0 else a - b * _cdiv(a, b)
            if op == "<<":
                return a << b if 0 <= b < 128 else None
            if op == ">>":
                return a >> b if 0 <= b < 128 else None
            return {
                "&": lambda: a & b,
                "|": lambda: a | b,
                "^": lambda: a ^ b,
                "&&": lambda: int(bool(a and b)),
                "||": lambda: int(bool(a or b)),
                "==": lambda: int(a == b),
                "!=": lambda: int(a != b),
                "<": lambda: int(a < b),
                ">": lambda: int(a > b),
                "<=": lambda: int(a <= b),
                ">=": lambda: int(a >= b),
            }.get(op, lambda: None)()
        except (OverflowError, ValueError):
            return None

    def sizeof(self, sub: ParsedFile, n: Node) -> int | None:
        target = n.child_by_field_id(F_TYPE) or n.child_by_field_id(F_VALUE)
        if target is None:
            return None
        text = " ".join(sub.node_text(target).split()).strip("()").strip()
        text = re.sub(r"^(?:const|volatile)\s+", "", text)
        return self.type_size(text, 0)

    def type_size(self, text: str, depth: int) -> int | None:
        if depth > 8:
            return None
        text = base_type_name(text) if "<" in text else " ".join(text.replace("const ", "").split())
        text = text.removeprefix("AscendC::").removeprefix("std::")
        if text.endswith("*"):
            return 8
        if text in TYPE_SIZES:
            return TYPE_SIZES[text]
        if text in self.types:
            return self.type_size(self.types[text], depth + 1)
        aliases = type_aliases(self.pf)
        if text in aliases:
            return self.type_size(aliases[text], depth + 1)
        m = macros(self.pf).get(text)
        if m is not None and m.params is None and m.body:
            return self.type_size(m.body, depth + 1)
        return None

    def call(self, sub: ParsedFile, n: Node, at: Node | None) -> int | None:
        fn = n.child_by_field_id(F_FUNCTION)
        args_node = n.child_by_field_id(F_ARGUMENTS)
        if fn is None or args_node is None:
            return None
        callee = strip_templates(sub.node_text(fn)).replace(" ", "")
        args = [c for c in args_node.named_children if c.type != "comment"]
        if callee in ("static_cast", "reinterpret_cast", "const_cast") and len(args) == 1:
            v = self.node(sub, args[0], at)
            targs = _template_arg_texts(sub, fn)
            return None if v is None else _wrap(v, targs[0] if targs else "")
        if callee in _INT_WIDTH and len(args) == 1:  # functional cast: uint32_t(x)
            v = self.node(sub, args[0], at)
            return None if v is None else _wrap(v, callee)
        short = callee.rsplit("::", 1)[-1]
        if (
            short in ("min", "max", "Min", "Max")
            and len(args) == 2
            and callee
            in (
                "std::min",
                "std::max",
                "min",
                "max",
                "AscendC::Std::min",
                "AscendC::Std::max",
                "Min",
                "Max",
            )
        ):
            vals = [self.node(sub, a, at) for a in args]
            if None in vals:
                return None
            ints = [v for v in vals if v is not None]
            return min(ints) if short.lower() == "min" else max(ints)
        return None

    def name(self, name: str, at: Node | None) -> int | None:
        if name in self.env:
            return int(self.env[name])
        key = (name, at.start_byte if at is not None else -1)
        if key in self.active:
            return None
        self.active.add(key)
        try:
            return self._name(name, at)
        finally:
            self.active.discard(key)

    def _name(self, name: str, at: Node | None) -> int | None:
        pf = self.pf
        d = lookup(pf, name, at) if at is not None else None
        if d is None:
            cands = _declarations_by_name(pf).get(name, [])
            consts = [c for c in cands if (c.is_const or c.is_constexpr) and c.init is not None]
            d = (
                consts[0]
                if len(consts) == 1 or len({pf.node_text(c.init) for c in consts if c.init}) == 1
                else None
            )
            if d is None and consts:
                return None
        if d is not None and d.kind in ("global", "field"):
            # the same constant defined twice with different values (branches of an #if): unknown
            same = [
                c for c in _declarations_by_name(pf).get(name, []) if c.kind == d.kind and c.owner == d.owner
            ]
            if len({pf.node_text(c.init) if c.init is not None else "" for c in same}) > 1:
                return None
        if d is not None:
            if (d.is_const or d.is_constexpr) and d.init is not None and not d.is_pointer:
                init = d.init
                if init.type in ("initializer_list", "argument_list"):
                    inner = [c for c in init.named_children if c.type != "comment"]
                    if len(inner) != 1:
                        return None
                    init = inner[0]
                # a constant's value depends on nothing but its declaration when no names or types are bound, so
                # it is worked out once per file; a hit still spends the steps the evaluation took (the budget
                # then runs out exactly where it would have), and an unknown value is never remembered (it may
                # come from the budget or from a cycle through a name being evaluated further up)
                memo = self.values if not self.env and not self.types else None
                if memo is not None:
                    hit = memo.get(id(d))
                    if hit is not None:
                        self.steps += hit[1]
                        return None if self.steps > _EVAL_STEPS else hit[0]
                before = self.steps
                v = self.node(pf, init, d.name_node)
                value = None if v is None else _wrap(v, d.type_name)
                if memo is not None and value is not None:
                    memo[id(d)] = (value, self.steps - before)
                return value
            return None
        enum = enumerators(pf).get(name)
        if enum is not None:
            return self.enumerator(enum)
        m = macros(pf).get(name)
        if m is not None and m.params is None and m.body and not m.ambiguous:
            sub, node = _expression_node(m.body)
            return self.node(sub, node, None) if sub is not pf else None
        return None

    def enumerator(self, e: Node) -> int | None:
        pf = self.pf
        value = e.child_by_field_id(F_VALUE)
        if value is not None:
            return self.node(pf, value, e)
        prev = e.prev_named_sibling
        while prev is not None and prev.type != "enumerator":
            prev = prev.prev_named_sibling
        if prev is None:
            return 0
        v = self.enumerator(prev)
        return None if v is None else v + 1


def _cdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def const_eval(
    expr: Node | str,
    pf: ParsedFile,
    at: Node | None = None,
    env: Mapping[str, int] | None = None,
    types: Mapping[str, str] | None = None,
) -> int | None:
    """The value of an integer constant expression, or None when it is not known.

    Understands integer literals (hex, octal, binary, digit separators, ``u``/``l`` suffixes), ``true``/``false``,
    ``constexpr``/``const``/``static const`` variables, fields and enumerators of the file, object-like ``#define``s
    whose body is such an expression, ``sizeof`` of the builtin and Ascend types (and of aliases, or of names
    bound in `types`, e.g. ``{"T": "half"}``), ``+ - * / % << >> & | ^ ~ ! && || == != < > <= >=`` with C's
    integer division, parentheses, C and ``static_cast`` casts (wrapping to the target width), ``?:`` and
    ``std::min``/``std::max``. `expr` is a node of `pf` or a text; `at` is where names are looked up (by default
    the node itself); `env` binds names to values first. Never raises.
    """
    try:
        ev = _Eval(pf, env or {}, types or {})
        if isinstance(expr, str):
            sub, node = _expression_node(expr)
            if node is None:
                return None
            # a text: its nodes give the structure; its names are looked up in `pf` at `at`
            return ev.node(sub, node, at)
        return ev.node(pf, expr, at if at is not None else expr)
    except Exception:  # a constant we cannot compute is unknown, never an error
        return None
