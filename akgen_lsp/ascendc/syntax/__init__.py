"""The syntax layer: tree-sitter-cpp over AscendC device code, and the model of one file built on it.

Parsing. Device keywords (``__aicore__``, ``__global__``, ``__gm__``, ``__mix__(1, 2)``, ``[aicore]``, ...),
``<<<...>>>`` launch configurations and the constructs tree-sitter-cpp cannot read (preprocessor conditionals that
split an ``if``/``else`` chain, ``ASSERT(...)`` without a semicolon, ``x.template F(a)``, tiling-data macros, ...; see
`mask_device_code`) are rewritten in place before parsing: characters are replaced, never inserted or deleted, and
newlines are kept, so every byte offset in the tree is an offset in the user's text. `ParsedFile` converts tree
positions to 1-based character `Span`s; `pf.text` is the user's text, `pf.masked` what the tree was built from,
`pf.code` the user's text with comments and literals blanked.

The model (each memoized per `ParsedFile` in ``pf.memo``; one tree-sitter query collects the nodes):
- `declarations(pf)`: variables, fields and parameters (`Declaration`: type text, type name, template arguments,
  kind, scope, initializer); `lookup(pf, name, at)` finds the one visible at a node.
- `functions(pf)` (`Function`), `kernel_entries(pf)`, `function_at(pf, node)`; `classes(pf)` (`ClassInfo` with
  fields and methods), `class_named`, `class_at`, `ascendc_fields` (pipes, queues, buffers, tensors of a class).
- `calls(pf, catalog)`: every named call (`Call`) with its callee text, qualifier, receiver, the receiver's
  Ascend C class, and the catalog name it resolves to; `expr_type` types an expression the same way.
- `qualified_refs(pf)`: every ``A::B::C`` name with its role (call, template, type, value).
- `user_defined_names(pf)`, `macros(pf)`, `type_aliases(pf)`, `enumerators(pf)`, `foreign_names_possible(pf)`.
- `const_eval(expr, pf, at, env, types)`: integer constant expressions; None when unknown, never raises.
"""

from __future__ import annotations

import bisect
import itertools
import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import tree_sitter_cpp
from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

from akgen_lsp.findings import Span

if TYPE_CHECKING:
    from akgen_lsp.ascendc.catalog import Catalog

CPP = Language(tree_sitter_cpp.language())

# field ids of the grammar: `child_by_field_id` is several times cheaper than `child_by_field_name`
F_ALTERNATIVE: int = CPP.field_id_for_name("alternative")  # type: ignore[assignment]
F_ARGUMENT: int = CPP.field_id_for_name("argument")  # type: ignore[assignment]
F_ARGUMENTS: int = CPP.field_id_for_name("arguments")  # type: ignore[assignment]
F_BODY: int = CPP.field_id_for_name("body")  # type: ignore[assignment]
F_CONDITION: int = CPP.field_id_for_name("condition")  # type: ignore[assignment]
F_CONSEQUENCE: int = CPP.field_id_for_name("consequence")  # type: ignore[assignment]
F_DECLARATOR: int = CPP.field_id_for_name("declarator")  # type: ignore[assignment]
F_DEFAULT_VALUE: int = CPP.field_id_for_name("default_value")  # type: ignore[assignment]
F_FIELD: int = CPP.field_id_for_name("field")  # type: ignore[assignment]
F_FUNCTION: int = CPP.field_id_for_name("function")  # type: ignore[assignment]
F_LEFT: int = CPP.field_id_for_name("left")  # type: ignore[assignment]
F_NAME: int = CPP.field_id_for_name("name")  # type: ignore[assignment]
F_OPERATOR: int = CPP.field_id_for_name("operator")  # type: ignore[assignment]
F_PARAMETERS: int = CPP.field_id_for_name("parameters")  # type: ignore[assignment]
F_PLACEMENT: int = CPP.field_id_for_name("placement")  # type: ignore[assignment]
F_RIGHT: int = CPP.field_id_for_name("right")  # type: ignore[assignment]
F_SCOPE: int = CPP.field_id_for_name("scope")  # type: ignore[assignment]
F_SIZE: int = CPP.field_id_for_name("size")  # type: ignore[assignment]
F_TYPE: int = CPP.field_id_for_name("type")  # type: ignore[assignment]
F_VALUE: int = CPP.field_id_for_name("value")  # type: ignore[assignment]

# ------------------------------------------------------------------------------------------------- masking
#
# Every transformation below replaces characters in place (mostly by spaces; newlines are always kept), so a byte
# offset in the tree is the same offset in the user's text. The masked text is what the tree was built from;
# `ParsedFile.text` stays the user's text.

DEVICE_KEYWORDS = (
    "__global__", "__aicore__", "__gm__", "__ubuf__", "__cbuf__", "__ca__", "__cb__", "__cc__", "__fbuf__",
    "__vector__", "__cube__", "__inline__", "__forceinline__", "__simt_vf__", "__simd_vf__", "__host__",
    "__device__", "__sync_alias__", "__sync_noalias__", "__in_pipe__", "__out_pipe__", "__check_sync_alias__",
    "__ssbuf__", "__attribute_aicore__", "__kfc_workspace__", "__biasbuf__", "__aicpu__", "__simd_callee__",
    "__simt_callee__", "__smem__", "__workgroup__",
)

_KEYWORD_RE = re.compile(
    r"__(?:" + "|".join(re.escape(k[2:-2]) for k in DEVICE_KEYWORDS) + r")__(?!\w)"
    r"|__(?:mix|launch_bounds)__\s*\([^()]*\)"
)
_AICORE_ATTR_RE = re.compile(r"\[\s*(?:aicore\s*\]|\[\s*(?:aicore|vector|cube)\s*\]\s*\])")
_LAUNCH_RE = re.compile(r"<<<[^;{}]*?>>>")
# comments, string and character literals: blanked in the "code view" that the scanners below search
_NOISE_RE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_DIRECTIVE_RE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b", re.M)
_TEMPLATE_MEMBER_RE = re.compile(r"(?:\.|->)\s*(template)\s+[A-Za-z_]\w*\s*(?=\()")
_MEMBER_CALL_OP_RE = re.compile(
    r"(?:\.|->)\s*(?:template\s+)?operator\s*\(\s*\)\s*(?:<(?:[^<>;(){}]|<[^<>;(){}]*>)*>)?\s*(?=\()"
)
_PTR_TO_MEMBER_RE = re.compile(r"(?:\.|->)(\*)\s*[A-Za-z_(]")
_ASSERT_RE = re.compile(r"ASSERT\s*\(")
_IF_MACRO_RE = re.compile(r"if([ \t]+)(ASCE?N?D?_IS_(?:NOT_)?AI[CV])([ \t]+)\{")
_IF_MACRO_TIGHT_RE = re.compile(r"if[ \t]+ASCE?N?D?_IS_(?:NOT_)?AI[CV](?=\s*\{)")
_TILING_RE = re.compile(
    r"(BEGIN_TILING_DATA_DEF|TILING_DATA_FIELD_DEF(?:_STRUCT|_ARR)?|REGISTER_TILING_DATA_CLASS)\s*\("
    r"|END_TILING_DATA_DEF(?!\w)"
)
_OPERATOR_SPEC_RE = re.compile(r"operator\s*\(\s*\)\s*(<(?:[^<>;(){}]|<[^<>;(){}]*>)*>)\s*(?=\()")
_CAPS_CALL_RE = re.compile(r"[A-Z][A-Z0-9_]{2,}\s*\(")
# the same pattern read backwards: it starts with a literal, so on the reversed text the engine skips ahead fast
_CAPS_CALL_REVERSED_RE = re.compile(r"\(\s*[A-Z0-9_]{2,}[A-Z]")
_TEMPLATE_TEMPLATE_RE = re.compile(r"template\s*<[^<>;{}]*>\s*(typename)\b")
_OBJECT_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]*([^\n]*)$", re.M)
# cheap necessary conditions (each starts with a literal, so the regex engine skips ahead fast) tried before the
# patterns above that have to be tried at every position of the file
_DIRECTIVE_HINT_RE = re.compile(r"#[ \t]*(?:if|ifdef|ifndef|elif|else|endif)\b")
_DEFINE_HINT_RE = re.compile(r"#[ \t]*define[ \t]")
_TEMPLATE_MEMBER_HINT_RE = re.compile(r"template\s+[A-Za-z_]\w*\s*\(")
_OPERATOR_CALL_HINT_RE = re.compile(r"operator\s*\(\s*\)")
_ATTRIBUTE_WORDS_RE = re.compile(r"\s|\binline\b|\bstatic\b|__attribute__\s*\(\([^()]*(?:\([^()]*\)[^()]*)*\)\)")
# object-like macros that only stand for device keywords in well-known headers (catlass)
ATTRIBUTE_MACROS = ("CATLASS_DEVICE", "CATLASS_HOST_DEVICE", "CATLASS_GLOBAL", "CATLASS_HOST")
_PRIMITIVE = {"float", "double", "int", "char", "bool", "short", "long", "void", "unsigned", "signed"}


def _blank(match: re.Match[str]) -> str:
    s = match.group(0)
    if "\n" not in s:
        return " " * len(s)
    return "\n".join([" " * len(part) for part in s.split("\n")])


def _blank_range(buf: list[str], start: int, end: int) -> None:
    for i in range(start, end):
        if buf[i] != "\n":
            buf[i] = " "


def code_view(text: str) -> str:
    """`text` with comments, string and character literals blanked (same length), so scanners do not match
    inside them."""
    return _NOISE_RE.sub(_blank, text)


def _match_paren(code: str, i: int) -> int:
    """Index just past the bracket that closes the one at `code[i]`, or -1 (`code` is a code view)."""
    close = {"(": ")", "[": "]", "{": "}"}
    stack = [close[code[i]]]
    j = i + 1
    n = len(code)
    while j < n:
        c = code[j]
        if c in close:
            stack.append(close[c])
        elif c in ")]}":
            if c != stack[-1]:
                return -1
            stack.pop()
            if not stack:
                return j + 1
        elif c == ";" and stack[-1] != ")" and len(stack) == 1:
            return -1
        j += 1
    return -1


def _balanced(code: str) -> bool:
    depth = 0
    for c in code:
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _self_contained(code: str) -> bool:
    """Balanced in brackets and ending a statement or a block (directive lines do not count)."""
    if not _balanced(code):
        return False
    body = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith("#")).rstrip()
    return not body or body[-1] in ";}"


def _directive_end(code: str, start: int) -> int:
    """End (index of the newline or len) of the directive line starting at `start`, following continuations."""
    n = len(code)
    j = start
    while True:
        k = code.find("\n", j)
        if k < 0:
            return n
        if code[k - 1 : k] == "\\" or code[k - 2 : k] == "\\\r":
            j = k + 1
            continue
        return k


