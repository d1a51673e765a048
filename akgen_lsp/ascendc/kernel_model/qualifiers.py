"""A function's device qualifiers, read from the user's text around its node (the tree was built with them
blanked): ``__aicore__``, ``__global__``, ``__vector__``, ``__cube__``, ``__mix__(...)``, ``[aicore]``,
``__device__``, or a macro that stands for one of them; its ``extern "C"`` linkage, and where its declaration
starts (for fixes that insert a qualifier)."""

from __future__ import annotations

import re

from akgen_lsp.ascendc import syntax
from akgen_lsp.ascendc.kernel_model.values import _WORD_RE, Function
from akgen_lsp.ascendc.syntax import DEVICE_KEYWORDS, ParsedFile

# qualifiers that make a function device code
_DEVICE_MARK_RE = re.compile(
    r"\b(?:__aicore__|__global__|__vector__|__cube__|__device__|__simt_vf__|__simd_vf__|__attribute_aicore__|"
    r"__simd_callee__|__simt_callee__|__mix__|CATLASS_DEVICE|CATLASS_HOST_DEVICE|CATLASS_GLOBAL)\b"
    r"|\[\s*aicore\s*\]|\[\s*\[\s*(?:aicore|vector|cube)\s*\]\s*\]"
)
_AICORE_RE = re.compile(
    r"\b(?:__aicore__|__vector__|__cube__|__mix__|__attribute_aicore__|CATLASS_DEVICE|"
    r"CATLASS_HOST_DEVICE|CATLASS_GLOBAL)\b|\[\s*aicore\s*\]"
    r"|\[\s*\[\s*(?:aicore|vector|cube)\s*\]\s*\]"
)
_GLOBAL_RE = re.compile(r"\b(?:__global__|CATLASS_GLOBAL)\b")
_EXTERN_C_RE = re.compile(r'\bextern\s*"C"')


def _original_bytes(pf: ParsedFile) -> bytes:
    raw = pf.memo.get("original_bytes")
    if not isinstance(raw, bytes):
        raw = pf.text.encode("utf-8", errors="surrogatepass")
        pf.memo["original_bytes"] = raw
    return raw


def _device_macros(pf: ParsedFile) -> frozenset[str]:
    """Object-like macros whose body holds a device qualifier (``#define KERNEL_API __aicore__ inline``)."""
    return frozenset(
        name
        for name, m in syntax.macros(pf).items()
        if m.params is None and m.node is not None and _DEVICE_MARK_RE.search(_macro_body(pf, name))
    )


_QUALIFIER_WORDS = frozenset(DEVICE_KEYWORDS) | {
    "CATLASS_DEVICE",
    "CATLASS_HOST_DEVICE",
    "CATLASS_GLOBAL",
    "CATLASS_HOST",
    "inline",
    "static",
}
_ATTRIBUTE_WORD_RE = re.compile(rb"__\w+__")


def _space_before(orig: bytes, end: int) -> int:
    """Start of the run of spaces, tabs and newlines that ends at `end`."""
    window = orig[max(0, end - 64) : end]
    kept = len(window.rstrip(b" \t\n\r"))
    if kept:  # the run starts inside the window
        return end - len(window) + kept
    i = end
    while i > 0 and orig[i - 1 : i] in (b" ", b"\t", b"\n", b"\r"):
        i -= 1
    return i


_WORD_TAIL_RE = re.compile(rb"[A-Za-z0-9_]+\Z")


def _word_before(orig: bytes, end: int) -> int:
    """Start of the identifier that ends at `end` (== `end` when there is none)."""
    window = orig[max(0, end - 64) : end]
    m = _WORD_TAIL_RE.search(window)
    if m is None:
        return end
    if m.start() > 0 or len(window) == end:  # the word starts inside the window (bytes.isalnum is ASCII only)
        return end - len(window) + m.start()
    i = end
    while i > 0 and (orig[i - 1 : i].isalnum() or orig[i - 1 : i] == b"_"):
        i -= 1
    return i


def _open_before(orig: bytes, close_at: int, opener: bytes, closer: bytes, limit: int = 400) -> int:
    """Index of the bracket that opens the one at `close_at` (scanning back at most `limit` bytes), or -1."""
    depth = 0
    i = close_at
    stop = max(0, close_at - limit)
    while i >= stop:
        c = orig[i : i + 1]
        if c == closer:
            depth += 1
        elif c == opener:
            depth -= 1
            if depth == 0:
                return i
        elif c in (b";", b"{", b"}"):
            return -1
        i -= 1
    return -1


