"""AKG162 DTYPE macros (off by default): ``DTYPE_X``-style type macros used where the build does not define them.

## What it does
Reports every ``DTYPE_<NAME>`` (and ``ORIG_DTYPE_<NAME>``) in code, outside comments and strings, unless the file
defines it itself with ``#define``. Enable it (``lint.extend_select = ["AKG162"]``) for NPUKernelBench's
kernel-only mode.

## Why is this bad?
A custom-op build defines one ``DTYPE_<INPUT>`` macro per input and output from the OpDef. In kernel-only mode
nothing defines them and the kernel fails with ``unknown type name 'DTYPE_X'``; the benchmark's prompt forbids
them for that reason.

## Example
```cpp
KernelAdd<DTYPE_X, DTYPE_Y> op;
```

Use instead:
```cpp
KernelAdd<half, half> op;     // the case's dtypes, written out
```

## Fix safety
No automatic fix: the dtype is a property of the task's case, not of the code.

## References
- NPUKernelBench prompt rules (no ``DTYPE_X`` in kernel-only mode); msopgen custom-op projects
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import undefined_macro_uses
from akgen_lsp.findings import Finding, Severity

CODE = "AKG162"
_DTYPE_RE = re.compile(r"(?<![\w])(?:ORIG_)?DTYPE_[A-Z0-9_]+(?!\w)")


def check(ctx: LintContext) -> Iterator[Finding]:
    if "DTYPE_" not in ctx.text:
        return
    for name, span in undefined_macro_uses(ctx.parsed, _DTYPE_RE):
        yield Finding(
            code=CODE,
            message=(
                f"'{name}' is defined only by the custom-op build; in kernel-only mode write the type "
                "(half, float, bfloat16_t) or make it a template parameter"
            ),
            span=span,
            severity=Severity.ERROR,
            source="akgen-lint",
            error_class="dtype",
            data={"name": name},
        )


RULE = Rule(
    CODE,
    "dtype-macro",
    "DTYPE_X macros used (NPUKernelBench kernel-only mode does not define them).",
    check,
    default_enabled=False,
)
