"""AKG161 GET_TILING_DATA (off by default): the tiling macro used where the build does not define it.

## What it does
Reports ``GET_TILING_DATA(...)`` (and ``GET_TILING_DATA_WITH_STRUCT``, ``GET_TILING_DATA_MEMBER``) unless the
file defines the macro itself. Enable it (``lint.extend_select = ["AKG161"]``) for NPUKernelBench's kernel-only
mode, where the model writes only the kernel and the harness provides no tiling header.

## Why is this bad?
The macro comes from the tiling header that msopgen generates for a custom-op project. In kernel-only mode that
header does not exist and the build fails with ``use of undeclared identifier 'GET_TILING_DATA'``; the
benchmark's prompt forbids it for that reason.

## Example
```cpp
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling) {
    GET_TILING_DATA(tilingData, tiling);
    KernelAdd op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}
```

Use instead:
```cpp
constexpr uint32_t TOTAL_LENGTH = 8 * 2048;   // the case's shape, hard-coded in kernel-only mode
constexpr uint32_t TILE_NUM = 8;
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling) {
    KernelAdd op;
    op.Init(x, y, z, TOTAL_LENGTH, TILE_NUM);
    op.Process();
}
```

## Fix safety
No automatic fix: the values the tiling carried have to come from the task.

## References
- NPUKernelBench prompt rules (no ``GET_TILING_DATA`` in kernel-only mode); Ascend C custom-op tiling
  (``BEGIN_TILING_DATA_DEF``, ``GET_TILING_DATA``)
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import undefined_macro_uses
from akgen_lsp.findings import Finding, Severity

CODE = "AKG161"
NAMES = (
    "GET_TILING_DATA",
    "GET_TILING_DATA_WITH_STRUCT",
    "GET_TILING_DATA_MEMBER",
    "GET_TILING_DATA_PTR_WITH_STRUCT",
)


_CALL_RE = re.compile(r"(?<![\w.>:])(" + "|".join(sorted(NAMES, key=len, reverse=True)) + r")\s*\(")


def check(ctx: LintContext) -> Iterator[Finding]:
    if "GET_TILING_DATA" not in ctx.text:
        return
    for name, span in undefined_macro_uses(ctx.parsed, _CALL_RE):
        yield Finding(
            code=CODE,
            message=(
                f"'{name}' is not available in kernel-only mode (no generated tiling header); "
                "hard-code the tiling values or pass them as kernel arguments"
            ),
            span=span,
            severity=Severity.ERROR,
            source="akgen-lint",
            error_class="tiling",
            data={"name": name},
        )


RULE = Rule(
    CODE,
    "get-tiling-data",
    "GET_TILING_DATA used (NPUKernelBench kernel-only mode has no tiling header).",
    check,
    default_enabled=False,
)
