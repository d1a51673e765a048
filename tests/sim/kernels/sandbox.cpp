// Test kernel for the sandbox: the scalar `mode` picks one hostile behaviour. Markers as in checks.cpp.
#include "kernel_operator.h"
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
using namespace AscendC;

extern "C" __global__ __aicore__ void hostile(GM_ADDR x, int32_t mode)
{
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 8);  // EXPECT LAST-API
    volatile uint64_t spin = 0;
    if (mode == 1) {
        while (true) { spin = spin + 1; }
    } else if (mode == 2) {
        while (true) { fork(); }
    } else if (mode == 3) {
        char* p = static_cast<char*>(std::malloc(100ull << 30));
        if (p == nullptr) std::abort();
        p[0] = 1;
        p[(100ull << 30) - 1] = 1;
    } else if (mode == 4) {
        FILE* f = std::fopen("/tmp/akgen_sandbox_escape.txt", "w");
        if (f) { std::fputs("escaped", f); std::fclose(f); }
    } else if (mode == 5) {
        FILE* f = std::fopen("/etc/passwd", "r");
        char buf[64] = {0};
        if (f) { std::fgets(buf, sizeof buf, f); std::printf("%s", buf); std::fclose(f); }
    } else if (mode == 6) {
        volatile int* p = nullptr;
        *p = 1;
    }
}
