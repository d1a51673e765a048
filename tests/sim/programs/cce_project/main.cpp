// The host main of the project: x from input/x.bin, the kernel on 8 blocks, z to output/z.bin.
#include <cstdio>
#include <fstream>
#include <vector>

#ifdef __CCE_KT_TEST__
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR z);
#else
#include "acl/acl.h"
extern void scale_custom_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* z);
#endif

int32_t main(int32_t argc, char* argv[])
{
    const uint32_t blocks = 8;
    const size_t bytes = blocks * 256 * sizeof(float);
    std::vector<char> host(bytes);
    std::ifstream("./input/x.bin", std::ios::binary).read(host.data(), static_cast<std::streamsize>(bytes));
#ifdef __CCE_KT_TEST__
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
    uint8_t* x = nullptr;
    uint8_t* z = nullptr;
    aclrtMalloc((void**)&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    scale_custom_do(blocks, nullptr, stream, x, z);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(host.data(), bytes, z, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    std::ofstream("./output/z.bin", std::ios::binary).write(host.data(), static_cast<std::streamsize>(bytes));
    aclrtFree(x);
    aclrtFree(z);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
#endif
    std::printf("done\n");
    return 0;
}
