// An NPU-mode host main (tests/sim/test_cann_sample_apis.py): AscendCL memory and the generated launch header of the
// kernel, ACLRT_LAUNCH_KERNEL(add_one)(blockDim, stream, args...), as CANN samples' main.cpp has outside
// ASCENDC_CPU_DEBUG. Prints z.
#include <cstdio>

#include "acl/acl.h"
#include "aclrtlaunch_add_one.h"
#include "graph/tensor.h"

int32_t main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    const uint32_t n = 16;
    float host[n];
    for (uint32_t i = 0; i < n; ++i) host[i] = static_cast<float>(i);
    void* x = nullptr;
    void* z = nullptr;
    aclrtMalloc(&x, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&z, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, n * sizeof(float), host, n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
    ACLRT_LAUNCH_KERNEL(add_one)(2, stream, x, z, n);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(host, n * sizeof(float), z, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
    for (uint32_t i = 0; i < n; ++i) std::printf("%g ", host[i]);
    std::printf("\n");
    ge::Tensor t;
    std::printf("tensor %zu\n", t.GetSize());
    aclrtFree(x);
    aclrtFree(z);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
