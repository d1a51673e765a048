// GM address reuse (tests/sim/test_gm_reuse.py): buffers are allocated and freed in turn, so the allocator hands a
// freed buffer's address out again; freeing the new buffer is not a double free. A real double free at the end is
// (marked). Prints "reused" when an address came back, so the test knows the case was exercised.
#include <cstdio>

#include "tikicpulib.h"

extern "C" __global__ __aicore__ void fill_one(GM_ADDR z)
{
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)z, 64);
    g.SetValue(0, 1.0f);
}

int32_t main()
{
    void* seen[64] = {};
    bool reused = false;
    for (int i = 0; i < 64; ++i) {
        void* p = AscendC::GmAlloc(4096);
        for (int j = 0; j < i; ++j) reused = reused || seen[j] == p;
        seen[i] = p;
        AscendC::SetKernelMode(KernelMode::AIV_MODE);
        ICPU_RUN_KF(fill_one, 1, (GM_ADDR)p);
        AscendC::GmFree(p);
    }
    void* h = nullptr;
    for (int i = 0; i < 8; ++i) {
        aclrtMallocHost(&h, 256);
        aclrtFreeHost(h);
    }
    void* last = AscendC::GmAlloc(1024);
    AscendC::GmFree(last);
#ifdef DOUBLE_FREE
    AscendC::GmFree(last);  // EXPECT SIM-ACL
#endif
    std::printf(reused ? "reused\n" : "no reuse\n");
    return 0;
}
