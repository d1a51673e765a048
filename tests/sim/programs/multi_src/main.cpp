// The host main of tests/sim/test_program_sources.py: a CANN-sample-style CPU-debug main in its own translation
// unit. `scale()` is static here and in kernel.cpp (a clash if the files were one unit); SCALE comes from
// inc/params.h (an -I folder). Writes output/z.bin.
#include <cstdio>
#include <fstream>

#include "params.h"
#include "tikicpulib.h"

extern "C" void scale_kernel(uint8_t* x, uint8_t* z);

static int scale() { return 1; }

int32_t main()
{
    const size_t bytes = 256 * sizeof(float);
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(bytes);
    for (int i = 0; i < 256; ++i) reinterpret_cast<float*>(x)[i] = static_cast<float>(i * scale());
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(scale_kernel, 2, x, z);
    std::ofstream("output/z.bin", std::ios::binary).write(reinterpret_cast<const char*>(z), bytes);
    AscendC::GmFree(x);
    AscendC::GmFree(z);
    std::printf("SCALE=%d\n", SCALE);
    return 0;
}
