"""The library's compile-time booleans (AscendC::BoolInst, TrueType, FalseType: akgen_sim/types.h), as ops-nn's conv3d
backprop kernels use them to test for a member template (SFINAE), with IsSameType."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim import run_manifest

from .conftest import needs_gxx

pytestmark = needs_gxx

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
struct WithMember { template <typename U> struct Impl {}; };
struct WithoutMember {};
template <typename T, typename U> struct HasImpl {
    template <typename C> static auto check(int) -> decltype(std::declval<typename C::template Impl<U>>(), TrueType());
    template <typename C> static FalseType check(...);
    static constexpr bool value = IsSameType<decltype(check<T>(0)), TrueType>::value;
};
extern "C" __global__ __aicore__ void boolinst(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t*)y, 8);
    yGm.SetValue(0, HasImpl<WithMember, float>::value);
    yGm.SetValue(1, HasImpl<WithoutMember, float>::value);
    yGm.SetValue(2, TrueType::value);
    yGm.SetValue(3, FalseType::Type::value);
    yGm.SetValue(4, BoolInst<(sizeof(int32_t) == 4)>::value);
}
"""


def test_bool_inst_and_member_detection(write_manifest, tmp_path: Path) -> None:
    src = tmp_path / "boolinst.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    m = write_manifest(src, "boolinst", [
        {"name": "y", "output": "y.npy", "dtype": "int32", "shape": [5]},
        {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}])
    res = run_manifest(m, tmp_path / "out")
    assert res.status == "ok", [f.message for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["y"]), [1, 0, 1, 0, 1])
