"""Builds per tiling key: a kernel that dispatches on its tiling key at compile time (`if constexpr
(TILING_KEY_IS(1))`, which CANN's NPU build allows because it compiles the kernel once per key with
`-DTILING_KEY_VAR=<key>`) is built by the simulator once per key as well: `TILING_KEY_VAR` is one more define of the
build (so each key has its own cache entry), and the run checks that its key is the build's (akgen_sim/tiling.h, the
glue's entry: SIM-TILING-KEY). Every other kernel keeps its one build for all keys (TILING_KEY_IS at run time, as in
CANN's CPU debug)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from akgen_lsp.sim.cxx_text import code_only

KEY_DEFINE = "TILING_KEY_VAR"
# `if constexpr (TILING_KEY_IS(k))`, `if constexpr (!TILING_KEY_IS(k))`, `else if constexpr ((TILING_KEY_IS(k)))`
_CONSTEXPR_KEY = re.compile(r"\bconstexpr\s*\(\s*[!(\s]*TILING_KEY_IS\s*\(")
_KEY_IS = re.compile(r"\bTILING_KEY_IS\s*\(\s*(\d+)\s*[uUlL]*\s*\)")


def _texts(sources: Sequence[Path]) -> list[str]:
    out = []
    for s in sources:
        try:
            out.append(code_only(Path(s).read_text(encoding="utf-8", errors="replace")))
        except OSError:
            continue
    return out


def needs_key_build(sources: Sequence[Path]) -> bool:
    """Whether a kernel source tests its tiling key in a constant expression (`if constexpr (TILING_KEY_IS(k))`):
    then it compiles only once per key, as in CANN's NPU build."""
    return any(_CONSTEXPR_KEY.search(t) for t in _texts(sources))


def key_test_site(sources: Sequence[Path]) -> tuple[Path, int]:
    """Where the sources first test their tiling key in `if constexpr` (the path and 1-based line; the first source's
    line 1 when none does)."""
    for s in sources:
        text = "\n".join(_texts([s]))
        m = _CONSTEXPR_KEY.search(text)
        if m is not None:
            return Path(s), text.count("\n", 0, m.start()) + 1
    return Path(sources[0]), 1


def keys_tested(sources: Sequence[Path]) -> list[int]:
    """The tiling keys the sources test with TILING_KEY_IS, in the order they first appear."""
    keys: list[int] = []
    for t in _texts(sources):
        keys.extend(int(k) for k in _KEY_IS.findall(t) if int(k) not in keys)
    return keys


def keyed_defines(defines: Mapping[str, str], key: int) -> dict[str, str]:
    """`defines` with the build's tiling key (what CANN's per-key build passes as -DTILING_KEY_VAR=<key>UL)."""
    return {**defines, KEY_DEFINE: f"{int(key)}ULL"}
