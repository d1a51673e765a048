"""A TilingFunc written as the ops-math / ops-nn repositories write them builds and runs against the simulator's
host headers of the operator base library (log/log.h, util/math_util.h, op_common/op_host/util/platform_util.h,
platform/platform_infos_def.h, op_host/tiling_base_class.h) and encodes its key with the tiling-key templates. Our
own small operator in the repositories' layout."""

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
BEGIN_TILING_DATA_DEF(HalveTilingData)
TILING_DATA_FIELD_DEF(uint32_t, perCore);
TILING_DATA_FIELD_DEF(uint32_t, blockBytes);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Halve, HalveTilingData)
}
"""

KEY_H = """#pragma once
#include "ascendc/host_api/tiling/template_argument.h"
ASCENDC_TPL_ARGS_DECL(Halve, ASCENDC_TPL_UINT_DECL(mode, ASCENDC_TPL_2_BW, ASCENDC_TPL_UI_LIST, 0, 3, 5),
                      ASCENDC_TPL_BOOL_DECL(big, 0, 1));
"""

TILING_CPP = """#include "log/log.h"
#include "util/math_util.h"
#include "op_common/op_host/util/platform_util.h"
#include "platform/platform_infos_def.h"
#include "op_host/tiling_base_class.h"
#include "register/op_impl_registry.h"
#include "halve_tiling.h"
#include "halve_tiling_key.h"

namespace optiling {
class HalveTiling : public Ops::Base::TilingBaseClass {
public:
    explicit HalveTiling(gert::TilingContext* c) : Ops::Base::TilingBaseClass(c) {}
protected:
    bool IsCapable() override { return true; }
    ge::graphStatus GetPlatformInfo() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus GetShapeAttrsInfo() override
    {
        auto shape = context_->GetInputShape(0);
        OP_CHECK_NULL_WITH_CONTEXT(context_, shape);
        total_ = shape->GetStorageShape().GetShapeSize();
        OP_CHECK_IF(total_ == 0, OP_LOGE(context_, "empty input %s", Ops::Base::ToString(
            shape->GetStorageShape()).c_str()), return ge::GRAPH_FAILED);
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus DoOpTiling() override
    {
        blockDim_ = 8;
        HalveTilingData t;
        t.set_perCore(static_cast<uint32_t>(Ops::Base::CeilAlign(Ops::Base::CeilDiv(total_, int64_t(8)), int64_t(16))));
        t.set_blockBytes(Ops::Base::GetUbBlockSize(context_));
        t.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
        context_->GetRawTilingData()->SetDataSize(t.GetDataSize());
        context_->SetBlockDim(blockDim_);
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus DoLibApiTiling() override { return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const override { return GET_TPL_TILING_KEY(5, total_ > 1000); }
    ge::graphStatus GetWorkspaceSize() override
    {
        context_->GetWorkspaceSizes(1)[0] = 0;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus PostTiling() override { return ge::GRAPH_SUCCESS; }
private:
    int64_t total_ = 0;
};

static ge::graphStatus HalveTilingFunc(gert::TilingContext* context)
{
    OP_LOGD(context, "tiling starts");
    HalveTiling t(context);
    return t.DoTiling();
}
IMPL_OP_OPTILING(Halve).Tiling(HalveTilingFunc);
}  // namespace optiling
"""


def _op(tmp: Path) -> Path:
    host = tmp / "math" / "halve" / "op_host"
    host.mkdir(parents=True)
    (host / "halve_tiling.h").write_text(TILING_H, encoding="utf-8")
    (host / "halve_tiling.cpp").write_text(TILING_CPP, encoding="utf-8")
    kernel = tmp / "math" / "halve" / "op_kernel"
    kernel.mkdir()
    (host / "halve_tiling_key.h").write_text(KEY_H, encoding="utf-8")
    return host / "halve_tiling.cpp"


def test_a_repository_style_tiling_func_builds_and_runs(tmp_path: Path) -> None:
    src = _op(tmp_path)
    res = run_host_tiling(src, [("x", "float32", (40, 100))], [("y", "float32", (40, 100))], {},
                          load_arch("Ascend910B2"), op="Halve")
    assert res.ok, [f.message for f in res.findings]
    assert res.block_dim == 8
    assert struct.unpack_from("<II", res.tiling) == (512, 32)  # ceil(4000 / 8) = 500, aligned up to 16
    assert res.tiling_key == 2 | (1 << 2)  # mode 5 is the third declared value (2 bits), then big = 1


def test_a_failed_check_fails_the_tiling_with_the_ops_message(tmp_path: Path) -> None:
    src = _op(tmp_path)
    res = run_host_tiling(src, [("x", "float32", (0,))], [("y", "float32", (0,))], {}, load_arch("Ascend910B2"),
                          op="Halve")
    assert not res.ok
    assert res.findings[0].code == "SIM-HOST"


PLAIN_CPP = """#include "log/log.h"
#include "register/op_impl_registry.h"
namespace optiling {
struct PlainTilingData {
    uint32_t total;
    uint32_t twice;
};
static ge::graphStatus PlainTilingFunc(gert::TilingContext* context)
{
    PlainTilingData* t = context->GetTilingData<PlainTilingData>();
    OP_CHECK_NULL_WITH_CONTEXT(context, t);
    OP_CHECK_IF(memset_s(t, sizeof(PlainTilingData), 0, sizeof(PlainTilingData)) != EOK,
                OP_LOGE(context, "memset_s failed"), return ge::GRAPH_FAILED);
    t->total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    t->twice = 2 * t->total;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(Plain).Tiling(PlainTilingFunc);
}  // namespace optiling
"""


def test_get_tiling_data_writes_the_struct_in_place(tmp_path: Path) -> None:
    host = tmp_path / "math" / "plain" / "op_host"
    host.mkdir(parents=True)
    (host / "plain_tiling.cpp").write_text(PLAIN_CPP, encoding="utf-8")
    res = run_host_tiling(host / "plain_tiling.cpp", [("x", "float32", (3, 5))], [("y", "float32", (3, 5))], {},
                          load_arch("Ascend910B2"), op="Plain")
    assert res.ok, [f.message for f in res.findings]
    assert struct.unpack("<II", res.tiling) == (15, 30)
