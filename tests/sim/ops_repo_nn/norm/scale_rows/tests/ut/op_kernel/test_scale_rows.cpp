// Kernel unit test of scale_rows: the tiling from the operator's TilingFunc through the repository's harness
// (ExecuteTiling on CANN's context builders), then the kernel; the test checks y itself.
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "tikicpulib.h"

namespace AscendC {
static constexpr auto dec = ::dec;  // as some of ops-nn's UTs do: CANN's CPU-debug headers bring ::dec
}

#include "tiling_case_executor.h"

extern "C" __global__ __aicore__ void scale_rows(GM_ADDR x, GM_ADDR rows, GM_ADDR y, GM_ADDR workspace,
                                                 GM_ADDR tiling);

class ScaleRowsTest : public testing::Test {};

TEST_F(ScaleRowsTest, tiling_func_then_kernel)
{
    constexpr int64_t rowsN = 4, cols = 64, scaled = 3;
    ScaleRowsCase c{"ScaleRows", {rowsN, cols}, 2.5f, &scaled, nullptr};
    TilingInfo info;
    ASSERT_TRUE(ExecuteTiling(c, info));
    ASSERT_EQ(info.tilingKey, 7);
    ASSERT_EQ(info.blockNum, 1u);
    auto* x = reinterpret_cast<float*>(AscendC::GmAlloc(rowsN * cols * sizeof(float)));
    auto* y = reinterpret_cast<float*>(AscendC::GmAlloc(rowsN * cols * sizeof(float)));
    auto* rows = reinterpret_cast<int64_t*>(AscendC::GmAlloc(sizeof(int64_t)));
    uint8_t* workspace = reinterpret_cast<uint8_t*>(AscendC::GmAlloc(32));
    uint8_t* tiling = reinterpret_cast<uint8_t*>(AscendC::GmAlloc(info.tilingData.size()));
    std::memcpy(tiling, info.tilingData.data(), info.tilingData.size());
    *rows = scaled;
    for (int64_t i = 0; i < rowsN * cols; ++i) x[i] = static_cast<float>(i % 17) - 8.0f;
    ICPU_SET_TILING_KEY(info.tilingKey);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(scale_rows, info.blockNum, (uint8_t*)x, (uint8_t*)rows, (uint8_t*)y, workspace, tiling);
    for (int64_t i = 0; i < rowsN * cols; ++i) {
        EXPECT_EQ(y[i], i / cols < scaled ? x[i] * 2.5f : x[i]) << i;
    }
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(rows);
    AscendC::GmFree(workspace);
    AscendC::GmFree(tiling);
}
