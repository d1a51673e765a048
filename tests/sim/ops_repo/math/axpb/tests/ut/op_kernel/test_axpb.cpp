// Kernel unit test of axpb on CANN's CPU-debug API: data from gen_data.py, the kernel on 4 blocks, compare_data.py.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "gtest/gtest.h"
#include "tikicpulib.h"
#include "data_utils.h"
#include "../../../op_kernel/axpb_tiling_data.h"

extern "C" __global__ __aicore__ void axpb(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling);

class AxpbTest : public testing::Test {
protected:
    static void SetUpTestCase()
    {
        const std::string cmd = "cp -rf " + dataPath + " ./";
        system(cmd.c_str());
        system("chmod -R 755 ./axpb_data/");
    }
    const static std::string dataPath;
};

const std::string AxpbTest::dataPath = "../../../../math/axpb/tests/ut/op_kernel/axpb_data";

static void RunAxpb(uint32_t blocks, uint32_t blockLength, uint32_t tileLength)
{
    size_t bytes = blocks * blockLength * sizeof(float);
    std::string shape = "(" + std::to_string(blocks * blockLength) + ",)";
    system(("cd ./axpb_data/ && python3 gen_data.py '" + shape + "' float32").c_str());
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* workspace = (uint8_t*)AscendC::GmAlloc(32);
    uint8_t* tiling = (uint8_t*)AscendC::GmAlloc(sizeof(AxpbTilingData));
    size_t read = 0;
    ReadFile("./axpb_data/float32_input_axpb.bin", read, x, bytes);
    auto* t = reinterpret_cast<AxpbTilingData*>(tiling);
    t->blockLength = blockLength;
    t->tileLength = tileLength;
    t->a = 2.0f;
    t->b = 1.0f;
    ICPU_SET_TILING_KEY(0);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(axpb, blocks, x, y, workspace, tiling);
    WriteFile("./axpb_data/float32_output_axpb.bin", y, bytes);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(workspace);
    AscendC::GmFree(tiling);
    system("cd ./axpb_data/ && python3 compare_data.py float32");
}

TEST_F(AxpbTest, test_case_float32_1) { RunAxpb(4, 256, 64); }

TEST_F(AxpbTest, test_case_float32_2) { RunAxpb(2, 512, 128); }