def _qualifier_start(orig: bytes, pos: int, device_macros: frozenset[str]) -> int:
    """Where the qualifiers written before `pos` (a declaration's first token in the tree) begin: the tree does not
    cover the blanked device keywords, nor attributes it could not parse (``__inout_pipe__(V)``,
    ``__attribute__((always_inline))``, ``[aicore]``). Scans back token by token: device keywords and macros,
    ``inline``/``static``, ``__word__`` and ``__word__(...)``, ``[aicore]`` and ``[[...]]``."""
    start = pos
    for _ in range(16):
        i = _space_before(orig, start)
        if i == 0:
            break
        last = orig[i - 1 : i]
        if last == b")":
            opened = _open_before(orig, i - 1, b"(", b")")
            word_at = _word_before(orig, opened) if opened > 0 else -1
            if opened <= 0 or not _ATTRIBUTE_WORD_RE.fullmatch(orig[word_at:opened].rstrip()):
                break
            cand = word_at
        elif last == b"]":
            opened = _open_before(orig, i - 1, b"[", b"]", 80)
            if opened < 0 or not re.fullmatch(rb"\[\s*(?:aicore|\[[^\[\]]*\])\s*\]", orig[opened:i]):
                break
            cand = opened
        elif last.isalnum() or last == b"_":
            cand = _word_before(orig, i)
            word = orig[cand:i].decode("ascii", errors="replace")
            if (
                word not in _QUALIFIER_WORDS
                and word not in device_macros
                and not _ATTRIBUTE_WORD_RE.fullmatch(orig[cand:i])
            ):
                break
        else:
            break
        line_start = orig.rfind(b"\n", 0, cand) + 1
        if orig[line_start:cand].lstrip().startswith(b"#"):
            break  # a preprocessor line is not part of the declaration
        start = cand
    return start


def _function(pf: ParsedFile, orig: bytes, f: syntax.Function, device_macros: frozenset[str]) -> Function:
    node = f.node
    start = _qualifier_start(orig, node.start_byte, device_macros)
    decl = node.child_by_field_id(syntax.F_DECLARATOR)
    head_end = decl.start_byte if decl is not None else node.start_byte
    head = orig[start:head_end].decode("utf-8", errors="replace")
    # qualifiers written after the parameter list (rare: `void f() __aicore__`) count too
    fdecl = decl
    while fdecl is not None and fdecl.type != "function_declarator":
        fdecl = fdecl.child_by_field_id(syntax.F_DECLARATOR)
    params = fdecl.child_by_field_id(syntax.F_PARAMETERS) if fdecl is not None else None
    tail_start = params.end_byte if params is not None else f.name_node.end_byte
    body = f.body
    tail = orig[tail_start : body.start_byte if body is not None else node.end_byte].decode(
        "utf-8", errors="replace"
    )
    words = set(_WORD_RE.findall(head))
    macro_words = words & device_macros
    macro_bodies = " ".join(_macro_body(pf, w) for w in macro_words)
    marks = f"{head} {tail} {macro_bodies}"
    extern_c = bool(_EXTERN_C_RE.search(head))
    # extern "C" void f() {} and extern "C" { void f() {} } (node.parent is slow: look two levels up at most)
    parent = anc = node.parent
    if anc is not None and anc.type == "declaration_list":
        anc = anc.parent
    if not extern_c and anc is not None and anc.type == "linkage_specification":
        val = anc.child_by_field_id(syntax.F_VALUE)
        extern_c = val is not None and pf.node_text(val).strip('"') == "C"
    is_global = bool(_GLOBAL_RE.search(head)) or bool(_GLOBAL_RE.search(macro_bodies))
    is_aicore = bool(_AICORE_RE.search(marks))
    return Function(
        fn=f,
        qualifiers=head,
        has_device_mark=bool(_DEVICE_MARK_RE.search(marks)) or bool(macro_words),
        is_aicore=is_aicore,
        is_global=is_global,
        extern_c=extern_c,
        is_template=parent is not None and parent.type == "template_declaration",
        is_constexpr="constexpr" in words or "consteval" in words,
        start_byte=start,
        class_name=f.class_name.rsplit("::", 1)[-1] if f.class_name else None,
    )


def _macro_body(pf: ParsedFile, name: str) -> str:
    """The user's text of an object-like macro's body (device keywords not blanked)."""
    m = syntax.macros(pf).get(name)
    name_node = m.node.child_by_field_id(syntax.F_NAME) if m is not None and m.node is not None else None
    if m is None or m.node is None or name_node is None:
        return ""
    raw = _original_bytes(pf)[name_node.end_byte : m.node.end_byte]
    return raw.decode("utf-8", errors="replace").strip()
