"""What tree-sitter parses: the user's text with device code rewritten in place (`mask_device_code`).

Every transformation replaces characters (mostly by spaces; newlines are always kept), so a byte offset in the tree
is the same offset in the user's text. The masked text is what the tree is built from; `ParsedFile.text` stays the
user's text."""

from __future__ import annotations

import re
from collections.abc import MutableSequence

from akgen_lsp.ascendc.syntax.codeview import (
    _blank_range,
    _buffer_text,
    _call_start,
    _char_buffer,
    _line_start,
    _match_paren,
    _next_code_char,
    _prev_code_char,
    _put,
    _word_start,
    code_view,
)

DEVICE_KEYWORDS = (
    "__global__",
    "__aicore__",
    "__gm__",
    "__ubuf__",
    "__cbuf__",
    "__ca__",
    "__cb__",
    "__cc__",
    "__fbuf__",
    "__vector__",
    "__cube__",
    "__inline__",
    "__forceinline__",
    "__simt_vf__",
    "__simd_vf__",
    "__host__",
    "__device__",
    "__sync_alias__",
    "__sync_noalias__",
    "__in_pipe__",
    "__out_pipe__",
    "__check_sync_alias__",
    "__ssbuf__",
    "__attribute_aicore__",
    "__kfc_workspace__",
    "__biasbuf__",
    "__aicpu__",
    "__simd_callee__",
    "__simt_callee__",
    "__smem__",
    "__workgroup__",
)

_KEYWORD_RE = re.compile(
    r"__(?:" + "|".join(re.escape(k[2:-2]) for k in DEVICE_KEYWORDS) + r")__(?!\w)"
    r"|__(?:mix|launch_bounds)__\s*\([^()]*\)"
)
_AICORE_ATTR_RE = re.compile(r"\[\s*(?:aicore\s*\]|\[\s*(?:aicore|vector|cube)\s*\]\s*\])")
# bounded: `<<<` followed by 48 KB without `>>>` was tried to its end from every `<<<` (seconds per keystroke)
_LAUNCH_RE = re.compile(r"<<<(?:[^;{}<>]|<(?!<<)|>(?!>>)){0,1024}?>>>")


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
_ATTRIBUTE_WORDS_RE = re.compile(
    r"\s|\binline\b|\bstatic\b|__attribute__\s*\(\([^()]*(?:\([^()]*\)[^()]*)*\)\)"
)
# object-like macros that only stand for device keywords in well-known headers (catlass)
ATTRIBUTE_MACROS = ("CATLASS_DEVICE", "CATLASS_HOST_DEVICE", "CATLASS_GLOBAL", "CATLASS_HOST")
_PRIMITIVE = {"float", "double", "int", "char", "bool", "short", "long", "void", "unsigned", "signed"}


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


def _mask_conditionals(code: str, buf: MutableSequence[str]) -> None:
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
    buf = _char_buffer(text)
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
                _put(buf, m.start(1), "class   ")  # over `typename`, as long
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
    return _buffer_text(buf)


def _caps_calls(code: str) -> list[tuple[int, int]]:
    """(start, end) of each match of `_CAPS_CALL_RE` in `code`, in order. Every match ends at its own ``(`` (a
    match holds one), and the leftmost start of the name before that ``(`` is the greedy match of the reversed
    pattern on the reversed text, so both find the same matches; the reversed one is several times faster."""
    n = len(code)
    out = [(n - m.end(), n - m.start()) for m in _CAPS_CALL_REVERSED_RE.finditer(code[::-1])]
    out.reverse()
    return out


_TILING_NAMES = (
    "BEGIN_TILING_DATA_DEF",
    "TILING_DATA_FIELD_DEF",
    "END_TILING_DATA_DEF",
    "REGISTER_TILING_DATA_CLASS",
)


def _mask_tiling_data(code: str, buf: MutableSequence[str]) -> None:
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
            _put(buf, m.start(), "struct")
            buf[end - 1] = "{"
            continue
        commas = [open_at + 1 + i for i, c in enumerate(code[open_at + 1 : end - 1]) if c == ","]
        if name.endswith("_ARR") and len(commas) == 2:
            _blank_range(buf, commas[0], commas[1] + 1)
        elif len(commas) == 1:
            buf[commas[0]] = " "


def _mask_attribute_macros(code: str, buf: MutableSequence[str]) -> None:
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
        if _word_start(code, m.start()) and not code[
            _line_start(code, m.start()) : m.start()
        ].lstrip().startswith("#"):
            _blank_range(buf, m.start(), m.end())


def _capitalise_type_args(code: str, buf: MutableSequence[str], open_at: int, end: int) -> None:
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
