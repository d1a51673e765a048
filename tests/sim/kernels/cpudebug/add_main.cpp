// A CANN CPU-debug style main (tests/sim/test_cpu_debug.py): tikicpulib.h, GmAlloc/GmFree, SetKernelMode,
// ICPU_SET_TILING_KEY and ICPU_RUN_KF, run by `akgen sim run-program`. The kernel adds x and y (float) on 4 blocks;
// with tiling key 2 it also scales by 2. The main reads input/x.bin and input/y.bin and writes output/z.bin. With a
// program argument... none: `OOB=1` compiled in makes block 3 read past x (the finding's line is marked).
#include <cstdio>
#include <fstream>
#include <vector>

#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCKS = 4;
constexpr uint32_t PER_BLOCK = 256;

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * PER_BLOCK * sizeof(float));
    LocalTensor<float> a = buf.Get<float>();
    LocalTensor<float> b = a[PER_BLOCK];
    GlobalTensor<float> gx, gy, gz;
    const uint32_t off = GetBlockIdx() * PER_BLOCK;
    gx.SetGlobalBuffer((__gm__ float*)x + off, PER_BLOCK);
    gy.SetGlobalBuffer((__gm__ float*)y + off, PER_BLOCK);
    gz.SetGlobalBuffer((__gm__ float*)z + off, PER_BLOCK);
#if OOB
    if (GetBlockIdx() == BLOCKS - 1) DataCopy(a, gx[PER_BLOCK], PER_BLOCK);  // EXPECT SIM-GM-OOB-READ
#endif
    DataCopy(a, gx, PER_BLOCK);
    DataCopy(b, gy, PER_BLOCK);
    PipeBarrier<PIPE_ALL>();
    Add(a, a, b, PER_BLOCK);
    if (TILING_KEY_IS(2)) Muls(a, a, 2.0f, PER_BLOCK);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, a, PER_BLOCK);
}

static bool read_file(const char* path, void* buf, size_t n)
{
    std::ifstream f(path, std::ios::binary);
    return static_cast<bool>(f.read(static_cast<char*>(buf), static_cast<std::streamsize>(n)));
}

int32_t main()
{
    const size_t bytes = BLOCKS * PER_BLOCK * sizeof(float);
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(bytes);
    if (!read_file("./input/x.bin", x, bytes) || !read_file("./input/y.bin", y, bytes)) return 2;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_SET_TILING_KEY(2);
    ICPU_RUN_KF(add_custom, BLOCKS, x, y, z);
    std::ofstream("./output/z.bin", std::ios::binary).write(reinterpret_cast<const char*>(z), bytes);
    AscendC::GmFree((void*)x);
    AscendC::GmFree((void*)y);
    AscendC::GmFree((void*)z);
    std::printf("done\n");
    return 0;
}