def _mask_conditionals(code: str, buf: list[str]) -> None:
    """Blank ``#if/#ifdef/#ifndef/#elif/#else/#endif`` lines; of a group whose branches are not each balanced in
    brackets, keep the first live branch and blank the others; ``#if 0`` branches are blanked."""
    # each group: list of branches; branch = [directive_start, directive_end, kind, cond_text]
    stack: list[list[list[object]]] = []
    groups: list[tuple[list[list[object]], int]] = []  # (branches, end of #endif line)
    for m in _DIRECTIVE_RE.finditer(code):
        kind = m.group(1)
        start = m.start()
        end = _directive_end(code, start)
        cond = code[m.end() : end]
        if kind in ("if", "ifdef", "ifndef"):
            stack.append([[start, end, kind, cond]])
        elif kind in ("elif", "else"):
            if stack:
                stack[-1].append([start, end, kind, cond])
        else:  # endif
            if stack:
                groups.append((stack.pop(), end))
        _blank_range(buf, start, end)
    for branches, group_end in groups:
        live = []
        for idx, (_s, e, kind, cond) in enumerate(branches):
            body_end = branches[idx + 1][0] if idx + 1 < len(branches) else _line_start(code, group_end)
            body = (int(e), int(body_end))
            c = str(cond).strip()
            if kind in ("if", "elif") and re.fullmatch(r"\(?\s*0\s*\)?", c):
                _blank_range(buf, *body)
                continue
            live.append(body)
        if len(live) > 1 and not all(_self_contained(code[a:b]) for a, b in live):
            for a, b in live[1:]:
                _blank_range(buf, a, b)


def _line_start(code: str, i: int) -> int:
    return code.rfind("\n", 0, i) + 1


def _prev_code_char(code: str, i: int) -> str:
    j = i - 1
    while j >= 0 and code[j].isspace():
        j -= 1
    return code[j] if j >= 0 else ""


def _next_code_char(code: str, i: int) -> str:
    n = len(code)
    while i < n and code[i].isspace():
        i += 1
    return code[i] if i < n else ""


def mask_device_code(text: str) -> str:
    """The text tree-sitter parses: same length and same newlines as `text`.

    - device keywords (``__aicore__``, ``__gm__``, ``[aicore]``, ``__mix__(1, 2)``, ``__launch_bounds__(n)``, ...)
      and ``<<<...>>>`` launch configurations become spaces;
    - preprocessor conditional lines become spaces; where the branches of one ``#if`` are not each balanced in
      brackets only the first live branch is kept (``#if 0`` branches are always dropped);
    - ``ASSERT(...)`` (empty in release builds, so often written without a semicolon) becomes spaces;
    - ``x.template F(a)`` (no template arguments) loses ``template``; ``(p->*f)(a)`` loses the ``*``;
    - ``obj.operator()(a)`` and ``obj.template operator()<K>(a)`` become ``obj(a)`` (the same call);
    - ``BEGIN_TILING_DATA_DEF(N)`` / ``TILING_DATA_FIELD_DEF(t, f);`` / ``END_TILING_DATA_DEF;`` read as
      ``struct N{ t f; };`` (see `_mask_tiling_data`);
    - uses of object-like macros that stand only for device keywords (``#define DEV __aicore__ inline``,
      ``CATLASS_DEVICE``) become spaces;
    - ``template <typename U> typename R`` (C++17 template template parameter) reads ``class``;
    - ``if ASCEND_IS_AIC {`` becomes ``if(ASCEND_IS_AIC){``; ``operator()<AIC>(...)`` loses ``<AIC>``;
    - in an ALL_CAPS macro call, an argument that is a builtin type keyword is capitalised (``float`` -> ``Float``)
      so that it parses as a name;
    - an ALL_CAPS macro call used as a statement without a semicolon is blanked.
    """
    return _mask(text, code_view(text))


def _mask(text: str, code: str) -> str:
    """`_mask` with the code view it needs (see `mask_device_code`)."""
    buf = list(text)
    if "#" in code and _DIRECTIVE_HINT_RE.search(code):
        _mask_conditionals(code, buf)
    if "__" in code:
        for m in _KEYWORD_RE.finditer(code):
            if _word_start(code, m.start()):
                _blank_range(buf, m.start(), m.end())
    if "aicore" in code or "[[" in code:
        for m in _AICORE_ATTR_RE.finditer(code):
            _blank_range(buf, m.start(), m.end())
    if "<<<" in code:
        for m in _LAUNCH_RE.finditer(code):
            _blank_range(buf, m.start(), m.end())
    if "#" in code or any(n in code for n in ATTRIBUTE_MACROS):
        _mask_attribute_macros(code, buf)
    if "template" in code:
        for m in _TEMPLATE_TEMPLATE_RE.finditer(code):
            if _word_start(code, m.start()):
                buf[m.start(1) : m.end(1)] = list("class   ")
        if _TEMPLATE_MEMBER_HINT_RE.search(code):
            for m in _TEMPLATE_MEMBER_RE.finditer(code):
                _blank_range(buf, m.start(1), m.end(1))
    if ".*" in code or "->*" in code:
        for m in _PTR_TO_MEMBER_RE.finditer(code):
            _blank_range(buf, m.start(1), m.end(1))
    if "operator" in code and _OPERATOR_CALL_HINT_RE.search(code):
        for m in _MEMBER_CALL_OP_RE.finditer(code):
            _blank_range(buf, m.start(), m.end())
        for m in _OPERATOR_SPEC_RE.finditer(code):
            if _word_start(code, m.start()):
                _blank_range(buf, m.start(1), m.end(1))
    if "_IS_" in code:
        for m in _IF_MACRO_RE.finditer(code):
            if _word_start(code, m.start()):
                buf[m.start(1)] = "("
                buf[m.end(3) - 1] = ")"
        for m in _IF_MACRO_TIGHT_RE.finditer(code):
            if _word_start(code, m.start()) and buf[m.start() + 2] != "(":
                _blank_range(buf, m.start(), m.end())
    if "ASSERT" in code:
        for m in _ASSERT_RE.finditer(code):
            if not _call_start(code, m.start()):
                continue
            if code[_line_start(code, m.start()) :].lstrip().startswith("#"):
                continue
            end = _match_paren(code, m.end() - 1)
            if end > 0:
                _blank_range(buf, m.start(), end)
    if "TILING_DATA_DEF" in code or "TILING_DATA_FIELD" in code or "REGISTER_TILING_DATA" in code:
        _mask_tiling_data(code, buf)
    for m_start, m_end in _caps_calls(code):
        if not _call_start(code, m_start) or code.startswith(_TILING_NAMES, m_start, m_end):
            continue
        line_start = _line_start(code, m_start)
        if code[line_start:m_start].lstrip().startswith("#"):
            continue
        open_at = m_end - 1
        end = _match_paren(code, open_at)
        if end < 0:
            continue
        _capitalise_type_args(code, buf, open_at, end)
        # a statement-level call with nothing after it on its line and no semicolon
        if code[line_start:m_start].strip() or _prev_code_char(code, line_start) not in ("", ";", "{", "}"):
            continue
        eol = code.find("\n", end)
        eol = len(code) if eol < 0 else eol
        if code[end:eol].strip():
            continue
        nxt = _next_code_char(code, end)
        if nxt and nxt in ";{.,:?-+*/%&|^<>=)[":
            continue
        _blank_range(buf, m_start, end)
    return "".join(buf)


def _caps_calls(code: str) -> list[tuple[int, int]]:
    """(start, end) of each match of `_CAPS_CALL_RE` in `code`, in order. Every match ends at its own ``(`` (a
    match holds one), and the leftmost start of the name before that ``(`` is the greedy match of the reversed
    pattern on the reversed text, so both find the same matches; the reversed one is several times faster."""
    n = len(code)
    out = [(n - m.end(), n - m.start()) for m in _CAPS_CALL_REVERSED_RE.finditer(code[::-1])]
    out.reverse()
    return out


def _word_start(code: str, i: int) -> bool:
    return i == 0 or not (code[i - 1].isalnum() or code[i - 1] == "_")


def _call_start(code: str, i: int) -> bool:
    """Whether a name at `i` starts a free call (not a member, not qualified, not the tail of a longer name)."""
    if i == 0:
        return True
    c = code[i - 1]
    return not (c.isalnum() or c in "_.>:")


_TILING_NAMES = ("BEGIN_TILING_DATA_DEF", "TILING_DATA_FIELD_DEF", "END_TILING_DATA_DEF", "REGISTER_TILING_DATA_CLASS")


def _mask_tiling_data(code: str, buf: list[str]) -> None:
    """Host tiling structs as plain C++: ``BEGIN_TILING_DATA_DEF(N)`` -> ``struct N{``, ``TILING_DATA_FIELD_DEF(t, f)``
    -> ``t f`` (``_ARR(t, n, f)`` -> ``t f``), ``END_TILING_DATA_DEF`` -> ``}``; ``REGISTER_TILING_DATA_CLASS(...)``
    is blanked."""
    for m in _TILING_RE.finditer(code):
        if not _call_start(code, m.start()):
            continue
        name = m.group(1)
        if name is None:  # END_TILING_DATA_DEF
            _blank_range(buf, m.start(), m.end())
            buf[m.start()] = "}"
            continue
        open_at = m.end() - 1
        end = _match_paren(code, open_at)
        if end < 0:
            continue
        if name == "REGISTER_TILING_DATA_CLASS":
            _blank_range(buf, m.start(), end)
            continue
        _blank_range(buf, m.start(), open_at + 1)
        buf[end - 1] = " "
        if name == "BEGIN_TILING_DATA_DEF":
            buf[m.start() : m.start() + 6] = list("struct")
            buf[end - 1] = "{"
            continue
        commas = [open_at + 1 + i for i, c in enumerate(code[open_at + 1 : end - 1]) if c == ","]
        if name.endswith("_ARR") and len(commas) == 2:
            _blank_range(buf, commas[0], commas[1] + 1)
        elif len(commas) == 1:
            buf[commas[0]] = " "


def _mask_attribute_macros(code: str, buf: list[str]) -> None:
    """Blank the uses of object-like macros that stand only for device keywords (``#define DEV __aicore__ inline``)."""
    names = set(ATTRIBUTE_MACROS)
    for m in _OBJECT_DEFINE_RE.finditer(code) if _DEFINE_HINT_RE.search(code) else ():
        body = _KEYWORD_RE.sub("", m.group(2))
        if body.strip() and not _ATTRIBUTE_WORDS_RE.sub("", body).strip():
            names.add(m.group(1))
    names = {n for n in names if n in code}
    if not names:
        return
    use = re.compile(r"(?:" + "|".join(re.escape(n) for n in sorted(names)) + r")(?!\w)")
    for m in use.finditer(code):
        if _word_start(code, m.start()) and not code[_line_start(code, m.start()) : m.start()].lstrip().startswith("#"):
            _blank_range(buf, m.start(), m.end())


def _capitalise_type_args(code: str, buf: list[str], open_at: int, end: int) -> None:
    inner = code[open_at + 1 : end - 1]
    if not any(p in inner for p in _PRIMITIVE):
        return
    pos = open_at + 1
    for piece in inner.split(","):
        word = piece.strip()
        if word in _PRIMITIVE:
            k = pos + piece.index(word)
            buf[k] = buf[k].upper()
        pos += len(piece) + 1


_parser = Parser(CPP)


