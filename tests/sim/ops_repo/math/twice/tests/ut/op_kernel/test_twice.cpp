// Kernel unit test of twice: the tiling from the operator's own TilingFunc (ExecuteTiling), inputs filled here, no
// data scripts and no numeric check of its own (the operator's tests/assets/golden.py is the reference).
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "tikicpulib.h"
#include "tiling_case_executor.h"
#include "../../../op_host/twice_tiling.h"

extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling);

bool g_twiceUtTilingMacro = false;  // set by the GET_TILING_DATA of twice_tiling_def.h

class TwiceTest : public testing::Test {};

TEST_F(TwiceTest, tiling_then_kernel)
{
    optiling::TwiceCompileInfo info = {48};
    gert::TilingContextPara para("Twice", {{{{512}, {512}}, ge::DT_FLOAT, ge::FORMAT_ND}},
                                 {{{{512}, {512}}, ge::DT_FLOAT, ge::FORMAT_ND}}, &info);
    TilingInfo tilingInfo;
    ASSERT_TRUE(ExecuteTiling(para, tilingInfo));
    ASSERT_EQ(tilingInfo.tilingKey, 1);
    ASSERT_EQ(tilingInfo.blockNum, 2u);
    ASSERT_EQ(tilingInfo.workspaceSizes.size(), 1u);
    float* x = (float*)AscendC::GmAlloc(512 * sizeof(float));
    float* y = (float*)AscendC::GmAlloc(512 * sizeof(float));
    // float_t: a C math name CANN's CPU-debug headers bring to kernel UTs
    for (int i = 0; i < 512; ++i) x[i] = static_cast<float_t>(0.25f * i - 3.0f);
    uint8_t* workspace = (uint8_t*)AscendC::GmAlloc(tilingInfo.workspaceSizes[0]);
    uint8_t* tiling = (uint8_t*)AscendC::GmAlloc(tilingInfo.tilingDataSize);
    std::memcpy(tiling, tilingInfo.tilingData.get(), tilingInfo.tilingDataSize);
    ICPU_SET_TILING_KEY(tilingInfo.tilingKey);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(twice, tilingInfo.blockNum, (uint8_t*)x, (uint8_t*)y, workspace, tiling);
    EXPECT_TRUE(g_twiceUtTilingMacro);  // the UT's own GET_TILING_DATA, not the simulator's
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(workspace);
    AscendC::GmFree(tiling);
}
