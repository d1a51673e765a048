"""The stable signature of an error message: what stays when identifiers, numbers, types and paths are abstracted.

``no member named 'Softmax' in namespace 'AscendC'`` and ``no member named 'SyncFunc' in namespace 'AscendC'`` are
both ``no member named '<id>' in namespace 'AscendC'``; ``DataCopy of 100 elements x 2 B = 200 B`` is ``DataCopy of
<n> elements x <n> B = <n> B``. The rules are fixed here, in code, not read from the catalog: a signature must not
change when the catalog does, because stored repairs are found again by it.

Inside quotes: a bare identifier becomes ``<id>``, argument lists ``(...)``, template arguments ``<T>``, and the
last part of a qualified name ``<id>`` (``AscendC::Softmax`` -> ``AscendC::<id>``), except for the names kept as they
are (namespaces and the core classes of the API, which say where the error is, not what was written). Outside
quotes: numbers become ``<n>``, paths ``<path>``. Compiler suggestions (``; did you mean 'X'?``), our own notes
(``(reported in x.h:3)``), warning flags (``[-Wunused]``) and the quote style (g++ writes ‘ ’ in UTF-8 locales) do
not change the signature.
"""

from __future__ import annotations

import re

KEEP = frozenset(
    {
        "AscendC",
        "std",
        "optiling",
        "gert",
        "ge",
        "matmul",
        "platform_ascendc",
        "LocalTensor",
        "GlobalTensor",
        "TQue",
        "TQueBind",
        "TPipe",
        "TBuf",
        "TBufPool",
        "TPosition",
        "QuePosition",
        "HardEvent",
        "Matmul",
        "class",
        "struct",
        "const",
        "volatile",
        "unsigned",
        "signed",
        "namespace",
        "operator",
        "typename",
        "template",
        "auto",
        "void",
    }
)
_TYPES = frozenset(
    {
        "half",
        "float",
        "double",
        "bfloat16_t",
        "float16_t",
        "int",
        "long",
        "short",
        "char",
        "bool",
        "int8_t",
        "uint8_t",
        "int16_t",
        "uint16_t",
        "int32_t",
        "uint32_t",
        "int64_t",
        "uint64_t",
        "size_t",
        "float16",
        "bfloat16",
    }
)
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "`": "'"})
_SUFFIXES = re.compile(
    r"(?:;\s*did you mean [^?]*\??|\s*\(reported in [^)]*\)|\s*\[-W[\w=-]+\]|\s*\[-fpermissive\])\s*$"
)
_QUOTED = re.compile(r"'([^'\n]{0,400})'")
_IDENT = re.compile(r"[A-Za-z_~][A-Za-z0-9_]*")
_NUMBER = re.compile(r"(?<![A-Za-z_<])(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![A-Za-z_])")
_PATH = re.compile(
    r"(?:[A-Za-z]:)?(?:/[\w.+@-]+){2,}/?|\b[\w.-]+\.(?:cpp|cc|cxx|h|hpp|asc|cmake|json|log|o|so|py)\b"
)
_SPACES = re.compile(r"\s+")


def _collapse(text: str, open_: str, close: str, inside: str) -> str:
    """Each outermost `open_` ... `close` of `text` (nested ones within) replaced by `open_ + inside + close`."""
    out, depth = [], 0
    for ch in text:
        if ch == open_:
            if depth == 0:
                out.append(open_ + inside)
            depth += 1
        elif ch == close and depth > 0:
            depth -= 1
            if depth == 0:
                out.append(close)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def _template_args(text: str) -> str:
    """``LocalTensor<half>`` -> ``LocalTensor<T>`` (nested brackets once)."""
    return _collapse(text, "<", ">", "T")


def _arg_lists(text: str) -> str:
    """``Exp(LocalTensor<T>&, int)`` -> ``Exp(...)``."""
    return _collapse(text, "(", ")", "...")


def _quoted(inner: str) -> str:
    text = _arg_lists(_template_args(inner.strip()))
    if _IDENT.fullmatch(text):
        return text if text in KEEP else ("<T>" if text in _TYPES else "<id>")

    def ident(m: re.Match[str]) -> str:
        word = m.group(0)
        if word in KEEP:
            return word
        if word in _TYPES:
            return "<T>"
        if word == "T" or word == "...":
            return word
        return "<id>"

    text = _IDENT.sub(ident, text)
    text = _NUMBER.sub("<n>", text)
    return re.sub(r"(?:<id>\s*){2,}", "<id> ", text).strip()


def signature(message: str) -> str:
    """The signature of one error message (see the module docstring)."""
    text = message.translate(_QUOTES).strip()
    text = text.splitlines()[0] if text else ""
    prev = None
    while prev != text:
        prev = text
        text = _SUFFIXES.sub("", text)
    parts: list[str] = []
    last = 0
    for m in _QUOTED.finditer(text):
        parts.append(_outside(text[last : m.start()]))
        parts.append("'" + _quoted(m.group(1)) + "'")
        last = m.end()
    parts.append(_outside(text[last:]))
    return _SPACES.sub(" ", "".join(parts)).strip()


def _outside(text: str) -> str:
    text = _PATH.sub("<path>", text)
    return _NUMBER.sub("<n>", text)
