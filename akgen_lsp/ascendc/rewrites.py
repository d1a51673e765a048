"""Code the fixes write: rewrites of Ascend C calls shared by the linter's fixes and the repair layer's."""

from __future__ import annotations


def datacopy_pad(dst: str, src: str, byte_len: str, element: str, qualifier: str, gm_to_ub: bool) -> str:
    """``DataCopyPad`` of `byte_len` bytes in one block, in place of a ``DataCopy(dst, src, count)`` whose length is
    not a whole number of 32-byte blocks: GM to UB also takes a ``DataCopyPadExtParams<element>`` without padding.
    `qualifier` is ``"AscendC::"`` when the original call was written qualified, else ``""``."""
    q = qualifier
    params = f"{q}DataCopyExtParams{{1, {byte_len}, 0, 0, 0}}"
    if gm_to_ub:
        return f"{q}DataCopyPad({dst}, {src}, {params}, {q}DataCopyPadExtParams<{element}>{{false, 0, 0, 0}})"
    return f"{q}DataCopyPad({dst}, {src}, {params})"
