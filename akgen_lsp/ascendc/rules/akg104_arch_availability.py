"""AKG104 arch-availability: an Ascend C API used on an arch that does not have it.

## What it does
Reports a call of an API family that exists only on Ascend 950 (``__NPU_ARCH__`` 3510, dav-3510) when the target
arch is another one:

- the register programming model ``AscendC::MicroAPI::*`` / ``AscendC::Reg::*`` (RegTensor, MaskReg, the
  vector-register ops of CANN 9.0);
- the SIMT API ``AscendC::Simt::*`` (CANN 9.0's thread-level API);
- a catalog entry marked for 3510 only (``archs = ["3510"]``).

And the reverse: on an Ascend 950 target (``__NPU_ARCH__`` 3510), a call of an API that CANN's API reference
documents for Atlas A2/A3 (910B, 910_93) and not for Ascend 950 (its "产品支持情况" section; e.g.
``SetSaturationFlag``, ``MmadWithSparse``, ``LoadDataWithSparse``, ``SetLoadDataBoundary``, the A2/A3 C API
``asc_set_mask_count``), when the headers declare no 3510 form of the name (generated into
``catalog/names/asc_devkit_support.tsv`` by ``benchmarks/catalog_coverage.py --write``).

The target arch is the ``arch`` setting, or what the file and project say (a file under ``arch35/`` or one
that uses these APIs is Ascend 950 code; a CMake ``CMAKE_ASC_ARCHITECTURES``): see ``akgen info``. So the rule
speaks when the setting or the project names another arch (``arch = "Ascend910B2"`` in ``akgen.toml``, a CMake
``dav-2201`` build) and the file uses a 950-only API. A call inside a preprocessor branch (``#if
__NPU_ARCH__ == 3510``) is left alone, since the build picks the branch per arch.

## Why is this bad?
The headers declare these names only when compiling for 3510: on an Atlas A2/A3 (2201) or 310P (2002) build the
kernel does not compile (``no member named 'MicroAPI' in namespace 'AscendC'``), or the op has no kernel for the
target.

## Examples
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

```cpp
// a kernel under arch35/ (Ascend 950PR)
AscendC::SetSaturationFlag(1);   // documented for Atlas A2/A3 only
```

Use instead: leave the call out of the 950 kernel, or guard it:
```cpp
#if __NPU_ARCH__ != 3510
AscendC::SetSaturationFlag(1);
#endif
```

## Fix safety
No automatic fix.

## References
- asc-devkit CHANGELOG (9.0.0: Reg / MicroAPI and SIMT for Ascend 950PR); ``include/basic_api/reg_compute``,
  ``include/simt_api``
- asc-devkit ``docs/zh/api``: each API page's "产品支持情况" (product support)
"""

from __future__ import annotations

from collections.abc import Iterator

from akgen_lsp.ascendc.api_facts import PRODUCT_NAME
from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.kernel_model import kernel_model
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import calls
from akgen_lsp.findings import Finding, Severity

CODE = "AKG104"
ONLY_950 = {
    "MicroAPI": "the register API (MicroAPI)",
    "Reg": "the register API (Reg)",
    "Simt": "the SIMT API",
}


def check(ctx: LintContext) -> Iterator[Finding]:
    npu = ctx.arch.npu_arch
    if npu == "3510":
        yield from _not_on_950(ctx)
        return
    model = None
    for call in calls(ctx.parsed, ctx.catalog):
        what = _only_950(ctx, call.qualifier, call.resolved)
        if what is None or call.user_defined:
            continue
        model = model or kernel_model(ctx)
        if model.in_preprocessor_branch(call.node):
            continue
        yield Finding(
            CODE,
            f"'{call.text}' is {what}, which only Ascend 950 (__NPU_ARCH__ 3510, dav-3510) has; the "
            f"target is {ctx.arch.name} (__NPU_ARCH__ {npu}): use the LocalTensor API, or target "
            "Ascend950PR (arch setting) if this kernel is for Ascend 950",
            call.name_span,
            Severity.ERROR,
            "akgen-lint",
            "device_restriction",
            data={"name": call.text, "arch": ctx.arch.name, "npu_arch": npu},
        )


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


def _not_on_950(ctx: LintContext) -> Iterator[Finding]:
    """Calls of APIs that CANN's reference documents for Atlas A2/A3 and not for Ascend 950, on a 950 target."""
    model = None
    for call in calls(ctx.parsed, ctx.catalog):
        if call.user_defined or call.receiver is not None:
            continue
        what = _only_before_950(ctx, call.short, call.resolved)
        if what is None:
            continue
        model = model or kernel_model(ctx)
        if model.in_preprocessor_branch(call.node):
            continue
        yield Finding(
            CODE,
            f"'{call.text}' is not available on {ctx.arch.name} (__NPU_ARCH__ 3510): CANN's API "
            f"reference lists it for {what} only; use the Ascend 950 form of this step (the "
            "register API or its documented replacement), guard the call with "
            "#if __NPU_ARCH__ != 3510, or target an A2/A3 arch (arch setting) if this kernel "
            "is not for Ascend 950",
            call.name_span,
            Severity.ERROR,
            "akgen-lint",
            "device_restriction",
            data={"name": call.text, "arch": ctx.arch.name, "npu_arch": "3510", "documented_for": what},
        )


def _only_before_950(ctx: LintContext, short: str, resolved: str | None) -> str | None:
    """The products the reference documents `short` for, when that is Atlas A2/A3 and not Ascend 950 and the
    headers declare no Ascend 950 form of the name (a register-API overload, a 3510 guard); else None."""
    if resolved is None or resolved not in (f"AscendC::{short}", short):
        return None  # a name of another namespace (MicroAPI::Add) is not the page's API
    support = ctx.catalog.support.get(short)
    if support is None:
        return None
    yes, no = support
    if "950" not in no or "950" in yes or not yes & {"910b", "A3"}:
        return None
    known = ctx.catalog.names.get(resolved)
    if known is not None and ("3510" in known.archs or "reg_compute" in known.header):
        return None  # the headers declare it for 3510 too
    products = [PRODUCT_NAME.get(p, p) for p in sorted(yes) if p in PRODUCT_NAME]
    return ", ".join(products) or ", ".join(sorted(yes))


RULE = Rule(
    CODE,
    "arch-availability",
    "An Ascend C API used on an arch that does not have it (950 only, or A2/A3 only on 950).",
    check,
)
