// The host main of tests/sim/test_toolkit.py's sample: reads input/x.bin, runs scale_custom on 8 blocks (ICPU_RUN_KF
// in CPU mode, ACLRT_LAUNCH_KERNEL in NPU mode) and writes output/z.bin. Built with -Wall -Werror -std=c++17.
#include <cstdio>
#include <fstream>
#include <vector>

#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
#include "aclrtlaunch_scale_custom.h"
#else
#include "tikicpulib.h"
extern "C" void scale_custom(uint8_t* x, uint8_t* z);
#endif

int32_t main()
{
    const uint32_t blocks = 8;
    const size_t bytes = blocks * 256 * sizeof(float);
    std::vector<char> host(bytes);
    std::ifstream("./input/x.bin", std::ios::binary).read(host.data(), static_cast<std::streamsize>(bytes));
#ifdef ASCENDC_CPU_DEBUG
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(bytes);
    memcpy_s(x, bytes, host.data(), bytes);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(scale_custom, blocks, x, z);
    std::ofstream("./output/z.bin", std::ios::binary).write(reinterpret_cast<const char*>(z), bytes);
    AscendC::GmFree(x);
    AscendC::GmFree(z);
#else
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    void* x = nullptr;
    void* z = nullptr;
    aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    ACLRT_LAUNCH_KERNEL(scale_custom)(blocks, stream, x, z);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(host.data(), bytes, z, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    std::ofstream("./output/z.bin", std::ios::binary).write(host.data(), static_cast<std::streamsize>(bytes));
    aclrtFree(x);
    aclrtFree(z);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
#endif
    std::printf("done %s\n", SOC_VERSION);
    return 0;
}
