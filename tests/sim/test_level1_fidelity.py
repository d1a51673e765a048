"""Corner cases that NPUKernelBench level1 reference answers hit, checked against numpy (kernels/level1_fidelity.cpp):
the operand size check of the mask + repeat form counts only the span the mask touches (CANN's
CalculateVectorMaxOffset), in normal and counter mode; WholeReduceMax in counter mode with the mask from
SetVectorMask; DataCopyPad's dummy tail; a TBuf without memory fails where its tensor is used, not at Get; and two
integer attributes read through GetAttrPointer<uint32_t> on the host."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "level1_fidelity.cpp"
N = 128


def inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    a = rng.uniform(-4, 4, N).astype(np.float32)
    a[3] = -9.5  # the largest magnitude among the first 10, and the largest value is elsewhere
    a[6] = 7.25
    b = np.full(N, -3.0, np.float32)
    return a, b


def run(write_manifest, tmp_path: Path, mode: int, checks: str = "npu") -> tuple[SimResult, np.ndarray]:
    a, b = inputs()
    m = write_manifest(SRC, "level1_fidelity", [
        {"name": "a", "input": a},
        {"name": "b", "input": b},
        {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [N]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
    ], checks=checks)
    res = run_manifest(m, tmp_path / f"o{mode}", confine=False)
    return res, (np.load(res.outputs["z"]) if res.status == "ok" else np.zeros(0, np.float32))


def errors(res: SimResult) -> list[str]:
    return [f"{f.code}: {f.message}" for f in res.findings if f.severity is Severity.ERROR]


def test_mask_shorter_than_a_repeat_needs_only_the_blocks_it_touches(write_manifest, tmp_path: Path) -> None:
    """Abs with mask 8 on a 32-byte tensor (Isamax's tail): one block is touched, so it fits."""
    res, z = run(write_manifest, tmp_path, 0)
    assert res.status == "ok", errors(res)
    a, b = inputs()
    np.testing.assert_array_equal(z[:8], np.abs(a[:8]))
    np.testing.assert_array_equal(z[8:], b[8:])


def test_mask_past_the_tensor_still_fails_with_cann_wording(write_manifest, tmp_path: Path) -> None:
    """Mask 9: the 9th float lies in a second block, 36 bytes are needed of 32 (a CPU-debug check: cpu-debug mode)."""
    res, _ = run(write_manifest, tmp_path, 1, checks="cpu-debug")
    assert res.status == "runtime_error"
    f = next(f for f in res.findings if f.code == "SIM-UB-SIZE")
    assert "at least 36 bytes" in f.message and "only 32 bytes" in f.message
    assert f.span.line == marker_line(SRC, "SIM-UB-SIZE")


def test_pair_reduce_dst_needs_only_the_pairs_the_mask_enables(write_manifest, tmp_path: Path) -> None:
    res, z = run(write_manifest, tmp_path, 9)
    assert res.status == "ok", errors(res)
    a, b = inputs()
    np.testing.assert_array_equal(z[:8], a[:16:2] + a[1:16:2])
    np.testing.assert_array_equal(z[8:], b[8:])


def test_counter_mode_checks_full_repeats_then_the_tail(write_manifest, tmp_path: Path) -> None:
    """70 floats in counter mode on a 72-float tensor: 256 B for the full repeat and 24 B for the tail."""
    res, z = run(write_manifest, tmp_path, 2)
    assert res.status == "ok", errors(res)
    a, b = inputs()
    np.testing.assert_array_equal(z[:70], np.abs(a[:70]))
    np.testing.assert_array_equal(z[70:72], a[70:72])
    np.testing.assert_array_equal(z[72:], b[72:])


def test_whole_reduce_max_in_counter_mode_with_the_register_mask(write_manifest, tmp_path: Path) -> None:
    res, z = run(write_manifest, tmp_path, 3)
    assert res.status == "ok", errors(res)
    a, _ = inputs()
    want = int(np.argmax(a[:10]))
    assert z[0] == a[:10].max() and z[8] == a[:10].max()
    assert z[1:2].view(np.uint32)[0] == want and z[9:10].view(np.uint32)[0] == want


def test_datacopypad_dummy_tail_holds_the_first_element(write_manifest, tmp_path: Path) -> None:
    """12 bytes copied with no left/right padding: elements 3..7 of the 32-byte block are the block's first element
    (documented for GM -> UB DataCopyPad), not paddingValue (Isamin's cross-core FLT_MAX fill relies on it)."""
    res, z = run(write_manifest, tmp_path, 4)
    assert res.status == "ok", errors(res)
    a, b = inputs()
    np.testing.assert_array_equal(z[:3], a[5:8])
    np.testing.assert_array_equal(z[3:8], np.full(5, a[5], np.float32))
    np.testing.assert_array_equal(z[8:], b[8:])


def test_tbuf_without_memory_warns_at_get(write_manifest, tmp_path: Path) -> None:
    """TanhMath's float path calls Get on a TBuf it only initialises for half; the tensor is never used."""
    res, z = run(write_manifest, tmp_path, 5)
    assert res.status == "ok", errors(res)
    assert [f.code for f in res.findings if f.severity is Severity.WARNING] == ["SIM-TBUF-NOINIT"]
    np.testing.assert_array_equal(z, inputs()[1])


def test_tbuf_without_memory_fails_where_its_tensor_is_used(write_manifest, tmp_path: Path) -> None:
    res, _ = run(write_manifest, tmp_path, 6)
    assert res.status == "runtime_error"
    f = next(f for f in res.findings if f.code == "SIM-TENSOR-UNINIT")
    assert f.span.line == marker_line(SRC, "SIM-TENSOR-UNINIT")


TILING = """
#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PairTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
TILING_DATA_FIELD_DEF(uint32_t, incx);
TILING_DATA_FIELD_DEF(uint32_t, ub);
TILING_DATA_FIELD_DEF(uint32_t, l1);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Pair, PairTilingData)
}  // namespace optiling
"""

def test_tbuf_get_of_zero_elements_fails_as_cann_asserts(write_manifest, tmp_path: Path) -> None:
    res, _ = run(write_manifest, tmp_path, 7, checks="cpu-debug")  # CANN's CPU debug asserts; the NPU does not
    assert res.status == "runtime_error"
    f = next(f for f in res.findings if f.code == "SIM-TBUF-LEN")
    assert "buffer length is 0, which should be larger than 0" in f.message
    assert f.span.line == marker_line(SRC, "SIM-TBUF-LEN")


def test_tbuf_get_off_the_32_byte_grid_only_warns(write_manifest, tmp_path: Path) -> None:
    res, z = run(write_manifest, tmp_path, 8)
    assert res.status == "ok", errors(res)
    warned = [f for f in res.findings if f.code == "SIM-TBUF-LEN"]
    assert len(warned) == 1 and warned[0].severity is Severity.WARNING and "times of 32 Bytes" in warned[0].message
    assert z[0] == 2.5


HOST = """
#include "pair_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
namespace optiling {
static ge::graphStatus PairTiling(gert::TilingContext* context)
{
    const uint32_t* n = context->GetAttrs()->GetAttrPointer<uint32_t>(0);
    const uint32_t* incx = context->GetAttrs()->GetAttrPointer<uint32_t>(1);
    PairTilingData tiling;
    tiling.set_n(*n);
    tiling.set_incx(*incx);
    uint64_t ub = 0, l1 = 0;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
    tiling.set_ub(static_cast<uint32_t>(ub));
    tiling.set_l1(static_cast<uint32_t>(l1));
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class Pair : public OpDef {
public:
    explicit Pair(const char* name) : OpDef(name)
    {
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Attr("n").AttrType(OPTIONAL).Int(0);
        this->Attr("incx").AttrType(OPTIONAL).Int(1);
        this->AICore().SetTiling(optiling::PairTiling);
    }
};
OP_ADD(Pair);
}  // namespace ops
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void pair(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t*)y, 8);
    yGm.SetValue(0, t.n);
    yGm.SetValue(1, t.incx);
    yGm.SetValue(2, t.ub);
    yGm.SetValue(3, t.l1);
}
"""


@pytest.mark.parametrize(("n", "incx"), [(2046, 1), (10, 3)])
def test_host_attr_pointers_of_a_narrower_integer_stay_distinct(write_manifest, tmp_path: Path, n: int,
                                                                incx: int) -> None:
    """Isamax reads attributes 0 and 1 as GetAttrPointer<uint32_t> and dereferences both afterwards. The platform
    answers UB and L1 sizes less the 256 bytes CANN keeps for KFC on Ascend910B (Arange's UB/10 tiles fit then)."""
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    host = tmp_path / "op_host" / "pair.cpp"
    host.write_text(HOST, encoding="utf-8")
    (tmp_path / "op_host" / "pair_tiling.h").write_text(TILING, encoding="utf-8")
    kernel = tmp_path / "op_kernel" / "pair.cpp"
    kernel.write_text(KERNEL, encoding="utf-8")
    m = write_manifest(kernel, "pair", [
        {"name": "y", "output": "y.npy", "dtype": "int32", "shape": [8]},
        {"name": "workspace", "workspace_bytes": 0},
        {"name": "tiling", "tiling": {"host": str(host), "attrs": {"n": n, "incx": incx}}},
    ])
    data = json.loads(m.read_text())
    del data["block_dim"]
    m.write_text(json.dumps(data))
    res = run_manifest(m, tmp_path / "o", confine=False)
    assert res.status == "ok", errors(res)
    assert np.load(res.outputs["y"])[:4].tolist() == [n, incx, 196608 - 256, 524288 - 256]


DIMS_HOST = """
#include "dims_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus DimsTiling(gert::TilingContext* context)
{
    const int64_t* dims = context->GetInputTensor(0)->GetData<int64_t>();
    if (dims == nullptr) {
        return ge::GRAPH_FAILED;
    }
    DimsTilingData tiling;
    tiling.set_n(static_cast<uint32_t>(dims[0] * dims[1]));
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class Dims : public OpDef {
public:
    explicit Dims(const char* name) : OpDef(name)
    {
        this->Input("dims").ParamType(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND}).ValueDepend(REQUIRED);
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::DimsTiling);
    }
};
OP_ADD(Dims);
}  // namespace ops
"""

DIMS_TILING = TILING.replace("Pair", "Dims").replace("TILING_DATA_FIELD_DEF(uint32_t, incx);\\n", "")

DIMS_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void dims(GM_ADDR d, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GlobalTensor<int64_t> dGm;
    dGm.SetGlobalBuffer((__gm__ int64_t*)d, 2);
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t*)y, 8);
    yGm.SetValue(0, static_cast<int32_t>(t.n + dGm.GetValue(0) - dGm.GetValue(0)));
}
"""


def test_host_reads_a_value_depend_input(write_manifest, tmp_path: Path) -> None:
    """Fill's TilingFunc reads its dims input's values with GetInputTensor(0)->GetData<int64_t>()."""
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    host = tmp_path / "op_host" / "dims.cpp"
    host.write_text(DIMS_HOST, encoding="utf-8")
    (tmp_path / "op_host" / "dims_tiling.h").write_text(DIMS_TILING, encoding="utf-8")
    kernel = tmp_path / "op_kernel" / "dims.cpp"
    kernel.write_text(DIMS_KERNEL, encoding="utf-8")
    m = write_manifest(kernel, "dims", [
        {"name": "d", "input": np.array([3, 7], np.int64)},
        {"name": "y", "output": "y.npy", "dtype": "int32", "shape": [8]},
        {"name": "workspace", "workspace_bytes": 0},
        {"name": "tiling", "tiling": {"host": str(host)}},
    ])
    data = json.loads(m.read_text())
    del data["block_dim"]
    m.write_text(json.dumps(data))
    res = run_manifest(m, tmp_path / "o", confine=False)
    assert res.status == "ok", errors(res)
    assert int(np.load(res.outputs["y"])[0]) == 21
