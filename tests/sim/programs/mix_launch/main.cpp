// The host main of tests/sim/test_mix_launch.py, written like a CANN sample's CPU-debug main (its own translation
// unit, the kernels declared, no `using namespace AscendC`). argv[1] picks the launch: "default" launches the MIX
// kernel with no SetKernelMode (its kind comes from its source), "mix" sets MIX_MODE, "aiv" sets AIV_MODE, "vec"
// launches the vector kernel; the launch has BLOCKS blocks. z is written to output/z.bin.
#include <cstdio>
#include <cstring>
#include <fstream>

#include "tikicpulib.h"

extern "C" void mix_kernel(uint8_t* z);
extern "C" void vec_kernel(uint8_t* z);

int32_t main(int32_t argc, char* argv[])
{
    const char* what = argc > 1 ? argv[1] : "default";
    const size_t bytes = 128 * sizeof(int32_t);
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(bytes);
    std::memset(z, 0, bytes);
    if (std::strcmp(what, "mix") == 0) AscendC::SetKernelMode(KernelMode::MIX_MODE);
    if (std::strcmp(what, "aiv") == 0) AscendC::SetKernelMode(KernelMode::AIV_MODE);
    if (std::strcmp(what, "vec") == 0) {
        ICPU_RUN_KF(vec_kernel, BLOCKS, z);
    } else {
        ICPU_RUN_KF(mix_kernel, BLOCKS, z);
    }
    std::ofstream("output/z.bin", std::ios::binary).write(reinterpret_cast<const char*>(z), bytes);
    AscendC::GmFree(z);
    return 0;
}
