"""AKG104 arch-availability: an Ascend C API used on an arch that does not have it.

## What it does
Reports a call of an API family that exists only on Ascend 950 (``__NPU_ARCH__`` 3510, dav-3510) when the target
arch is another one:

- the register programming model ``AscendC::MicroAPI::*`` / ``AscendC::Reg::*`` (RegTensor, MaskReg, the
  vector-register ops of CANN 9.0);
- the SIMT API ``AscendC::Simt::*`` (CANN 9.0's thread-level API);
- a catalog entry marked for 3510 only (``archs = ["3510"]``).

The target arch is the ``arch`` setting, or what the file and project say (a file under ``arch35/`` or one
that uses these APIs is Ascend 950 code; a CMake ``CMAKE_ASC_ARCHITECTURES``): see ``akgen info``. So the rule
speaks when the setting or the project names another arch (``arch = "Ascend910B2"`` in ``akgen.toml``, a CMake
``dav-2201`` build) and the file uses a 950-only API. A call inside a preprocessor branch (``#if
__NPU_ARCH__ == 3510``) is left alone, since the build picks the branch per arch.

## Why is this bad?
The headers declare these names only when compiling for 3510: on an Atlas A2/A3 (2201) or 310P (2002) build the
kernel does not compile (``no member named 'MicroAPI' in namespace 'AscendC'``), or the op has no kernel for the
target.

## Example
```cpp
// arch = "Ascend910B2"
AscendC::MicroAPI::RegTensor<float> vreg;
AscendC::MicroAPI::Add(vDst, vA, vB, mask);
```

Use instead:
```cpp
AscendC::Add(dstLocal, aLocal, bLocal, count);   // the LocalTensor form every arch has
```
or set ``arch = "Ascend950PR"`` when the kernel is written for Ascend 950.

## Fix safety
No automatic fix.

## References
- asc-devkit CHANGELOG (9.0.0: Reg / MicroAPI and SIMT for Ascend 950PR); ``include/basic_api/reg_compute``,
  ``include/simt_api``
"""

from __future__ import annotations

from collections.abc import Iterator

from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.kernel_model import kernel_model
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import calls
from akgen_lsp.findings import Finding, Severity

CODE = "AKG104"
ONLY_950 = {"MicroAPI": "the register API (MicroAPI)", "Reg": "the register API (Reg)", "Simt": "the SIMT API"}


def check(ctx: LintContext) -> Iterator[Finding]:
    npu = ctx.arch.npu_arch
    if npu == "3510":
        return
    model = None
    for call in calls(ctx.parsed, ctx.catalog):
        what = _only_950(ctx, call.qualifier, call.resolved)
        if what is None or call.user_defined:
            continue
        model = model or kernel_model(ctx)
        if model.in_preprocessor_branch(call.node):
            continue
        yield Finding(CODE, f"'{call.text}' is {what}, which only Ascend 950 (__NPU_ARCH__ 3510, dav-3510) has; the "
                            f"target is {ctx.arch.name} (__NPU_ARCH__ {npu}): use the LocalTensor API, or target "
                            "Ascend950PR (arch setting) if this kernel is for Ascend 950",
                      call.name_span, Severity.ERROR, "akgen-lint", "device_restriction",
                      data={"name": call.text, "arch": ctx.arch.name, "npu_arch": npu})


def _only_950(ctx: LintContext, qualifier: str | None, resolved: str | None) -> str | None:
    if qualifier:
        parts = qualifier.split("::")
        if parts[0] == "AscendC" and len(parts) > 1 and parts[1] in ONLY_950:
            return ONLY_950[parts[1]]
        if parts[0] in ONLY_950 and "AscendC" in ctx.text:
            return ONLY_950[parts[0]]
    if resolved:
        entry = ctx.catalog.get(resolved)
        if entry is not None and [str(a) for a in entry.extra.get("archs", ())] == ["3510"]:
            return "an Ascend 950 API"
    return None


RULE = Rule(CODE, "arch-availability", "An Ascend C API used on an arch that does not have it (Ascend 950 only).",
            check)
