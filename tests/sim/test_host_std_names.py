"""Names that CANN's host headers bring into op_host code (akgen_lsp/sim/include host side):

- platform/platform_info.h puts std::map / std::vector / std::string at global scope (CANN's platform_info_def.h),
  so tiling code that includes it may write `vector<int64_t>` unqualified; a file that does not include it may not;
- ge::SUCCESS / ge::FAILED / ge::Status (ge_common/api_error_codes.h, which exe_graph's tiling_context.h includes);
- gert::Shape as exe_graph/runtime/shape.h: writable operator[], SetDimNum keeps the dims, AppendDim;
- ge::Operator / ge::TensorDesc / ge::AscendString, enough for a CheckSupported callback to compile.
"""

from __future__ import annotations

import struct
from pathlib import Path

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.sim.host import run_host_tiling

from .conftest import needs_gxx

pytestmark = needs_gxx

TILING_H = """#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(NamesTilingData)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(uint32_t, mapped);
TILING_DATA_FIELD_DEF(int64_t, shapeProduct);
TILING_DATA_FIELD_DEF(uint32_t, dimNum);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Names, NamesTilingData)
}  // namespace optiling
"""

BODY = """
#include "register/op_def_registry.h"
#include "names_tiling.h"

namespace optiling {
static const map<ge::DataType, uint32_t> kBufCount = {{ge::DT_FLOAT, 3}, {ge::DT_FLOAT16, 5}};

static uint32_t Check(bool ok) { return ok ? 0U : 1U; }
}  // namespace optiling

using namespace ge;

namespace optiling {
static ge::graphStatus NamesTiling(gert::TilingContext* context)
{
    vector<int64_t> dims;
    const gert::Shape& in = context->GetInputShape(0)->GetStorageShape();
    for (size_t i = 0; i < in.GetDimNum(); ++i) dims.push_back(in.GetDim(i));
    if (Check(!dims.empty()) != SUCCESS) return ge::GRAPH_FAILED;

    gert::Shape s;
    s.SetDimNum(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) s[i] = dims[i] * 2;
    s.SetDimNum(1);
    s.SetDimNum(dims.size());  // the dims beyond the count stay what they were
    s.AppendDim(3);

    NamesTilingData tiling;
    tiling.set_total(static_cast<uint32_t>(in.GetShapeSize()));
    tiling.set_mapped(kBufCount.at(context->GetInputDesc(0)->GetDataType()));
    tiling.set_shapeProduct(s.GetShapeSize());
    tiling.set_dimNum(static_cast<uint32_t>(s.GetDimNum()));
    context->SetBlockDim(1);
    context->SetTilingKey(FAILED == 0xFFFFFFFFU ? 7 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
static ge::graphStatus CheckSupported(const ge::Operator& op, ge::AscendString& result)
{
    ge::Shape x = op.GetInputDescByName("x").GetShape();
    int64_t axis = 0;
    if (op.GetAttr("axis", axis) != ge::GRAPH_SUCCESS || x.GetDimNum() == 0) {
        result = ge::AscendString("{\\"isSupported\\": \\"Unknown\\"}");
        return ge::GRAPH_NOT_CHANGED;
    }
    return ge::GRAPH_SUCCESS;
}

class Names : public OpDef {
public:
    explicit Names(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
        this->AICore().SetTiling(optiling::NamesTiling);
        this->AICore().SetCheckSupport(CheckSupported);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Names);
}  // namespace ops
"""


def host(tmp_path: Path, first_include: str) -> Path:
    d = tmp_path / "op_host"
    d.mkdir(parents=True, exist_ok=True)
    (d / "names_tiling.h").write_text(TILING_H, encoding="utf-8")
    src = d / "names.cpp"
    src.write_text(first_include + BODY, encoding="utf-8")
    return src


def run(src: Path, dtype: str = "float32"):
    return run_host_tiling(src, [("x", dtype, (4, 6))], [("y", dtype, (4, 6))], {}, load_arch("Ascend910B2"),
                           op="Names")


def test_platform_info_brings_vector_and_map_and_the_ge_names_work(tmp_path: Path) -> None:
    res = run(host(tmp_path, '#include "platform/platform_info.h"\n'), "float16")
    assert res.ok, [f.message for f in res.findings]
    total, mapped, product, dim_num = struct.unpack_from("<IIqI", res.tiling, 0)
    assert total == 24
    assert mapped == 5  # float16's entry of the unqualified map
    assert product == 8 * 12 * 3  # dims doubled by operator[], kept across SetDimNum(1), then AppendDim(3)
    assert dim_num == 3
    assert res.tiling_key == 7  # ge::FAILED is all ones


def test_without_platform_info_unqualified_vector_does_not_compile(tmp_path: Path) -> None:
    res = run(host(tmp_path, '#include "tiling/platform/platform_ascendc.h"\n'))
    assert not res.ok
    messages = " ".join(f.message for f in res.findings)
    assert "map" in messages or "vector" in messages, messages
