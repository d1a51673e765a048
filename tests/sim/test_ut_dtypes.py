"""The DTYPE_<NAME> types a kernel UT leaves out (akgen_lsp/sim/ut_dtypes.py): names the kernel uses that the UT does
not define, supplied from the op definition as CANN's device build would."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.sim.ut_dtypes import kernel_dtype_names, missing_dtype_defines, opdef_dtypes, ut_dtype_values


def _op(root: Path, kernel: str, cmake: str, opdef: str, header: str = "") -> Path:
    op = root / "act" / "hgrad"
    (op / "op_kernel").mkdir(parents=True)
    (op / "op_host").mkdir()
    ut = op / "tests" / "ut" / "op_kernel"
    ut.mkdir(parents=True)
    (op / "op_kernel" / "hgrad.cpp").write_text(kernel, encoding="utf-8")
    (ut / "CMakeLists.txt").write_text(cmake, encoding="utf-8")
    (op / "op_host" / "hgrad_def.cpp").write_text(opdef, encoding="utf-8")
    if header:
        (ut / "hgrad_tiling_def.h").write_text(header, encoding="utf-8")
    return op


KERNEL = """
#ifndef DTYPE_Z
#define DTYPE_Z float  // the kernel's own default: not missing
#endif
// DTYPE_COMMENTED in a comment is no use
extern "C" __global__ __aicore__ void hgrad(GM_ADDR result, GM_ADDR grad, GM_ADDR y, GM_ADDR w, GM_ADDR t)
{
    KernelHGrad<DTYPE_GRAD, DTYPE_Y, DTYPE_Z> op;
}
"""
OPDEF = """
static const std::vector<ge::DataType> yTypes = {ge::DT_BF16, ge::DT_FLOAT16, ge::DT_FLOAT};
this->Input("result").ParamType(REQUIRED).DataType({ge::DT_BF16, ge::DT_FLOAT16, ge::DT_FLOAT});
this->Input("grad")
    .ParamType(REQUIRED)
    .DataType({ge::DT_BF16, ge::DT_FLOAT16, ge::DT_FLOAT})
    .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
this->Output("y").ParamType(REQUIRED).DataType(yTypes);
"""


def test_the_names_the_kernel_uses_and_the_ut_defines(tmp_path: Path) -> None:
    op = _op(tmp_path, KERNEL, 'AddOpTestCase(hgrad "ascend910B1" "-DDTYPE_SELF=float -DDTYPE_OUT=float32_t")\n'
             '# AddOpTestCase(hgrad "ascend910B1" "-DDTYPE_GRAD=half")\n', OPDEF,
             "#define DTYPE_RESULT float_t\n")
    assert kernel_dtype_names(op) == {"GRAD", "Y"}
    assert ut_dtype_values(op / "tests" / "ut" / "op_kernel") == {"SELF": "float", "OUT": "float32_t",
                                                                  "RESULT": "float_t"}
    assert opdef_dtypes(op) == {n: ["bfloat16_t", "half", "float"] for n in ("RESULT", "GRAD", "Y")}
    # the UT's own defines all say float (in three spellings), which grad and y support
    assert missing_dtype_defines(op, op / "tests" / "ut" / "op_kernel") == {"DTYPE_GRAD": "float",
                                                                            "DTYPE_Y": "float"}


def test_the_column_of_the_uts_defines_else_the_first(tmp_path: Path) -> None:
    opdef = OPDEF.replace('this->Input("result").ParamType(REQUIRED).DataType({ge::DT_BF16, ge::DT_FLOAT16, '
                          'ge::DT_FLOAT});', 'this->Input("result").DataType({ge::DT_INT8, ge::DT_INT16, ge::DT_INT32});')
    op = _op(tmp_path / "a", KERNEL, 'AddOpTestCase(hgrad "ascend910B1" "-DDTYPE_RESULT=int16_t -DDTYPE_X=float")\n',
             opdef)
    # two types given (no one type): the column where the definition's own parameter agrees (result: int16_t)
    assert missing_dtype_defines(op, op / "tests" / "ut" / "op_kernel") == {"DTYPE_GRAD": "half", "DTYPE_Y": "half"}
    bare = _op(tmp_path / "b", KERNEL, 'AddOpTestCase(hgrad "ascend910B1" "")\n', OPDEF)
    assert missing_dtype_defines(bare, bare / "tests" / "ut" / "op_kernel") == {"DTYPE_GRAD": "bfloat16_t",
                                                                                "DTYPE_Y": "bfloat16_t"}
    complete = _op(tmp_path / "c", KERNEL, 'AddOpTestCase(hgrad "ascend910B1" "-DDTYPE_GRAD=half -DDTYPE_Y=half")\n',
                   OPDEF)
    assert missing_dtype_defines(complete, complete / "tests" / "ut" / "op_kernel") == {}
