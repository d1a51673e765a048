// Kernel unit test of clamp_scale on CANN's CPU-debug API: it fills the input, runs the kernel, checks y and the
// workspace itself.
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "tikicpulib.h"
#include "data_utils.h"
#include "kernel_fp16.h"  // CANN CPU debug's half for host code, by its bare name

static_assert(sizeof(half) == 2, "kernel_fp16.h gives the 2-byte half");

extern "C" __global__ __aicore__ void clamp_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling);

class ClampScaleTest : public testing::Test {};

TEST_F(ClampScaleTest, first_limit_elements_scaled)
{
    constexpr uint32_t total = 256, limit = 128, tile = 64;
    auto* x = reinterpret_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
    auto* y = reinterpret_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
    uint8_t* workspace = reinterpret_cast<uint8_t*>(AscendC::GmAlloc(32));
    auto* t = reinterpret_cast<ClampScaleTilingData*>(AscendC::GmAlloc(sizeof(ClampScaleTilingData)));
    for (uint32_t i = 0; i < total; ++i) {
        x[i] = static_cast<float>(i) - 100.0f;
    }
    *t = ClampScaleTilingData{total, limit, tile, 0.5f};
    ICPU_SET_TILING_KEY(0);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(clamp_scale, 1, (uint8_t*)x, (uint8_t*)y, workspace, (uint8_t*)t);
    for (uint32_t i = 0; i < total; ++i) {
        EXPECT_EQ(y[i], i < limit ? x[i] * 0.5f : 0.0f) << i;
    }
    // CPU debug's GetUserWorkspace is the workspace argument itself: the UT allocates only its 32 bytes
    EXPECT_EQ(*reinterpret_cast<int32_t*>(workspace), static_cast<int32_t>(limit));
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(workspace);
    AscendC::GmFree(t);
}
