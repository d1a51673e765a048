"""What is at a position of a text that is often half-typed: the word, its qualifier, the receiver's class, the
enclosing call. The one reader of "what is at this position" for the server's hover, completion and signature help.

A text scan of the lines near the cursor, over the syntax layer's code view (`code_view`: comments and literals
blanked), because half-typed code is where these questions are asked and where tree-sitter's error recovery is least
to be trusted: ``que.`` or ``DataCopy(x, `` parse as errors, and the scan answers in microseconds. Where the tree
knows better it is asked: the class of a receiver comes from the document's parse (`lookup`: the declaration visible
at the receiver, with scopes, fields and parameters), when the parse still holds the text up to the receiver; the
text scan of declarations is the fallback for a parse that is gone or a name it does not know. Positions are 0-based
lines and 0-based code points.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from akgen_lsp.ascendc.catalog import Catalog, Entry
from akgen_lsp.ascendc.syntax.codeview import code_view
from akgen_lsp.ascendc.syntax.names import lookup
from akgen_lsp.ascendc.syntax.parsing import ParsedFile

_IDENT = re.compile(r"[A-Za-z_]\w*")
_WORD_CHARS = re.compile(r"\w")


@dataclass(frozen=True)
class Word:
    text: str
    start: int  # code point index in the line
    end: int


@dataclass(frozen=True)
class Qualified:
    """A name as written: ``AscendC::Add`` -> (``::``, ``AscendC``, ``Add``); ``que.AllocTensor`` -> (``.``, ``que``, ...)."""

    name: str
    operator: str = ""  # "::", ".", "->" or ""
    qualifier: str = ""  # the text before the operator (a namespace/class path, or a receiver expression)


def line_at(text: str, line: int) -> str:
    if line < 0:
        return ""
    start = offset_of(text, line, 0)
    if line > 0 and (start == 0 or text[start - 1] != "\n"):
        return ""  # past the last line
    end = text.find("\n", start)
    return text[start : len(text) if end < 0 else end].rstrip("\r")


def word_at(line_text: str, character: int) -> Word | None:
    """The identifier under (or just before) `character`."""
    if not line_text:
        return None
    i = min(character, len(line_text))
    if i > 0 and (i == len(line_text) or _WORD_CHARS.match(line_text[i]) is None):
        i -= 1  # the cursor sits right after the word
    if i >= len(line_text) or _WORD_CHARS.match(line_text[i]) is None:
        return None
    start = i
    while start > 0 and _WORD_CHARS.match(line_text[start - 1]):
        start -= 1
    end = i
    while end < len(line_text) and _WORD_CHARS.match(line_text[end]):
        end += 1
    word = line_text[start:end]
    if word[0].isdigit():
        return None
    return Word(word, start, end)


_QUALIFIER_TAIL = re.compile(
    r"(?P<qual>(?:[A-Za-z_]\w*\s*(?:<[^<>;]*>)?\s*::\s*)+)$"  # AscendC::  or  AscendC::TPosition::
    r"|(?P<recv>[A-Za-z_][\w\.\->\[\]\(\)]*?)\s*(?P<op>\.|->)\s*$"  # que.  this->que.  tiles[i].
)


def qualified_before(line_text: str, start: int, name: str = "") -> Qualified:
    """How the name starting at `start` is qualified, from the text before it on the line."""
    before = line_text[:start]
    m = _QUALIFIER_TAIL.search(before)
    if not m:
        return Qualified(name)
    if m.group("qual"):
        parts = [re.sub(r"<.*>", "", p).strip() for p in m.group("qual").split("::")]
        return Qualified(name, "::", "::".join(p for p in parts if p))
    recv = m.group("recv")
    # keep the last component of a member chain (this->inQueue -> inQueue; a.b -> b)
    recv = re.split(r"\.|->", recv)[-1]
    recv = re.sub(r"\[.*\]$", "", recv).strip()
    return Qualified(name, m.group("op"), recv)


def resolve_class(catalog: Catalog, type_name: str) -> Entry | None:
    """A class entry for a type as written (``TQue``, ``AscendC::TQue``, ``LocalTensor<half>``)."""
    base = re.sub(r"<.*", "", type_name).strip().removeprefix("::")
    for name in (base, f"AscendC::{base}"):
        entry = catalog.get(name)
        if entry is not None and _has_members(catalog, entry):
            return entry
    short = base.rsplit("::", 1)[-1]
    for entry in catalog.lookup(short):
        if _has_members(catalog, entry):
            return entry
    return None


def _has_members(catalog: Catalog, entry: Entry) -> bool:
    """A class, or a type with members in the catalog (not ``uint32_t``)."""
    return entry.kind == "class" or (entry.kind == "type" and bool(catalog.children.get(entry.name)))


# The text before a declared name: ``TQue<TPosition::VECIN, 2> `` or ``TQue<...> inQueueX, `` (earlier declarators).
_DECL_HEAD = re.compile(
    r"(?P<type>(?:[A-Za-z_]\w*::)*[A-Za-z_]\w*)\s*(?P<targs><(?:[^<>;{}()]|<[^<>;{}()]*>)*>)?\s*[&*]*\s+"
    r"(?:[&*]*\s*[A-Za-z_]\w*\s*(?:\[[^\]]*\]\s*)?,\s*)*[&*]*\s*$"
)
# What follows a declared name: ``;``, ``=``, ``,``, ``)``, ``[``, ``{``, ``(`` (a constructor call) or ``:``.
_DECL_TAIL = re.compile(r"\s*(?:[;=,)\[{(:]|$)")
_AUTO_TAIL = re.compile(
    r"\s*=\s*(?:this\s*->\s*)?(?P<recv>[A-Za-z_]\w*)\s*(?:\.|->)\s*(?P<method>[A-Za-z_]\w*)"
)
_NOT_TYPES = {
    "return",
    "case",
    "goto",
    "else",
    "new",
    "delete",
    "throw",
    "using",
    "typedef",
    "namespace",
    "struct",
    "class",
}


def receiver_class(
    text: str, offset: int, receiver: str, catalog: Catalog, parsed: ParsedFile | None = None, _depth: int = 0
) -> Entry | None:
    """The catalog class of variable `receiver` used before `offset`: from the declaration the parse sees there
    (`parsed`, the document's last parse, while it still holds the text up to the receiver), else from the
    declaration the text scan finds nearest before `offset` (else any)."""
    if not receiver or receiver == "this" or _depth > 3:
        return None
    if parsed is not None:
        found = _declared_class(text, offset, receiver, catalog, parsed)
        if found is not None:
            return found
    return _scanned_class(text, offset, receiver, catalog, _depth)


def _declared_class(
    text: str, offset: int, receiver: str, catalog: Catalog, parsed: ParsedFile
) -> Entry | None:
    """The class of `receiver`'s declaration as the tree sees it at the receiver's last use before `offset`."""
    at = text.rfind(receiver, 0, offset)
    if at < 0 or parsed.text[: at + len(receiver)] != text[: at + len(receiver)]:
        return None  # the parse is of another text there
    byte = at if parsed.is_ascii else len(text[:at].encode("utf-8", errors="surrogatepass"))
    node = parsed.root.descendant_for_byte_range(byte, byte + 1)
    decl = lookup(parsed, receiver, node)
    if decl is None or decl.type_name in ("auto", ""):
        return None
    return resolve_class(catalog, decl.type_name)


def _scanned_class(text: str, offset: int, receiver: str, catalog: Catalog, _depth: int) -> Entry | None:
    """The text scan: only the places where the name occurs are examined (a regular expression over the whole file
    would cost tens of milliseconds on a 2,000-line kernel): each occurrence is a declaration when the text before
    it on its statement reads as a type (``TQue<...> q``, ``TQue<...> a, q``) or as ``auto``, and a declarator end
    follows."""
    candidates: list[tuple[int, Entry]] = []
    for m in re.finditer(rf"(?<![\w.>]){re.escape(receiver)}\b", text):
        start = m.start()
        stmt = max(
            text.rfind(";", max(0, start - 400), start),
            text.rfind("{", max(0, start - 400), start),
            text.rfind("}", max(0, start - 400), start),
            text.rfind("(", max(0, start - 400), start),
            max(0, start - 400) - 1,
        )
        head = text[stmt + 1 : start]
        entry: Entry | None = None
        if re.search(r"\bauto\s*[&*]*\s*$", head):
            tail = _AUTO_TAIL.match(text, m.end())
            if tail is not None:
                owner = receiver_class(text, start, tail.group("recv"), catalog, None, _depth + 1)
                method = catalog.member(owner.name, tail.group("method")) if owner else None
                if method is not None and method.overloads:
                    entry = resolve_class(catalog, method.overloads[0].returns)
        elif _DECL_TAIL.match(text, m.end()):
            decl = _DECL_HEAD.search(head)
            if decl is not None and decl.group("type") not in _NOT_TYPES:
                entry = resolve_class(catalog, decl.group("type"))
        if entry is not None:
            candidates.append((start, entry))
    if not candidates:
        return None
    before = [c for c in candidates if c[0] < offset]
    return (before[-1] if before else candidates[0])[1]


def resolve_name(
    text: str, offset: int, q: Qualified, catalog: Catalog, parsed: ParsedFile | None = None
) -> list[Entry]:
    """Catalog entries a (possibly qualified) name at `offset` may denote, best first."""
    if q.operator == "::":
        qual = q.qualifier
        for owner in (qual, f"AscendC::{qual}"):
            owner_entry = catalog.get(owner)
            if owner_entry is not None and owner_entry.kind == "class":
                member = catalog.member(owner, q.name)
                if member is not None:
                    return [member]
            entry = catalog.get(f"{owner}::{q.name}")
            if entry is not None:
                return [entry]
        return []
    if q.operator in (".", "->"):
        cls = receiver_class(text, offset, q.qualifier, catalog, parsed)
        if cls is not None:
            member = catalog.member(cls.name, q.name)
            return [member] if member is not None else []
        return [e for e in catalog.lookup(q.name) if e.kind == "method"][:5]
    found = catalog.lookup(q.name)
    # free names first (functions, classes, macros), then methods of any class
    found.sort(key=lambda e: (e.kind == "method", e.kind == "enumerator", e.name))
    return found[:5]


@dataclass(frozen=True)
class CallSite:
    callee: Qualified
    callee_offset: int  # offset of the callee name in the text
    active_argument: int  # 0-based index of the argument under the cursor
    arguments: tuple[str, ...] = ()  # the arguments typed so far (the last one possibly unfinished)


_OPEN = "([{<"
_CLOSE = ")]}>"


def enclosing_call(text: str, offset: int, window: int = 4000) -> CallSite | None:
    """The call whose argument list contains `offset`: scans back over balanced brackets, strings and comments."""
    lo = max(0, offset - window)
    segment = code_view(text[lo:offset])
    depth = 0
    i = len(segment) - 1
    while i >= 0:
        ch = segment[i]
        if ch in ")]}":
            depth += 1
        elif ch in "([{":
            if depth == 0:
                if ch != "(":
                    return None  # inside a brace initialiser or a subscript
                callee = _callee_before(segment, i)
                if callee is None:
                    return None
                name, name_start = callee
                line_start = segment.rfind("\n", 0, name_start) + 1
                q = qualified_before(
                    segment[line_start : name_start + len(name)], name_start - line_start, name
                )
                args = _split_arguments(segment[i + 1 :])
                return CallSite(q, lo + name_start, len(args) - 1, tuple(args))
            depth -= 1
        elif ch == ";" and depth == 0:
            return None
        i -= 1
    return None


def _split_arguments(args: str) -> list[str]:
    """Split an argument list at commas outside nested brackets and template argument lists (``Get<half, 2>(n)``)."""
    depth = 0
    angle = 0
    prev = ""
    out: list[str] = []
    current: list[str] = []
    for ch in args:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(depth - 1, 0)
        elif ch == "<" and (prev.isalnum() or prev == "_"):
            angle += 1
        elif ch == ">" and angle > 0 and prev != "-":
            angle -= 1
        if ch == "," and depth == 0 and angle == 0:
            out.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
        prev = ch
    out.append("".join(current).strip())
    return out


_CALLEE = re.compile(r"([A-Za-z_]\w*)\s*(?:<(?:[^<>()]|<[^<>()]*>)*>)?\s*$")
_NOT_CALLS = {
    "if",
    "for",
    "while",
    "switch",
    "return",
    "sizeof",
    "catch",
    "alignof",
    "decltype",
    "static_assert",
}


def _callee_before(segment: str, paren: int) -> tuple[str, int] | None:
    m = _CALLEE.search(segment[max(0, paren - 200) : paren])
    if not m or m.group(1) in _NOT_CALLS:
        return None
    start = max(0, paren - 200) + m.start(1)
    return m.group(1), start


def in_comment_or_string(line_before_cursor: str) -> bool:
    """Whether the end of `line_before_cursor` is inside a string, a character literal or a comment."""
    state = ""  # "", '"', "'", "//", "/*"
    i = 0
    text = line_before_cursor
    while i < len(text):
        ch = text[i]
        two = text[i : i + 2]
        if state == "":
            if two in ("//", "/*"):
                state = two
                i += 2
                continue
            if ch in "\"'":
                state = ch
        elif state in "\"'":
            if ch == "\\":
                i += 2
                continue
            if ch == state:
                state = ""
        elif state == "/*" and two == "*/":
            state = ""
            i += 2
            continue
        i += 1
    return state != ""


def uses_namespace(text: str, namespace: str = "AscendC") -> bool:
    return re.search(rf"\busing\s+namespace\s+{namespace}\s*;", text) is not None


def offset_of(text: str, line: int, character: int) -> int:
    """The code point offset of a 0-based (line, character) in `text`."""
    pos = 0
    for _ in range(line):
        nl = text.find("\n", pos)
        if nl < 0:
            return len(text)
        pos = nl + 1
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    return min(pos + character, end)