@dataclass
class ParsedFile:
    """One parsed source text. `text` is the user's text; the tree was built from the masked text."""

    path: str
    text: str
    masked: str
    tree: Tree
    data: bytes
    _line_starts: list[int] = field(default_factory=list, repr=False)
    memo: dict[object, object] = field(default_factory=dict, repr=False, compare=False)
    """Per-file results of the helpers below (and of rules, keyed by a name of their own)."""
    _ascii_masked: str | None = field(default=None, repr=False, compare=False)
    """`masked` when it is all ASCII (byte offsets are then character offsets), set by `parse`."""

    @property
    def is_ascii(self) -> bool:
        got = self.memo.get("is_ascii")
        if got is None:
            got = self.memo["is_ascii"] = self.data.isascii()
        return bool(got)

    @property
    def code(self) -> str:
        """The user's text with comments, string and character literals blanked (same length; computed once)."""
        got = self.memo.get("code_view")
        if got is None:
            got = self.memo["code_view"] = code_view(self.text)
        assert isinstance(got, str)
        return got

    @property
    def root(self) -> Node:
        return self.tree.root_node

    def node_text(self, node: Node) -> str:
        masked = self._ascii_masked
        if masked is not None:  # the same characters, without slicing and decoding bytes
            return masked[node.start_byte : node.end_byte]
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def original_text(self, node: Node) -> str:
        """The user's text under `node` (the keywords not blanked)."""
        raw = self.memo.get("original_bytes")
        if raw is None:
            raw = self.memo["original_bytes"] = self.text.encode("utf-8", errors="surrogatepass")
        assert isinstance(raw, bytes)
        return raw[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def _column(self, row: int, byte_col: int) -> int:
        """A tree-sitter (row, byte column) as a 1-based character column."""
        if self.is_ascii:
            return byte_col + 1
        start = self._line_starts[row] if row < len(self._line_starts) else len(self.data)
        prefix = self.data[start : start + byte_col]
        return len(prefix.decode("utf-8", errors="replace")) + 1

    def span(self, node: Node, end: Node | None = None) -> Span:
        last = end if end is not None else node
        (r0, c0), (r1, c1) = node.start_point, last.end_point
        return Span(self.path, r0 + 1, self._column(r0, c0), r1 + 1, self._column(r1, c1))

    def span_of_bytes(self, start_byte: int, end_byte: int) -> Span:
        r0 = bisect.bisect_right(self._line_starts, start_byte) - 1
        r1 = bisect.bisect_right(self._line_starts, end_byte) - 1
        return Span(
            self.path,
            r0 + 1,
            self._column(r0, start_byte - self._line_starts[r0]),
            r1 + 1,
            self._column(r1, end_byte - self._line_starts[r1]),
        )

    def line_text(self, line: int) -> str:
        lines = self.text.splitlines()
        return lines[line - 1] if 1 <= line <= len(lines) else ""


def parse(text: str, path: str = "<memory>", previous: ParsedFile | None = None) -> ParsedFile:
    """Parse `text`. With `previous` (the same document's last parse), tree-sitter re-parses incrementally: the
    changed byte range is found by comparing the two masked texts, the old tree is edited and reused, which gives the
    same tree as a full parse in a fraction of the time (how an editor's re-lint after a keystroke runs)."""
    code = code_view(text)
    masked = _mask(text, code)
    data = masked.encode("utf-8", errors="surrogatepass")
    tree = _parse_bytes(data, previous)
    # line k starts after the k newlines before it: len(line 0) + 1 + ... + len(line k-1) + 1
    starts = [0]
    starts.extend(map(operator.add, itertools.accumulate(map(len, data.split(b"\n")[:-1])), itertools.count(1)))
    pf = ParsedFile(path=path, text=text, masked=masked, tree=tree, data=data, _line_starts=starts,
                    _ascii_masked=masked if data.isascii() else None)
    pf.memo["code_view"] = code
    return pf


def _common_prefix(a: bytes, b: bytes) -> int:
    """Length of the common prefix of `a` and `b` (slice comparisons, halving: memcmp speed, not a Python loop)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """Length of the common suffix of `a` and `b`, at most `limit`."""
    lo, hi = 0, limit
    la, lb = len(a), len(b)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[la - mid : la - lo] == b[lb - mid : lb - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _point(data: bytes, offset: int) -> tuple[int, int]:
    """(row, byte column) of a byte offset."""
    row = data.count(b"\n", 0, offset)
    return row, offset - (data.rfind(b"\n", 0, offset) + 1)


def _parse_bytes(data: bytes, previous: ParsedFile | None) -> Tree:
    if previous is None or previous.data == data:
        return _parser.parse(data)
    old = previous.data
    start = _common_prefix(old, data)
    suffix = _common_suffix(old, data, min(len(old), len(data)) - start)
    old_end, new_end = len(old) - suffix, len(data) - suffix
    tree = previous.tree.copy()  # the previous ParsedFile keeps its own, unedited tree
    tree.edit(start, old_end, new_end, _point(old, start), _point(old, old_end), _point(data, new_end))
    return _parser.parse(data, tree)


def walk(node: Node) -> list[Node]:
    """All nodes under `node` in document order (iterative: deep trees do not hit the recursion limit)."""
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(reversed(n.children))
    return out


def error_nodes(pf: ParsedFile) -> list[Node]:
    return [n for n in walk(pf.root) if n.type == "ERROR" or n.is_missing]


# ================================================================================================ the file's model
#
# Everything below is computed once per `ParsedFile` (memoized in `pf.memo`) from one tree-sitter query, so a rule
# may call these helpers as often as it likes. Nodes are tree-sitter nodes of `pf.tree`; byte offsets are offsets in
# the user's text as well (the masking never moves a character).

_INDEX_QUERY = Query(
    CPP,
    """
    (call_expression) @call
    (declaration) @decl
    (field_declaration) @field
    (parameter_declaration) @param
    (optional_parameter_declaration) @param
    (variadic_parameter_declaration) @param
    (function_definition) @func
    (class_specifier) @class
    (struct_specifier) @class
    (union_specifier) @class
    (enum_specifier) @enum
    (preproc_def) @define
    (preproc_function_def) @define
    (type_definition) @typedef
    (alias_declaration) @alias
    (using_declaration) @using
    (namespace_definition) @namespace
    (template_declaration) @template
    (for_range_loop) @range_for
    (lambda_expression) @lambda
    (qualified_identifier) @qualified
    (type_identifier) @type_name
    (sizeof_expression) @sizeof
    (compound_statement) @scope
    (for_statement) @scope
    (for_range_loop) @scope
    (if_statement) @scope
    (while_statement) @scope
    (switch_statement) @scope
    (catch_clause) @scope
    (lambda_expression) @scope
    (function_definition) @scope
    (field_declaration_list) @scope
    (declaration_list) @scope
    (template_declaration) @scope
    """,
)

_SCOPE_TYPES = frozenset(
    {
        "compound_statement", "for_statement", "for_range_loop", "if_statement", "while_statement",
        "switch_statement", "catch_clause", "lambda_expression", "function_definition", "field_declaration_list",
        "declaration_list", "translation_unit", "template_declaration",
    }
)
_DECLARATOR_WRAPPERS = frozenset(
    {"init_declarator", "pointer_declarator", "reference_declarator", "array_declarator", "parenthesized_declarator",
     "attributed_declarator"}
)
_NAME_TYPES = frozenset({"identifier", "field_identifier", "type_identifier", "namespace_identifier"})


_START_BYTE = operator.attrgetter("start_byte")


def _index(pf: ParsedFile) -> dict[str, list[Node]]:
    """All nodes of the kinds the helpers need, by capture name, in document order (one query over the tree)."""
    got = pf.memo.get("index")
    if got is None:
        caps = QueryCursor(_INDEX_QUERY).captures(pf.root)
        got = {k: sorted(v, key=_START_BYTE) for k, v in caps.items()}
        pf.memo["index"] = got
    return got  # type: ignore[return-value]


def _text(pf: ParsedFile, node: Node | None) -> str:
    return "" if node is None else pf.node_text(node)


def strip_templates(text: str) -> str:
    """``AscendC::TQue<QuePosition::VECIN, 2>`` -> ``AscendC::TQue`` (also nested and ``::`` after ``>``)."""
    if "<" not in text:
        return text
    prev = None
    while prev != text and "<" in text:
        prev = text
        text = _INNER_TEMPLATE_RE.sub("", text)
    return text.replace(">", "") if "<" not in text else text.split("<", 1)[0]


_INNER_TEMPLATE_RE = re.compile(r"<[^<>]*>")


def base_type_name(type_text: str) -> str:
    """The class or type name of a declared type: cv, ``typename``, pointers, references and template arguments
    removed, ``::`` kept: ``const AscendC::LocalTensor<half>&`` -> ``AscendC::LocalTensor``."""
    t = strip_templates(type_text)
    if " " in t:
        t = _TYPE_WORDS_RE.sub(" ", t)
    t = t.replace("&", "").replace("*", "")
    t = "".join(t.split())
    return t.lstrip(":")


_TYPE_WORDS_RE = re.compile(
    r"\b(?:const|constexpr|volatile|static|inline|typename|struct|class|mutable|extern|register)\b"
)


def _template_arg_texts(pf: ParsedFile, node: Node | None) -> tuple[str, ...]:
    """Texts of the arguments of the first template_argument_list in or under `node` (not nested deeper)."""
    if node is None:
        return ()
    node_type = node.type
    if node_type == "template_argument_list":  # the walk below would stop at once
        return _argument_texts(pf, node)
    if node_type == "template_type":  # `TQue<...>`: its name is a leaf, so the walk finds its arguments first
        args = node.child_by_field_id(F_ARGUMENTS)
        if args is not None and args.type == "template_argument_list":
            return _argument_texts(pf, args)
    if not _tree_has_error(pf):
        # every template_argument_list starts with its "<" token (no error recovery made one up), so the first one
        # in document order, the one the walk below finds, is the one at the first "<" if any is there
        at = pf.data.find(b"<", node.start_byte, node.end_byte)
        if at < 0:
            return ()
        first = node.named_descendant_for_byte_range(at, at + 1)
        if first is not None and first.type == "template_argument_list" and first.start_byte == at:
            return _argument_texts(pf, first)
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "template_argument_list":
            return _argument_texts(pf, n)
        stack.extend(reversed(n.named_children))
    return ()


def _argument_texts(pf: ParsedFile, arg_list: Node) -> tuple[str, ...]:
    """The texts of a template_argument_list's arguments, whitespace runs made single spaces."""
    return tuple(" ".join(pf.node_text(c).split()) for c in _named_children_without_comments(pf, arg_list))


def _named_children_without_comments(pf: ParsedFile, node: Node) -> tuple[Node, ...]:
    """The named children of `node` that are not comments (a comment's text starts with "/")."""
    if b"/" not in pf.data[node.start_byte : node.end_byte]:
        return tuple(node.named_children)
    return tuple(c for c in node.named_children if c.type != "comment")


def _tree_has_error(pf: ParsedFile) -> bool:
    got = pf.memo.get("has_error")
    if got is None:
        got = pf.memo["has_error"] = pf.root.has_error
    return bool(got)


@dataclass(eq=False, slots=True)
class Declaration:
    """One declared name: a variable, a class field or a function parameter.

    `type_text` is the declared type as written (masked text, so without ``__gm__``); `type_name` is that type with
    cv-qualifiers, pointers, references and template arguments removed (``AscendC::TQue``, ``TQue``, ``half``,
    ``auto``); `template_args` are the texts of the type's template arguments (``("QuePosition::VECIN",
    "BUFFER_NUM")``). `kind` is ``local``, ``param``, ``field`` or ``global``. `node` is the whole declaration,
    `name_node` the declared identifier; `scope` is the node whose extent the name is visible in (a block, a
    function, a class body, a namespace body or the file) and `owner` the class name for fields. `init` is the
    initializer (or a field's default member initializer), `array_size` the size expression of ``T x[N]``.
    """

    name: str
    type_text: str
    type_name: str
    template_args: tuple[str, ...]
    kind: str
    node: Node
    name_node: Node
    scope: Node
    init: Node | None = None
    is_const: bool = False
    is_constexpr: bool = False
    is_static: bool = False
    is_pointer: bool = False
    is_reference: bool = False
    array_size: Node | None = None
    owner: str | None = None

    @property
    def start(self) -> int:
        return self.name_node.start_byte


@dataclass(frozen=True)
class Function:
    """A function definition. `name` is the last name part (``Init``), `qualified` the name as written in the
    declarator without template arguments (``KernelAdd::Init`` out of class, ``Init`` inside), `class_name` the class
    it belongs to (in-class definition or ``Class::`` qualifier), `is_kernel` whether it is a kernel entry
    (``__global__``, or ``extern "C"`` with ``__aicore__``), `template_params` the names of its template parameters
    (and of its class's, for methods defined in a class template)."""

    name: str
    qualified: str
    node: Node
    name_node: Node
    body: Node | None
    params: tuple[Declaration, ...]
    return_type: str
    class_name: str | None
    is_kernel: bool
    template_params: tuple[str, ...] = ()


@dataclass(frozen=True)
class ClassInfo:
    """A class, struct or union defined in the file (with a body). `fields` are its data members, `methods` the
    functions defined inside it or out of line with its name as qualifier, `method_decls` the names of the methods
    only declared in it, `bases` the base class texts (templates stripped), `template_params` its template
    parameters' names, `node` the class_specifier / struct_specifier."""

    name: str
    kind: str
    node: Node
    name_node: Node | None
    bases: tuple[str, ...]
    fields: tuple[Declaration, ...]
    methods: tuple[Function, ...]
    method_decls: tuple[str, ...]
    template_params: tuple[str, ...] = ()
    _field_index: dict[str, Declaration] = field(default_factory=dict, repr=False, compare=False, hash=False)

    def field(self, name: str) -> Declaration | None:
        index = self._field_index
        if not index and self.fields:
            for f in self.fields:
                index.setdefault(f.name, f)
        return index.get(name)

    def method(self, name: str) -> Function | None:
        return next((m for m in self.methods if m.name == name), None)


def _unwrap_declarator(node: Node | None) -> tuple[Node | None, Node | None, bool, bool, Node | None, bool]:
    """(name node, init value, is_pointer, is_reference, array size, is_function) of a declarator."""
    init = None
    ptr = ref = False
    size = None
    while node is not None and node.type in _DECLARATOR_WRAPPERS:
        if node.type == "init_declarator":
            init = node.child_by_field_id(F_VALUE)
        elif node.type == "pointer_declarator":
            ptr = True
        elif node.type == "reference_declarator":
            ref = True
        elif node.type == "array_declarator":
            size = size or node.child_by_field_id(F_SIZE)
        inner = node.child_by_field_id(F_DECLARATOR)
        if inner is None:  # reference_declarator has no field name
            named = [c for c in node.named_children if c.type not in ("type_qualifier", "comment")]
            inner = named[0] if named else None
        node = inner
    if node is None:
        return None, init, ptr, ref, size, False
    if node.type == "function_declarator":
        return node, init, ptr, ref, size, True
    if node.type in _NAME_TYPES:
        return node, init, ptr, ref, size, False
    if node.type == "qualified_identifier":
        name = node.child_by_field_id(F_NAME)
        while name is not None and name.type == "qualified_identifier":
            name = name.child_by_field_id(F_NAME)
        return name, init, ptr, ref, size, False
    return None, init, ptr, ref, size, False


class _Containers:
    """Properly nested nodes (scopes, class bodies, functions) answering "the innermost one around this range"
    by bisection, without walking parents (a tree-sitter parent lookup costs a walk from the root)."""

    def __init__(self, nodes: list[Node], root: Node) -> None:
        # sorted by (start, -end), stably (the byte offsets read once: each node attribute read costs)
        keyed = sorted(((n.start_byte, -n.end_byte, i) for i, n in enumerate(nodes)), key=_first_two)
        self.nodes = [nodes[k[2]] for k in keyed]
        self.root = root
        starts = self.starts = [k[0] for k in keyed]
        ends = self.ends = [-k[1] for k in keyed]
        self.parent: list[int] = []
        parent = self.parent
        stack: list[int] = []
        for i, (start, end) in enumerate(zip(starts, ends, strict=True)):
            while stack and not (starts[stack[-1]] <= start and end <= ends[stack[-1]]):
                stack.pop()
            parent.append(stack[-1] if stack else -1)
            stack.append(i)

    def around(self, node: Node) -> Node | None:
        """The innermost container around `node` other than `node` itself. The last container starting at or
        before `node` is inside every container around `node`, so the answer is on its chain of parents."""
        start, end = node.start_byte, node.end_byte
        i = bisect.bisect_right(self.starts, start) - 1
        while i >= 0:
            if self.ends[i] >= end and not (self.starts[i] == start and self.ends[i] == end):
                return self.nodes[i]
            i = self.parent[i]
        return None


def _first_two(k: tuple[int, int, int]) -> tuple[int, int]:
    return k[0], k[1]


def _containers(pf: ParsedFile, key: str) -> _Containers:
    got = pf.memo.get(("containers", key))
    if got is None:
        idx = _index(pf)
        if key == "scope":
            nodes = list(idx.get("scope", ()))
        elif key == "class_body":
            nodes = [b for c in idx.get("class", ()) if (b := c.child_by_field_id(F_BODY)) is not None]
        else:  # functions and lambdas
            nodes = list(idx.get("func", ())) + list(idx.get("lambda", ()))
        got = pf.memo[("containers", key)] = _Containers(nodes, pf.root)
    return got  # type: ignore[return-value]


def _class_of_body(pf: ParsedFile) -> dict[int, Node]:
    """Class node by the start byte of its body."""
    got = pf.memo.get("class_of_body")
    if got is None:
        got = {}
        for c in _index(pf).get("class", ()):
            b = c.child_by_field_id(F_BODY)
            if b is not None:
                got[b.start_byte] = c
        pf.memo["class_of_body"] = got
    return got  # type: ignore[return-value]


def _scope_around(pf: ParsedFile, node: Node) -> Node:
    found = _containers(pf, "scope").around(node)
    return found if found is not None else pf.root


def _class_around(pf: ParsedFile, node: Node) -> Node | None:
    """The class whose body is the innermost class body around `node` (with no function in between)."""
    body = _containers(pf, "class_body").around(node)
    if body is None:
        return None
    fn = _containers(pf, "func").around(node)
    if fn is not None and fn.start_byte > body.start_byte:
        return None  # inside a function defined in the class: not directly in the class
    return _class_of_body(pf).get(body.start_byte)


def _qualifiers(pf: ParsedFile, node: Node) -> tuple[bool, bool, bool]:
    const = constexpr = static = False
    data, start, end = pf.data, node.start_byte, node.end_byte
    if data.find(b"const", start, end) < 0 and data.find(b"static", start, end) < 0:
        return const, constexpr, static  # no child can be one of the words below
    for c in node.children:
        if c.type == "type_qualifier":
            t = pf.node_text(c)
            const |= t == "const"
            constexpr |= t in ("constexpr", "consteval", "constinit")
        elif c.type == "storage_class_specifier":
            static |= pf.node_text(c) == "static"
    return const, constexpr, static


def _enclosing_class_name(pf: ParsedFile, node: Node) -> str | None:
    body = _containers(pf, "class_body").around(node)
    if body is None:
        return None
    names = pf.memo.get("class_name_of_body")
    if names is None:
        names = pf.memo["class_name_of_body"] = {}
    assert isinstance(names, dict)
    key = body.start_byte
    if key not in names:
        cls = _class_of_body(pf).get(key)
        name = cls.child_by_field_id(F_NAME) if cls is not None else None
        names[key] = base_type_name(_text(pf, name)) if name is not None else None
    return names[key]  # type: ignore[no-any-return]


def declarations(pf: ParsedFile) -> list[Declaration]:
    """Every variable, field and parameter declared in the file, in document order (memoized)."""
    got = pf.memo.get("declarations")
    if got is not None:
        return got  # type: ignore[return-value]
    idx = _index(pf)
    out: list[Declaration] = []
    data = pf.data
    scopes = _containers(pf, "scope")
    funcs = _containers(pf, "func")
    exact_tokens = not _tree_has_error(pf)
    starts: list[int] = []  # each declaration's name start (`Declaration.start`), to sort by
    body_start: dict[int, int] = {}  # start of each function's body (-1: none) by the function's start
    for cap, kind_default in (("decl", ""), ("field", "field"), ("param", "param")):
        for node in idx.get(cap, ()):
            type_node = node.child_by_field_id(F_TYPE)
            if type_node is None:
                continue
            # the declared names first: a declaration of functions only (a prototype, a method) declares no variable
            named = []
            for d in node.children_by_field_id(F_DECLARATOR):
                name_node, init, ptr, ref, size, is_fn = _unwrap_declarator(d)
                if name_node is not None and not is_fn:
                    named.append((name_node, init, ptr, ref, size))
            if not named:
                continue
            if kind_default == "param":
                # parameters are visible in the function body: scope is the function definition (or lambda)
                owner_fn = funcs.around(node)
                if owner_fn is None:
                    continue
                fn_start = owner_fn.start_byte
                at = body_start.get(fn_start)
                if at is None:
                    owner_body = owner_fn.child_by_field_id(F_BODY)
                    at = body_start[fn_start] = owner_body.start_byte if owner_body is not None else -1
                if at < 0 or node.start_byte >= at:
                    continue  # a parameter of a declaration or function pointer type: not visible anywhere
                scope = owner_fn
                kind = "param"
            else:
                found = scopes.around(node)
                scope = outer = found if found is not None else pf.root
                while outer.type == "template_declaration":
                    found = scopes.around(outer)
                    outer = found if found is not None else pf.root
                if kind_default:
                    kind = kind_default
                elif outer.type in ("translation_unit", "declaration_list"):
                    kind = "global"
                else:
                    kind = "local"
            type_text = " ".join(data[type_node.start_byte : type_node.end_byte].decode("utf-8", errors="replace").split())
            const, constexpr, static = _qualifiers(pf, node)
            owner = _enclosing_class_name(pf, node) if kind == "field" else None
            targs = _template_arg_texts(pf, type_node)
            tname = base_type_name(type_text)
            default_value = node.child_by_field_id(F_DEFAULT_VALUE)
            pointer_type = "*" in type_text
            node_start, node_end = node.start_byte, node.end_byte
            for name_node, init, ptr, ref, size in named:
                if init is None and default_value is not None:
                    init = default_value
                if kind == "field" and init is None and (not exact_tokens or data.find(b"{", node_start, node_end) >= 0):
                    # (an initializer_list starts with "{")
                    init = next((c for c in node.named_children if c.type == "initializer_list"), None)
                starts.append(name_node.start_byte)
                out.append(
                    Declaration(
                        data[name_node.start_byte : name_node.end_byte].decode("utf-8", errors="replace"),
                        type_text, tname, targs, kind, node, name_node, scope, init, const or constexpr, constexpr,
                        static, ptr or pointer_type, ref, size, owner,
                    )
                )
    # range-for loop variables: `for (auto& x : xs)`
    for node in idx.get("range_for", ()):
        type_node = node.child_by_field_id(F_TYPE)
        name_node, _init, ptr, ref, size, _fn = _unwrap_declarator(node.child_by_field_id(F_DECLARATOR))
        if type_node is None or name_node is None:
            continue
        type_text = " ".join(_text(pf, type_node).split())
        starts.append(name_node.start_byte)
        out.append(
            Declaration(pf.node_text(name_node), type_text, base_type_name(type_text), _template_arg_texts(pf, type_node),
                        "local", node, name_node, node, None, is_pointer=ptr, is_reference=ref)
        )
    # by `Declaration.start`, stably, without reading the offsets back from the nodes
    out = [out[i] for i in sorted(range(len(out)), key=starts.__getitem__)]
    pf.memo["declarations"] = out
    return out


def _declarations_by_name(pf: ParsedFile) -> dict[str, list[Declaration]]:
    got = pf.memo.get("declarations_by_name")
    if got is None:
        got = {}
        for d in declarations(pf):
            got.setdefault(d.name, []).append(d)
        pf.memo["declarations_by_name"] = got
    return got  # type: ignore[return-value]


def _starts_by_name(pf: ParsedFile, name: str) -> list[int]:
    table = pf.memo.get("decl_starts")
    if table is None:
        table = pf.memo["decl_starts"] = {}
    assert isinstance(table, dict)
    got = table.get(name)
    if got is None:
        got = table[name] = [d.start for d in _declarations_by_name(pf).get(name, ())]
    return got  # type: ignore[no-any-return]


def _function_name_parts(pf: ParsedFile, fdecl: Node) -> tuple[str, str, Node | None, str | None]:
    """(name, qualified, name node, class qualifier) of a function_declarator."""
    d = fdecl.child_by_field_id(F_DECLARATOR)
    if d is None:
        return "", "", None, None
    qualified = " ".join(strip_templates(pf.node_text(d)).split())
    scope = None
    name_node: Node | None = d
    while name_node is not None and name_node.type == "qualified_identifier":
        name_node = name_node.child_by_field_id(F_NAME)
    if name_node is not None and name_node.type == "template_function":
        name_node = name_node.child_by_field_id(F_NAME)
    if "::" in qualified:
        scope = qualified.rsplit("::", 1)[0]
    name = qualified.rsplit("::", 1)[-1].replace(" ", "")
    return name, qualified.replace(" ", ""), name_node, scope


def _template_params(pf: ParsedFile, node: Node) -> tuple[str, ...]:
    """Names of the template parameters of the template_declaration directly around `node` (if any)."""
    p = node.parent
    if p is None or p.type != "template_declaration":
        return ()
    return _params_of_template(pf, p)


def _params_of_template(pf: ParsedFile, p: Node) -> tuple[str, ...]:
    """Names of the template parameters of the template_declaration `p`."""
    plist = p.child_by_field_id(F_PARAMETERS)
    names: list[str] = []
    for c in plist.named_children if plist is not None else ():
        nm = c.child_by_field_id(F_NAME) or c.child_by_field_id(F_DECLARATOR)
        if nm is None:
            ids = [x for x in c.named_children if x.type in ("type_identifier", "identifier")]
            nm = ids[-1] if ids else None
        if nm is not None:
            names.append(pf.node_text(nm).lstrip("."))
    return tuple(names)


def _head_is_kernel(pf: ParsedFile, node: Node, body: Node | None, parent: Node | None) -> bool:
    """Whether the user's text of a function's head (from the end of what precedes it, so that blanked keywords
    before the return type count) marks a kernel entry. `parent` is ``node.parent`` (slow to ask twice)."""
    prev = node.prev_sibling
    start = prev.end_byte if prev is not None else (parent.start_byte if parent is not None else 0)
    end = body.start_byte if body is not None else node.end_byte
    raw = pf.memo.get("original_bytes")
    if raw is None:
        raw = pf.memo["original_bytes"] = pf.text.encode("utf-8", errors="surrogatepass")
    assert isinstance(raw, bytes)
    head = raw[start:end].decode("utf-8", errors="replace")
    if "__global__" in head and re.search(r"\b__global__\b", head):
        return True
    p = parent
    while p is not None and p.type == "declaration_list":
        p = p.parent
    extern_c = (p is not None and p.type == "linkage_specification") or head.lstrip().startswith("extern")
    return extern_c and ("__aicore__" in head or "[aicore]" in head)


def functions(pf: ParsedFile) -> list[Function]:
    """Every function definition in the file, in document order (memoized)."""
    got = pf.memo.get("functions")
    if got is not None:
        return got  # type: ignore[return-value]
    out: list[Function] = []
    class_tparams: dict[int, tuple[str, ...]] = {}  # template parameters of each class around a method
    params_by_fn: dict[tuple[int, int], list[Declaration]] = {}
    for d in declarations(pf):
        if d.kind == "param" and d.scope.type == "function_definition":
            params_by_fn.setdefault((d.scope.start_byte, d.scope.end_byte), []).append(d)
    for node in _index(pf).get("func", ()):
        fdecl = node.child_by_field_id(F_DECLARATOR)
        while fdecl is not None and fdecl.type != "function_declarator":
            inner = fdecl.child_by_field_id(F_DECLARATOR)
            if inner is None:
                named = [c for c in fdecl.named_children if c.type not in ("type_qualifier", "comment")]
                inner = named[0] if named else None
            fdecl = inner
        if fdecl is None:
            continue
        name, qualified, name_node, scope = _function_name_parts(pf, fdecl)
        if not name or name_node is None:
            continue
        cls_node = _class_around(pf, node)
        name_of_cls = cls_node.child_by_field_id(F_NAME) if cls_node is not None else None
        in_class = base_type_name(_text(pf, name_of_cls)) if name_of_cls is not None else None
        class_name = in_class or scope
        body = node.child_by_field_id(F_BODY)
        parent = node.parent
        tparams = _params_of_template(pf, parent) if parent is not None and parent.type == "template_declaration" else ()
        if cls_node is not None:
            key = cls_node.start_byte
            if key not in class_tparams:
                class_tparams[key] = _template_params(pf, cls_node)
            tparams = tparams + class_tparams[key]
        out.append(
            Function(
                name=name,
                qualified=qualified,
                node=node,
                name_node=name_node,
                body=body,
                params=tuple(params_by_fn.get((node.start_byte, node.end_byte), ())),
                return_type=" ".join(_text(pf, node.child_by_field_id(F_TYPE)).split()),
                class_name=class_name,
                is_kernel=_head_is_kernel(pf, node, body, parent),
                template_params=tparams,
            )
        )
    pf.memo["functions"] = out
    return out


def _functions_by_name(pf: ParsedFile) -> dict[str, Function]:
    got = pf.memo.get("functions_by_name")
    if got is None:
        got = {}
        for f in functions(pf):
            if f.return_type:
                got.setdefault(f.name, f)
        pf.memo["functions_by_name"] = got
    return got  # type: ignore[return-value]


def kernel_entries(pf: ParsedFile) -> list[Function]:
    """The kernel entry functions (``extern "C" __global__ __aicore__ void name(...)``)."""
    return [f for f in functions(pf) if f.is_kernel]


def function_at(pf: ParsedFile, node: Node) -> Function | None:
    """The innermost function definition containing `node`."""
    return _function_at(pf, node.start_byte, node.end_byte)


def _function_at(pf: ParsedFile, start: int, end: int) -> Function | None:
    """`function_at` for the byte range [start, end)."""
    bounds = pf.memo.get("function_bounds")
    if bounds is None:
        fns = functions(pf)
        bounds = pf.memo["function_bounds"] = (fns, [f.node.start_byte for f in fns], [f.node.end_byte for f in fns])
    fns, starts, ends = bounds  # type: ignore[misc]
    i = bisect.bisect_right(starts, start) - 1
    for _ in range(8):  # definitions nest only through local classes: a few steps back are enough
        if i < 0:
            break
        if starts[i] <= start and end <= ends[i]:
            return fns[i]  # type: ignore[no-any-return]
        i -= 1
    return None


def classes(pf: ParsedFile) -> list[ClassInfo]:
    """Every class, struct and union with a body, in document order (memoized)."""
    got = pf.memo.get("classes")
    if got is not None:
        return got  # type: ignore[return-value]
    fields_by_owner: dict[tuple[int, int], list[Declaration]] = {}
    for d in declarations(pf):
        if d.kind == "field":
            body = _containers(pf, "class_body").around(d.node)
            if body is not None:
                fields_by_owner.setdefault((body.start_byte, body.end_byte), []).append(d)
    methods_by_class: dict[str, list[Function]] = {}
    for f in functions(pf):
        if f.class_name:
            methods_by_class.setdefault(f.class_name.rsplit("::", 1)[-1], []).append(f)
    out: list[ClassInfo] = []
    for node in _index(pf).get("class", ()):
        body = node.child_by_field_id(F_BODY)
        if body is None:
            continue
        name_node = node.child_by_field_id(F_NAME)
        name = base_type_name(_text(pf, name_node)) if name_node is not None else ""
        bases: list[str] = []
        for c in node.named_children:
            if c.type == "base_class_clause":
                for b in c.named_children:
                    if b.type not in ("access_specifier", "comment"):
                        t = base_type_name(pf.node_text(b))
                        if t and t not in ("public", "private", "protected", "virtual"):
                            bases.append(t)
        method_decls = []
        for c in body.named_children:
            if c.type == "field_declaration":
                for d in c.children_by_field_id(F_DECLARATOR):
                    nm, _i, _p, _r, _s, is_fn = _unwrap_declarator(d)
                    if is_fn and nm is not None:
                        fn_name, _q, _n, _sc = _function_name_parts(pf, nm)
                        if fn_name:
                            method_decls.append(fn_name)
        short = name.rsplit("::", 1)[-1]
        out.append(
            ClassInfo(
                name=name,
                kind=node.type.split("_")[0],
                node=node,
                name_node=name_node,
                bases=tuple(bases),
                fields=tuple(fields_by_owner.get((body.start_byte, body.end_byte), ())),
                methods=tuple(
                    m for m in methods_by_class.get(short, ()) if node.start_byte <= m.node.start_byte < node.end_byte
                    or (not (node.start_byte <= m.node.start_byte < node.end_byte) and m.qualified.count("::") >= 1)
                ),
                method_decls=tuple(method_decls),
                template_params=_template_params(pf, node),
            )
        )
    pf.memo["classes"] = out
    return out


def class_named(pf: ParsedFile, name: str) -> ClassInfo | None:
    """The class of the file with this name (last name part compared; the first definition wins)."""
    asked = pf.memo.get("class_named")
    if asked is None:
        asked = pf.memo["class_named"] = {}
    assert isinstance(asked, dict)
    if name in asked:
        return asked[name]  # type: ignore[no-any-return]
    table = pf.memo.get("classes_by_name")
    if table is None:
        table = {}
        for c in classes(pf):
            table.setdefault(c.name.rsplit("::", 1)[-1], c)
        pf.memo["classes_by_name"] = table
    assert isinstance(table, dict)
    got = asked[name] = table.get(base_type_name(name).rsplit("::", 1)[-1])
    return got


def class_at(pf: ParsedFile, node: Node) -> ClassInfo | None:
    """The class whose body or one of whose methods contains `node`."""
    return _class_at(pf, node, function_at(pf, node))


def _class_at(pf: ParsedFile, node: Node, fn: Function | None) -> ClassInfo | None:
    """`class_at` when the function around `node` is known already."""
    if fn is not None and fn.class_name:
        return class_named(pf, fn.class_name)
    name = _enclosing_class_name(pf, node)
    return class_named(pf, name) if name else None


_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\()?", re.M)


@dataclass(frozen=True)
class Macro:
    """A ``#define``: `params` is None for an object-like macro; `ambiguous` when the file defines the name more
    than once with different bodies (in branches of an ``#if``), so its value is not known."""

    name: str
    params: tuple[str, ...] | None  # None: object-like
    body: str
    node: Node | None
    ambiguous: bool = False


def macros(pf: ParsedFile) -> dict[str, Macro]:
    """``#define``s of the file by name (the last definition wins), from the tree and, for defines the tree lost
    (inside blanked conditional branches), from the text."""
    got = pf.memo.get("macros")
    if got is not None:
        return got  # type: ignore[return-value]
    out: dict[str, Macro] = {}
    for node in _index(pf).get("define", ()):
        name_node = node.child_by_field_id(F_NAME)
        if name_node is None:
            continue
        params_node = node.child_by_field_id(F_PARAMETERS)
        params = (
            tuple(pf.node_text(c) for c in params_node.named_children) if params_node is not None else None
        )
        value = node.child_by_field_id(F_VALUE)
        body = " ".join(_text(pf, value).replace("\\\n", " ").split())
        name = pf.node_text(name_node)
        prev = out.get(name)
        ambiguous = prev is not None and (prev.ambiguous or prev.body != body or prev.params != params)
        out[name] = Macro(name, params, body, node, ambiguous)
    for m in _DEFINE_RE.finditer(pf.text):
        if m.group(1) not in out:
            out[m.group(1)] = Macro(m.group(1), () if m.group(2) else None, "", None)
    pf.memo["macros"] = out
    return out



def undefined_macro_uses(pf: ParsedFile, pattern: re.Pattern[str]) -> list[tuple[str, Span]]:
    """Uses of names matching `pattern` (group 1 if it has one, else the whole match) in code (comments and strings
    blanked) that the file does not ``#define`` itself, outside preprocessor lines: macros a build must provide."""
    defined = macros(pf)
    code = pf.code
    out: list[tuple[str, Span]] = []
    for m in pattern.finditer(code):
        group = 1 if pattern.groups else 0
        name, start = m.group(group), m.start(group)
        line_start = code.rfind("\n", 0, start) + 1
        if name in defined or code[line_start:start].lstrip().startswith("#"):
            continue
        line = code.count("\n", 0, start) + 1
        col = start - line_start + 1
        out.append((name, Span(pf.path, line, col, line, col + len(name))))
    return out

def type_aliases(pf: ParsedFile) -> dict[str, str]:
    """``using A = B;`` and ``typedef B A;`` of the file: alias -> aliased type text."""
    got = pf.memo.get("aliases")
    if got is not None:
        return got  # type: ignore[return-value]
    out: dict[str, str] = {}
    idx = _index(pf)
    for node in idx.get("alias", ()):
        name = node.child_by_field_id(F_NAME)
        typ = node.child_by_field_id(F_TYPE)
        if name is not None and typ is not None:
            out[pf.node_text(name)] = " ".join(pf.node_text(typ).split())
    for node in idx.get("typedef", ()):
        typ = node.child_by_field_id(F_TYPE)
        for d in node.children_by_field_id(F_DECLARATOR):
            nm, *_rest = _unwrap_declarator(d)
            if nm is not None and typ is not None:
                out[pf.node_text(nm)] = " ".join(pf.node_text(typ).split())
    pf.memo["aliases"] = out
    return out


def user_defined_names(pf: ParsedFile) -> frozenset[str]:
    """Names the file defines itself: functions (also declared-only), classes, structs, unions, enums and their
    enumerators, macros, typedefs and aliases, namespaces, template parameters, variables at namespace scope,
    and tiling structs (``BEGIN_TILING_DATA_DEF``)."""
    got = pf.memo.get("user_names")
    if got is not None:
        return got  # type: ignore[return-value]
    names: set[str] = set()
    idx = _index(pf)
    names.update(f.name for f in functions(pf))
    names.update(c.name.rsplit("::", 1)[-1] for c in classes(pf) if c.name)
    for c in classes(pf):
        names.update(c.method_decls)
        names.update(c.template_params)
    for f in functions(pf):
        names.update(f.template_params)
    for node in idx.get("class", []) + idx.get("enum", []):
        nm = node.child_by_field_id(F_NAME)
        if nm is not None:
            names.add(base_type_name(pf.node_text(nm)).rsplit("::", 1)[-1])
    for node in idx.get("enum", ()):
        body = node.child_by_field_id(F_BODY)
        for e in body.named_children if body is not None else ():
            nm = e.child_by_field_id(F_NAME)
            if nm is not None:
                names.add(pf.node_text(nm))
    names.update(macros(pf))
    names.update(type_aliases(pf))
    for node in idx.get("namespace", ()):
        nm = node.child_by_field_id(F_NAME)
        if nm is not None:
            names.update(pf.node_text(nm).split("::"))
    for node in idx.get("template", ()):
        # the parameters of the template around its second named child: the template's own
        names.update(_params_of_template(pf, node) if node.named_child_count > 1 else ())
    for d in declarations(pf):
        if d.kind == "global":
            names.add(d.name)
    # functions that are only declared (prototypes) at namespace or class scope
    exact_tokens = not _tree_has_error(pf)
    for node in idx.get("decl", []) + idx.get("field", []):
        if exact_tokens and b"(" not in pf.data[node.start_byte : node.end_byte]:
            continue  # no parameter list, so no function declarator
        for d in node.children_by_field_id(F_DECLARATOR):
            nm, _i, _p, _r, _s, is_fn = _unwrap_declarator(d)
            if is_fn and nm is not None:
                fn_name, _q, _n, _sc = _function_name_parts(pf, nm)
                if fn_name:
                    names.add(fn_name)
    result = frozenset(names)
    pf.memo["user_names"] = result
    return result


# ------------------------------------------------------------------------------------------------ lookup


def lookup(pf: ParsedFile, name: str, at: Node | None = None) -> Declaration | None:
    """The declaration of `name` visible at `at`: the innermost local or parameter declared before it, then a field
    of the enclosing class (or its bases in the file), then a namespace-scope variable. Without `at`, the first
    namespace-scope or field declaration of that name."""
    cands = _declarations_by_name(pf).get(name)
    if not cands:
        return None
    if at is None:
        for kinds in (("global",), ("field",), ("local", "param")):
            hit = next((d for d in cands if d.kind in kinds), None)
            if hit is not None:
                return hit
        return None
    pos = at.start_byte
    fn = function_at(pf, at)
    if fn is not None:
        # the innermost visible local: scanning back from `at`, the first declaration whose scope holds `at`
        starts = _starts_by_name(pf, name)
        i = bisect.bisect_right(starts, pos) - 1
        fn_start = fn.node.start_byte
        while i >= 0 and starts[i] >= fn_start:
            d = cands[i]
            if d.kind in ("local", "param") and d.scope.start_byte <= pos < d.scope.end_byte:
                return d
            i -= 1
    return _field_or_global(pf, name, _class_at(pf, at, fn), cands)


def _field_or_global(pf: ParsedFile, name: str, cls: ClassInfo | None, cands: list[Declaration]) -> Declaration | None:
    """A field `name` of `cls` or of its bases in the file, else the first namespace-scope variable (remembered per
    name and class: the class objects live as long as `pf`)."""
    table = pf.memo.get("field_or_global")
    if table is None:
        table = pf.memo["field_or_global"] = {}
    assert isinstance(table, dict)
    key = (name, id(cls))
    if key in table:
        return table[key]  # type: ignore[no-any-return]
    got = None
    seen: set[str] = set()
    while cls is not None and cls.name not in seen:
        seen.add(cls.name)
        got = cls.field(name)
        if got is not None:
            break
        cls = next((class_named(pf, b) for b in cls.bases if class_named(pf, b) is not None), None)
    if got is None:
        got = next((d for d in cands if d.kind == "global"), None)
    table[key] = got
    return got


def enumerators(pf: ParsedFile) -> dict[str, Node | None]:
    """Enumerators of the file's enums by name -> their value expression (None: previous + 1)."""
    got = pf.memo.get("enumerators")
    if got is None:
        got = {}
        for node in _index(pf).get("enum", ()):
            body = node.child_by_field_id(F_BODY)
            for e in body.named_children if body is not None else ():
                nm = e.child_by_field_id(F_NAME)
                if nm is not None:
                    got[pf.node_text(nm)] = e
        pf.memo["enumerators"] = got
    return got  # type: ignore[return-value]


# ------------------------------------------------------------------------------------------------ calls

ASCENDC = "AscendC"

# what the core methods return when the catalog does not say (it is filled concurrently): short name -> class
_RETURNS_FALLBACK = {
    "AllocTensor": "AscendC::LocalTensor",
    "DeQue": "AscendC::LocalTensor",
    "Get": "AscendC::LocalTensor",
    "GetWithOffset": "AscendC::LocalTensor",
    "GetTPipePtr": "AscendC::TPipe",
}
_SAME_AS_RECEIVER = frozenset({"ReinterpretCast", "operator[]"})


@dataclass(eq=False, slots=True)
class Call:
    """One call expression with a named callee.

    `text` is the callee as written without template arguments and spaces (``AscendC::DataCopy``, ``DataCopy``,
    ``inQueueX.AllocTensor``, ``GetTPipePtr()->FetchEventID``); `short` its last name part; `qualifier` the
    ``::`` scope it was written with (``AscendC``, ``AscendC::TQue``) or None; `receiver` the object node of a
    member call; `receiver_type` the object's class with templates stripped and the namespace resolved
    (``AscendC::TQue``, ``AscendC::LocalTensor``, a class of the file by its name) when known; `resolved` the
    catalog name the call resolves to (``AscendC::DataCopy``, ``AscendC::TQueBind::AllocTensor``) or None;
    `user_defined` whether the callee name is defined in the file (a function, class, macro...); `ascendc_visible`
    whether an unqualified name here can reach namespace AscendC (``using namespace AscendC`` or inside
    ``namespace AscendC``); `args` the argument nodes; `template_args` the texts of the explicit template arguments;
    `name_node` / `name_span` the callee's last name part; `in_function` the enclosing function_definition node.
    """

    node: Node
    text: str
    short: str
    qualifier: str | None
    receiver: Node | None
    receiver_type: str | None
    resolved: str | None
    args: tuple[Node, ...]
    template_args: tuple[str, ...]
    name_node: Node
    in_function: Node | None
    user_defined: bool = False
    ascendc_visible: bool = False
    arrow: bool = False
    pf: ParsedFile | None = field(default=None, repr=False)

    @property
    def is_member(self) -> bool:
        return self.receiver is not None

    @property
    def name_span(self) -> Span:
        """The span of the callee's last name part (``DataCopy`` in ``AscendC::DataCopy<half>(...)``)."""
        assert self.pf is not None
        return self.pf.span(self.name_node)


def _callee_parts(
    pf: ParsedFile, fn: Node
) -> tuple[str, str, str | None, Node | None, Node | None, tuple[str, ...], bool] | None:
    """(text, short, qualifier, receiver, name node, template args, arrow) of a callee, or None (not a name)."""
    receiver = None
    arrow = False
    qualifier: str | None = None
    node = fn
    fn_type = node.type
    if fn_type == "field_expression":
        receiver = node.child_by_field_id(F_ARGUMENT)
        op = node.child_by_field_id(F_OPERATOR)
        arrow = op is not None and pf.data[op.start_byte : op.end_byte] == b"->"
        node = node.child_by_field_id(F_FIELD)
        if node is not None and node.type == "dependent_name":
            node = node.named_children[0] if node.named_child_count else None
        if node is None:
            return None
    elif fn_type == "qualified_identifier":
        scopes: list[str] = []
        while node is not None and node.type == "qualified_identifier":
            sc = node.child_by_field_id(F_SCOPE)
            if sc is not None:
                scopes.append(strip_templates(pf.node_text(sc)).replace(" ", ""))
            node = node.child_by_field_id(F_NAME)
        if node is None:
            return None
        qualifier = "::".join(scopes) if scopes else ""
        if node.type == "dependent_name":
            node = node.named_children[0] if node.named_child_count else None
            if node is None:
                return None
    targs: tuple[str, ...] = ()
    node_type = node.type
    if node_type in ("template_function", "template_method"):
        targs = _template_arg_texts(pf, node.child_by_field_id(F_ARGUMENTS))
        node = node.child_by_field_id(F_NAME)
        if node is None:
            return None
        node_type = node.type
    if node_type not in ("identifier", "field_identifier", "type_identifier", "destructor_name", "operator_name"):
        return None
    short = pf.node_text(node)
    if receiver is not None:
        text = " ".join(strip_templates(pf.node_text(fn)).split()).replace(" ", "")
    elif qualifier is not None:
        text = f"{qualifier}::{short}" if qualifier else f"::{short}"
    else:
        text = short
    return text, short, qualifier, receiver, node, targs, arrow


def _ascendc_scopes(pf: ParsedFile) -> list[tuple[int, int]]:
    """Byte ranges where unqualified names reach namespace AscendC: after a ``using namespace AscendC;`` (to the end
    of its enclosing block or file) and inside ``namespace AscendC { }``."""
    got = pf.memo.get("ascendc_scopes")
    if got is not None:
        return got  # type: ignore[return-value]
    out: list[tuple[int, int]] = []
    idx = _index(pf)
    for node in idx.get("using", ()):
        t = " ".join(pf.node_text(node).split())
        if re.match(r"using\s+namespace\s+(::)?AscendC\s*;", t):
            scope = _scope_around(pf, node)
            out.append((node.start_byte, scope.end_byte if scope is not pf.root else len(pf.data)))
    for node in idx.get("namespace", ()):
        nm = node.child_by_field_id(F_NAME)
        if nm is not None and pf.node_text(nm).split("::")[0] == ASCENDC:
            out.append((node.start_byte, node.end_byte))
    if not out and re.search(r"using\s+namespace\s+(?:::)?AscendC\s*;", pf.masked):
        # the using directive sits in a region the parser lost: treat the whole file as using it
        out.append((0, len(pf.data)))
    pf.memo["ascendc_scopes"] = out
    return out


def ascendc_visible_at(pf: ParsedFile, node: Node) -> bool:
    """Whether an unqualified name at `node` can reach namespace AscendC."""
    scopes = _ascendc_scopes(pf)
    if not scopes:
        return False
    pos = node.start_byte
    for a, b in scopes:  # noqa: SIM110 (a loop: called for every call, and any() with a generator costs more)
        if a <= pos < b:
            return True
    return False


def qualify_type(pf: ParsedFile, catalog: Catalog | None, type_name: str, at: Node | None = None, depth: int = 0) -> str:
    """A type name as the catalog or the file knows it: aliases of the file followed, ``AscendC::`` added where an
    unqualified name reaches the namespace and the catalog has it (or it is a core class): ``TQue`` ->
    ``AscendC::TQue``. Unknown names come back unchanged."""
    name = base_type_name(type_name)
    if not name or depth > 8:
        return name
    aliases = type_aliases(pf)
    if name in aliases:
        return qualify_type(pf, catalog, aliases[name], at, depth + 1)
    if name.startswith("::"):
        name = name[2:]
    if "::" in name:
        return name
    if class_named(pf, name) is not None:
        return name
    candidate = f"{ASCENDC}::{name}"
    known = (catalog is not None and candidate in catalog) or name in _CORE_CLASSES
    if known and (at is None or ascendc_visible_at(pf, at)):
        return candidate
    return name


_CORE_CLASSES = frozenset(
    {"TPipe", "TQue", "TQueBind", "TBuf", "LocalTensor", "GlobalTensor", "TBufPool", "TSCM", "TPosition",
     "QuePosition"}
)


def expr_type(pf: ParsedFile, catalog: Catalog | None, node: Node | None, depth: int = 0) -> str | None:
    """The class of the value of an expression (templates stripped, namespace resolved) when it can be told from
    the file: declared types of variables, fields and parameters, ``auto`` initializers, what catalog methods
    return, ``this``, ``*p``, ``x[i]`` on tensors and ``GetTPipePtr()``."""
    if node is None or depth > 12:
        return None
    t = node.type
    if t in ("identifier", "field_identifier"):
        d = lookup(pf, pf.node_text(node), node)
        return _decl_type(pf, catalog, d, depth)
    if t == "this":
        cls = class_at(pf, node)
        return cls.name if cls is not None else None
    if t == "parenthesized_expression":
        inner = [c for c in node.named_children if c.type != "comment"]
        return expr_type(pf, catalog, inner[0], depth + 1) if inner else None
    if t == "pointer_expression":
        return expr_type(pf, catalog, node.child_by_field_id(F_ARGUMENT), depth + 1)
    if t == "subscript_expression":
        base = expr_type(pf, catalog, node.child_by_field_id(F_ARGUMENT), depth + 1)
        if base in ("AscendC::LocalTensor", "AscendC::GlobalTensor"):
            return base
        # an array of objects: `LocalTensor<T> xs[4]; xs[i]`
        arg = node.child_by_field_id(F_ARGUMENT)
        if arg is not None and arg.type == "identifier":
            d = lookup(pf, pf.node_text(arg), arg)
            if d is not None and d.array_size is not None:
                return _decl_type(pf, catalog, d, depth)
        return None
    if t == "field_expression":
        obj = node.child_by_field_id(F_ARGUMENT)
        fld = node.child_by_field_id(F_FIELD)
        if obj is None or fld is None:
            return None
        if obj.type == "this":
            cls = class_at(pf, node)
        else:
            owner = expr_type(pf, catalog, obj, depth + 1)
            cls = class_named(pf, owner) if owner and not owner.startswith(ASCENDC + "::") else None
        seen: set[str] = set()
        while cls is not None and cls.name not in seen:
            seen.add(cls.name)
            f = cls.field(pf.node_text(fld))
            if f is not None:
                return _decl_type(pf, catalog, f, depth)
            cls = next((c for c in (class_named(pf, b) for b in cls.bases) if c is not None), None)
        return None
    if t == "call_expression":
        fn = node.child_by_field_id(F_FUNCTION)
        if fn is None:
            return None
        parts = _callee_parts(pf, fn)
        if parts is None:
            return None
        _t, short, qualifier, receiver, _nn, _targs, _arrow = parts
        recv_type = expr_type(pf, catalog, receiver, depth + 1) if receiver is not None else None
        if short in _SAME_AS_RECEIVER and recv_type:
            return recv_type
        resolved = _resolve(pf, catalog, short, qualifier, recv_type, node)
        entry = catalog.get(resolved) if (catalog is not None and resolved) else None
        if entry is not None and entry.kind == "class":
            return entry.name  # a constructor call `TQue<...>()`
        if entry is not None and entry.overloads:
            ret = base_type_name(entry.overloads[0].returns)
            if ret and ret not in ("void", "auto", "T", "U"):
                return qualify_type(pf, catalog, ret if "::" in ret else f"{ASCENDC}::{ret}", None, depth + 1)
        if short in _RETURNS_FALLBACK and (
            (recv_type or "").startswith(ASCENDC + "::")
            or (receiver is None and short == "GetTPipePtr" and _reaches_ascendc(pf, qualifier, node)
                and short not in user_defined_names(pf))
        ):
            return _RETURNS_FALLBACK[short]
        fn_def = _functions_by_name(pf).get(short)
        if fn_def is not None and receiver is None:
            r = fn_def.return_type
            return None if base_type_name(r) in ("auto", "void") else qualify_type(pf, catalog, r, node, depth + 1)
        if receiver is None and class_named(pf, short) is not None:
            return class_named(pf, short).name  # type: ignore[union-attr]
        return None
    if t in ("template_function", "qualified_identifier"):
        return None
    return None


def _decl_type(pf: ParsedFile, catalog: Catalog | None, d: Declaration | None, depth: int) -> str | None:
    if d is None:
        return None
    table = pf.memo.get("decl_type")
    if table is None:
        table = pf.memo["decl_type"] = {}
    assert isinstance(table, dict)
    key = (id(d), depth, id(catalog))  # declarations live as long as `pf`, the catalog as long as the caller's lint
    if key in table:
        return table[key]  # type: ignore[no-any-return]
    got = table[key] = _decl_type_uncached(pf, catalog, d, depth)
    return got


def _decl_type_uncached(pf: ParsedFile, catalog: Catalog | None, d: Declaration, depth: int) -> str | None:
    if d.type_name in ("auto", "decltype(auto)") or d.type_name.startswith("decltype"):
        if d.init is None:
            return None
        init = d.init
        if init.type == "initializer_list" or init.type == "argument_list":
            return None
        return expr_type(pf, catalog, init, depth + 1)
    return qualify_type(pf, catalog, d.type_name, d.name_node, depth + 1)


def _reaches_ascendc(pf: ParsedFile, qualifier: str | None, at: Node) -> bool:
    """Whether a free name written with `qualifier` (None: unqualified; "": ``::name``) is in the API: qualified
    with ``AscendC::``, global (``::GetTPipePtr``), or unqualified where AscendC is visible."""
    if qualifier is not None:
        return qualifier == "" or qualifier.split("::")[0] == ASCENDC
    return True  # unqualified: the global API names (GetTPipePtr) are reachable everywhere


def _resolve(
    pf: ParsedFile,
    catalog: Catalog | None,
    short: str,
    qualifier: str | None,
    recv_type: str | None,
    at: Node,
    visible: bool | None = None,
) -> str | None:
    if catalog is None:
        return None
    if recv_type is not None:
        members = pf.memo.get(("members", id(catalog)))
        if members is None:
            members = pf.memo[("members", id(catalog))] = {}
        assert isinstance(members, dict)
        key = (recv_type, short)
        if key not in members:  # the same method of the same class is called many times in a file
            e = catalog.member(recv_type, short) if recv_type in catalog else None
            members[key] = e.name if e is not None else None
        return members[key]  # type: ignore[no-any-return]
    if qualifier is not None:
        if not qualifier:  # ::Name, a global
            return short if short in catalog else None
        q = qualify_type(pf, catalog, qualifier, at)
        if q in catalog and catalog.get(q).kind == "class":  # type: ignore[union-attr]
            e = catalog.member(q, short)
            return e.name if e is not None else None
        name = f"{q}::{short}"
        return name if name in catalog else None
    if short in user_defined_names(pf):
        return None
    if visible if visible is not None else ascendc_visible_at(pf, at):
        name = f"{ASCENDC}::{short}"
        if name in catalog:
            return name
    return short if short in catalog else None  # global names of the API (GetTPipePtr, the tiling macros)


def calls(pf: ParsedFile, catalog: Catalog | None = None) -> list[Call]:
    """Every call with a named callee, in document order, resolved against `catalog` (memoized per file and
    catalog)."""
    key = ("calls", id(catalog))
    got = pf.memo.get(key)
    if got is not None:
        return got  # type: ignore[return-value]
    user = user_defined_names(pf)
    scopes = _ascendc_scopes(pf)  # as in `ascendc_visible_at`
    out: list[Call] = []
    for node in _index(pf).get("call", ()):
        fn = node.child_by_field_id(F_FUNCTION)
        if fn is None:
            continue
        parts = _callee_parts(pf, fn)
        if parts is None:
            continue
        text, short, qualifier, receiver, name_node, targs, arrow = parts
        if name_node is None:
            continue
        recv_type = expr_type(pf, catalog, receiver) if receiver is not None else None
        start, end = node.start_byte, node.end_byte
        visible = any(a <= start < b for a, b in scopes) if scopes else False
        resolved = _resolve(pf, catalog, short, qualifier, recv_type, node, visible)
        args_node = node.child_by_field_id(F_ARGUMENTS)
        args = _named_children_without_comments(pf, args_node) if args_node is not None else ()
        fdef = _function_at(pf, start, end)
        out.append(
            Call(
                node=node,
                text=text,
                short=short,
                qualifier=qualifier,
                receiver=receiver,
                receiver_type=recv_type,
                resolved=resolved,
                args=args,
                template_args=targs,
                name_node=name_node,
                in_function=fdef.node if fdef is not None else None,
                user_defined=receiver is None and (qualifier is None or qualifier == "") and short in user,
                ascendc_visible=visible,
                arrow=arrow,
                pf=pf,
            )
        )
    pf.memo[key] = out
    return out


# ------------------------------------------------------------------------------------------------ constants

TYPE_SIZES: dict[str, int] = {
    "half": 2, "float16_t": 2, "bfloat16_t": 2, "float": 4, "float32_t": 4, "double": 8, "bool": 1, "char": 1,
    "signed char": 1, "unsigned char": 1, "short": 2, "unsigned short": 2, "int": 4, "unsigned": 4,
    "unsigned int": 4, "long": 8, "unsigned long": 8, "long long": 8, "unsigned long long": 8,
    "int8_t": 1, "uint8_t": 1, "int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4, "int64_t": 8,
    "uint64_t": 8, "size_t": 8, "hifloat8_t": 1, "fp8_e4m3fn_t": 1, "fp8_e5m2_t": 1, "float8_e4m3_t": 1,
    "float8_e5m2_t": 1, "int4b_t": 1,
}
_INT_WIDTH = {
    "int8_t": (8, True), "uint8_t": (8, False), "int16_t": (16, True), "uint16_t": (16, False),
    "int32_t": (32, True), "uint32_t": (32, False), "int64_t": (64, True), "uint64_t": (64, False),
    "int": (32, True), "unsigned": (32, False), "unsigned int": (32, False), "short": (16, True),
    "char": (8, True), "unsigned char": (8, False), "long": (64, True), "size_t": (64, False),
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
            return self.name(sub.node_text(name), at) if name is not None and name.type == "identifier" else None
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
                "&": lambda: a & b, "|": lambda: a | b, "^": lambda: a ^ b, "&&": lambda: int(bool(a and b)),
                "||": lambda: int(bool(a or b)), "==": lambda: int(a == b), "!=": lambda: int(a != b),
                "<": lambda: int(a < b), ">": lambda: int(a > b), "<=": lambda: int(a <= b), ">=": lambda: int(a >= b),
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
        if short in ("min", "max", "Min", "Max") and len(args) == 2 and callee in (
            "std::min", "std::max", "min", "max", "AscendC::Std::min", "AscendC::Std::max", "Min", "Max",
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
            d = consts[0] if len(consts) == 1 or len({pf.node_text(c.init) for c in consts if c.init}) == 1 else None
            if d is None and consts:
                return None
        if d is not None and d.kind in ("global", "field"):
            # the same constant defined twice with different values (branches of an #if): unknown
            same = [c for c in _declarations_by_name(pf).get(name, []) if c.kind == d.kind and c.owner == d.owner]
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


# ------------------------------------------------------------------------------------------------ qualified names


@dataclass(frozen=True)
class QualifiedRef:
    """One outermost ``A::B::C`` name as written. `parts` are the name parts without template arguments
    (``("AscendC", "HardEvent", "V_S")``), `part_nodes` their nodes; `role` is what the last part is used as:
    ``call`` (the callee of a call), ``template`` (a template name, ``AscendC::LocalTensor<half>``), ``type``
    or ``value``."""

    node: Node
    parts: tuple[str, ...]
    part_nodes: tuple[Node, ...]
    role: str

    @property
    def text(self) -> str:
        return "::".join(self.parts)


def qualified_refs(pf: ParsedFile) -> list[QualifiedRef]:
    """Every outermost qualified name of the file, in document order (memoized)."""
    got = pf.memo.get("qualified_refs")
    if got is not None:
        return got  # type: ignore[return-value]
    out: list[QualifiedRef] = []
    for node in _index(pf).get("qualified", ()):
        parent = node.parent
        if parent is not None and parent.type == "qualified_identifier":
            continue
        parts: list[str] = []
        nodes: list[Node] = []
        cur: Node | None = node
        last: Node | None = None
        ok = True
        while cur is not None and cur.type == "qualified_identifier":
            sc = cur.child_by_field_id(F_SCOPE)
            if sc is not None:
                sc_name = sc.child_by_field_id(F_NAME) if sc.type == "template_type" else sc
                if sc_name is None or sc_name.type not in ("namespace_identifier", "type_identifier", "identifier"):
                    ok = False
                    break
                parts.append(pf.node_text(sc_name))
                nodes.append(sc_name)
            cur = cur.child_by_field_id(F_NAME)
        if not ok or cur is None or not parts:
            continue
        role = "value"
        last = cur
        if cur.type in ("template_type", "template_function", "template_method"):
            last = cur.child_by_field_id(F_NAME)
            role = "template"
        elif cur.type == "type_identifier":
            role = "type"
        elif cur.type == "dependent_name":
            continue
        if last is None or last.type not in ("identifier", "type_identifier", "field_identifier", "namespace_identifier"):
            continue
        if parent is not None and parent.type == "call_expression" and parent.child_by_field_id(F_FUNCTION) == node:
            role = "call"
        parts.append(pf.node_text(last))
        nodes.append(last)
        out.append(QualifiedRef(node, tuple(parts), tuple(nodes), role))
    pf.memo["qualified_refs"] = out
    return out


def type_name_nodes(pf: ParsedFile) -> list[Node]:
    """Every ``type_identifier`` node (a name used as a type), in document order."""
    return list(_index(pf).get("type_name", ()))


_INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
ASCEND_HEADER_PREFIXES = (
    "kernel_operator", "kernel_tiling", "lib/", "kernel_log", "acl/", "tiling/", "register/", "basic_api/",
    "adv_api/",
)
_USING_OTHER_RE = re.compile(r"\busing\s+namespace\s+(?!(?:::)?AscendC\s*;|std\s*;)([A-Za-z_:][\w:]*)")
# the same without the leading \b, which keeps the engine from skipping ahead to "using"; `_using_other` checks it
_USING_OTHER_TAIL_RE = re.compile(r"using\s+namespace\s+(?!(?:::)?AscendC\s*;|std\s*;)([A-Za-z_:][\w:]*)")
_WORD_CHAR_RE = re.compile(r"\w")


def _using_other(text: str) -> bool:
    """Whether `_USING_OTHER_RE` matches somewhere in `text` (tried at each "using" where \\b holds)."""
    pos = 0
    while True:
        m = _USING_OTHER_TAIL_RE.search(text, pos)
        if m is None:
            return False
        i = m.start()
        if i == 0 or not _WORD_CHAR_RE.match(text, i - 1):
            return True
        pos = i + 1


def foreign_names_possible(pf: ParsedFile) -> bool:
    """Whether an unqualified name may come from somewhere the file does not show: it includes a header that is
    neither an Ascend C nor a standard one (``"my_helpers.h"``, ``"impl/..."``) or opens another namespace with a
    using-directive (``using namespace AscendC::Te;``). Then an unqualified call can find other overloads than
    the catalog's, and rules should not judge it."""
    got = pf.memo.get("foreign_names")
    if got is None:
        got = any(not m.group(1).startswith(ASCEND_HEADER_PREFIXES) for m in _INCLUDE_RE.finditer(pf.text)) or bool(
            _using_other(pf.masked)
        )
        pf.memo["foreign_names"] = got
    return bool(got)


def sizeof_operands(pf: ParsedFile) -> list[Node]:
    """The operand of every ``sizeof(x)``: a type node, or the expression inside the parentheses (an identifier
    when the name could be a type or a variable)."""
    out: list[Node] = []
    for node in _index(pf).get("sizeof", ()):
        target = node.child_by_field_id(F_TYPE) or node.child_by_field_id(F_VALUE)
        while target is not None and target.type in ("parenthesized_expression", "type_descriptor"):
            inner = [c for c in target.named_children if c.type != "comment"]
            if len(inner) != 1:
                break
            target = inner[0]
        if target is not None:
            out.append(target)
    return out


# ------------------------------------------------------------------------------------------------ Ascend members

ASCEND_MEMBER_CLASSES = ("TPipe", "TQue", "TQueBind", "TBuf", "TBufPool", "LocalTensor", "GlobalTensor")


def ascendc_fields(pf: ParsedFile, catalog: Catalog | None, cls: ClassInfo) -> dict[str, list[Declaration]]:
    """The fields of `cls` (and of its bases defined in the file) whose type is a core Ascend C class, by that
    class's short name: ``{"TPipe": [pipe], "TQue": [inQueueX, outQueueZ], "TBuf": [tmp], "GlobalTensor": [...]}``.
    A field's ``template_args`` give the queue position and depth (``("QuePosition::VECIN", "BUFFER_NUM")``)."""
    out: dict[str, list[Declaration]] = {}
    seen: set[str] = set()
    todo: list[ClassInfo] = [cls]
    while todo:
        c = todo.pop(0)
        if c.name in seen:
            continue
        seen.add(c.name)
        for f in c.fields:
            q = qualify_type(pf, catalog, f.type_name, None)
            short = q.removeprefix(ASCENDC + "::")
            if short in ASCEND_MEMBER_CLASSES and (q.startswith(ASCENDC + "::") or short == f.type_name):
                out.setdefault(short, []).append(f)
        todo.extend(b for b in (class_named(pf, base) for base in c.bases) if b is not None)
    return out
