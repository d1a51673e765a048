"""Code the fixes write: rewrites of Ascend C calls shared by the linter's fixes and the repair layer's."""

from __future__ import annotations

import re


def datacopy_pad(dst: str, src: str, byte_len: str, element: str, qualifier: str, gm_to_ub: bool) -> str:
    """``DataCopyPad`` of `byte_len` bytes in one block, in place of a ``DataCopy(dst, src, count)`` whose length is
    not a whole number of 32-byte blocks: GM to UB also takes a ``DataCopyPadExtParams<element>`` without padding.
    `qualifier` is ``"AscendC::"`` when the original call was written qualified, else ``""``."""
    q = qualifier
    params = f"{q}DataCopyExtParams{{1, {byte_len}, 0, 0, 0}}"
    if gm_to_ub:
        return f"{q}DataCopyPad({dst}, {src}, {params}, {q}DataCopyPadExtParams<{element}>{{false, 0, 0, 0}})"
    return f"{q}DataCopyPad({dst}, {src}, {params})"


_ATOM = re.compile(r"[\w.:]+")  # a name, a member, a number


def _wrapped(text: str) -> bool:
    """Whether `text` is one parenthesised expression: ``(a + b)``, not ``(a) + (b)``."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i < len(text) - 1:
            return False
    return True


def _plain(text: str) -> bool:
    """An atom, or an atom negated: needs no parentheses after a unary minus is removed."""
    t = text[1:].strip() if text.startswith("-") else text
    return bool(_ATOM.fullmatch(t))


def negated(expr: str) -> str:
    """`expr` negated, undoing a negation already written: ``-(v)`` -> ``v``, ``-(-mean)`` -> ``-mean``,
    ``-mean`` -> ``mean``, ``v`` -> ``-v``, ``a + b`` -> ``-(a + b)``."""
    e = expr.strip()
    if e.startswith("-") and not e.startswith("--"):
        inner = e[1:].strip()
        if _ATOM.fullmatch(inner):
            return inner
        if _wrapped(inner):
            core = inner[1:-1].strip()
            return core if _plain(core) else inner
    if _ATOM.fullmatch(e) or _wrapped(e):
        return f"-{e}"
    return f"-({e})"
