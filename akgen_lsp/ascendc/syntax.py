"""The syntax layer: tree-sitter-cpp over AscendC device code.

Device keywords (``__aicore__``, ``__global__``, ``__gm__``, ``__mix__(1, 2)``, the ``[aicore]`` attribute spelling, ...)
and ``<<<...>>>`` launch configurations are blanked with spaces before parsing, so every byte offset in the tree is
an offset in the user's text. `ParsedFile` converts tree positions to 1-based character `Span`s.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

import tree_sitter_cpp
from tree_sitter import Language, Node, Parser, Tree

from akgen_lsp.findings import Span

CPP = Language(tree_sitter_cpp.language())

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
    r"\b(?:" + "|".join(re.escape(k) for k in DEVICE_KEYWORDS) + r")\b"
    r"|\b(?:__mix__|__launch_bounds__)\s*\([^()]*\)"
    r"|\[\s*aicore\s*\]"
    r"|\[\s*\[\s*(?:aicore|vector|cube)\s*\]\s*\]"
)
_LAUNCH_RE = re.compile(r"<<<[^;{}]*?>>>")
# comments, string and character literals: blanked in the "code view" that the scanners below search
_NOISE_RE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_DIRECTIVE_RE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b", re.M)
_TEMPLATE_MEMBER_RE = re.compile(r"(?:\.|->)\s*(template)\s+[A-Za-z_]\w*\s*(?=\()")
_MEMBER_CALL_OP_RE = re.compile(
    r"(?:\.|->)\s*(?:template\s+)?operator\s*\(\s*\)\s*(?:<(?:[^<>;(){}]|<[^<>;(){}]*>)*>)?\s*(?=\()"
)
_PTR_TO_MEMBER_RE = re.compile(r"(?:\.|->)(\*)\s*[A-Za-z_(]")
_ASSERT_RE = re.compile(r"(?<![\w.>:])ASSERT\s*\(")
_IF_MACRO_RE = re.compile(r"\bif([ \t]+)(ASCE?N?D?_IS_(?:NOT_)?AI[CV])([ \t]+)\{")
_IF_MACRO_TIGHT_RE = re.compile(r"\bif[ \t]+ASCE?N?D?_IS_(?:NOT_)?AI[CV](?=\s*\{)")
_TILING_RE = re.compile(
    r"(?<![\w.>:])(BEGIN_TILING_DATA_DEF|TILING_DATA_FIELD_DEF(?:_STRUCT|_ARR)?|REGISTER_TILING_DATA_CLASS)\s*\("
    r"|(?<![\w.>:])END_TILING_DATA_DEF\b"
)
_OPERATOR_SPEC_RE = re.compile(r"\boperator\s*\(\s*\)\s*(<(?:[^<>;(){}]|<[^<>;(){}]*>)*>)\s*(?=\()")
_CAPS_CALL_RE = re.compile(r"(?<![\w.>:])[A-Z][A-Z0-9_]{2,}\s*\(")
_TEMPLATE_TEMPLATE_RE = re.compile(r"\btemplate\s*<[^<>;{}]*>\s*(typename)\b")
_OBJECT_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]*([^\n]*)$", re.M)
_ATTRIBUTE_WORDS_RE = re.compile(r"\s|\binline\b|\bstatic\b|__attribute__\s*\(\([^()]*(?:\([^()]*\)[^()]*)*\)\)")
# object-like macros that only stand for device keywords in well-known headers (catlass)
ATTRIBUTE_MACROS = ("CATLASS_DEVICE", "CATLASS_HOST_DEVICE", "CATLASS_GLOBAL", "CATLASS_HOST")
_PRIMITIVE = {"float", "double", "int", "char", "bool", "short", "long", "void", "unsigned", "signed"}


def _blank(match: re.Match[str]) -> str:
    return "".join("\n" if c == "\n" else " " for c in match.group(0))


def _blank_range(buf: list[str], start: int, end: int) -> None:
    for i in range(start, end):
        if buf[i] != "\n":
            buf[i] = " "


def _code_view(text: str) -> str:
    """`text` with comments and literals blanked, so scanners do not match inside them."""
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
    code = _code_view(text)
    buf = list(text)
    _mask_conditionals(code, buf)
    for m in _KEYWORD_RE.finditer(code):
        _blank_range(buf, m.start(), m.end())
    for m in _LAUNCH_RE.finditer(code):
        _blank_range(buf, m.start(), m.end())
    _mask_attribute_macros(code, buf)
    for m in _TEMPLATE_TEMPLATE_RE.finditer(code):
        buf[m.start(1) : m.end(1)] = list("class   ")
    for m in _TEMPLATE_MEMBER_RE.finditer(code):
        _blank_range(buf, m.start(1), m.end(1))
    for m in _PTR_TO_MEMBER_RE.finditer(code):
        _blank_range(buf, m.start(1), m.end(1))
    for m in _MEMBER_CALL_OP_RE.finditer(code):
        _blank_range(buf, m.start(), m.end())
    for m in _OPERATOR_SPEC_RE.finditer(code):
        _blank_range(buf, m.start(1), m.end(1))
    for m in _IF_MACRO_RE.finditer(code):
        buf[m.start(1)] = "("
        buf[m.end(3) - 1] = ")"
    for m in _IF_MACRO_TIGHT_RE.finditer(code):
        if buf[m.start() + 2] != "(":
            _blank_range(buf, m.start(), m.end())
    if "ASSERT" in code:
        for m in _ASSERT_RE.finditer(code):
            if code[_line_start(code, m.start()) :].lstrip().startswith("#"):
                continue
            end = _match_paren(code, m.end() - 1)
            if end > 0:
                _blank_range(buf, m.start(), end)
    if "TILING_DATA_" in code:
        _mask_tiling_data(code, buf)
    for m in _CAPS_CALL_RE.finditer(code):
        if m.group(0).startswith(_TILING_NAMES):
            continue
        line_start = _line_start(code, m.start())
        if code[line_start : m.start()].lstrip().startswith("#"):
            continue
        open_at = m.end() - 1
        end = _match_paren(code, open_at)
        if end < 0:
            continue
        _capitalise_type_args(code, buf, open_at, end)
        # a statement-level call with nothing after it on its line and no semicolon
        if code[line_start : m.start()].strip() or _prev_code_char(code, line_start) not in ("", ";", "{", "}"):
            continue
        eol = code.find("\n", end)
        eol = len(code) if eol < 0 else eol
        if code[end:eol].strip():
            continue
        nxt = _next_code_char(code, end)
        if nxt and nxt in ";{.,:?-+*/%&|^<>=)[":
            continue
        _blank_range(buf, m.start(), end)
    return "".join(buf)


_TILING_NAMES = ("BEGIN_TILING_DATA_DEF", "TILING_DATA_FIELD_DEF", "END_TILING_DATA_DEF", "REGISTER_TILING_DATA_CLASS")


def _mask_tiling_data(code: str, buf: list[str]) -> None:
    """Host tiling structs as plain C++: ``BEGIN_TILING_DATA_DEF(N)`` -> ``struct N{``, ``TILING_DATA_FIELD_DEF(t, f)``
    -> ``t f`` (``_ARR(t, n, f)`` -> ``t f``), ``END_TILING_DATA_DEF`` -> ``}``; ``REGISTER_TILING_DATA_CLASS(...)``
    is blanked."""
    for m in _TILING_RE.finditer(code):
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
    for m in _OBJECT_DEFINE_RE.finditer(code):
        body = _KEYWORD_RE.sub("", m.group(2))
        if body.strip() and not _ATTRIBUTE_WORDS_RE.sub("", body).strip():
            names.add(m.group(1))
    names = {n for n in names if n in code}
    if not names:
        return
    use = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in sorted(names)) + r")\b")
    for m in use.finditer(code):
        if not code[_line_start(code, m.start()) : m.start()].lstrip().startswith("#"):
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

    @property
    def root(self) -> Node:
        return self.tree.root_node

    def node_text(self, node: Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def original_text(self, node: Node) -> str:
        """The user's text under `node` (the keywords not blanked)."""
        return self.text.encode("utf-8", errors="surrogatepass")[node.start_byte : node.end_byte].decode(
            "utf-8", errors="replace"
        )

    def _column(self, row: int, byte_col: int) -> int:
        """A tree-sitter (row, byte column) as a 1-based character column."""
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


def parse(text: str, path: str = "<memory>") -> ParsedFile:
    masked = mask_device_code(text)
    data = masked.encode("utf-8", errors="surrogatepass")
    tree = _parser.parse(data)
    starts = [0]
    for i, b in enumerate(data):
        if b == 0x0A:
            starts.append(i + 1)
    return ParsedFile(path=path, text=text, masked=masked, tree=tree, data=data, _line_starts=starts)


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
