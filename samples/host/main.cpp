// Host launcher for kernels/add_custom.cpp with the ACL runtime: plain C++ that runs on the CPU.
//
// This file does not include the Ascend C kernel header, so the language server and `akgen check` leave it alone:
// only device code is linted. It reads x and y from input/*.bin, launches add_custom on 48 cores and writes z to
// output/z.bin.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_add_custom.h"

namespace {
constexpr uint32_t BLOCK_DIM = 48;
constexpr size_t TOTAL_LENGTH = 48 * 128 * 512;
constexpr size_t BYTES = TOTAL_LENGTH * sizeof(uint16_t);  // half values

bool ReadFile(const char *path, std::vector<uint8_t> &data)
{
    std::ifstream in(path, std::ios::binary);
    return static_cast<bool>(in.read(reinterpret_cast<char *>(data.data()), static_cast<std::streamsize>(data.size())));
}

bool WriteFile(const char *path, const std::vector<uint8_t> &data)
{
    std::ofstream out(path, std::ios::binary);
    return static_cast<bool>(
        out.write(reinterpret_cast<const char *>(data.data()), static_cast<std::streamsize>(data.size())));
}
}  // namespace

int main()
{
    std::vector<uint8_t> xHost(BYTES), yHost(BYTES), zHost(BYTES);
    if (!ReadFile("input/x.bin", xHost) || !ReadFile("input/y.bin", yHost)) {
        std::fprintf(stderr, "cannot read input/x.bin and input/y.bin (%zu bytes each)\n", BYTES);
        return 1;
    }

    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);

    void *x = nullptr;
    void *y = nullptr;
    void *z = nullptr;
    aclrtMalloc(&x, BYTES, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&y, BYTES, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&z, BYTES, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, BYTES, xHost.data(), BYTES, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(y, BYTES, yHost.data(), BYTES, ACL_MEMCPY_HOST_TO_DEVICE);

    // The kernel has no workspace and no tiling data: it is specialised for this shape.
    ACLRT_LAUNCH_KERNEL(add_custom)(BLOCK_DIM, stream, x, y, z, nullptr, nullptr);
    aclrtSynchronizeStream(stream);

    aclrtMemcpy(zHost.data(), BYTES, z, BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
    const bool written = WriteFile("output/z.bin", zHost);

    aclrtFree(x);
    aclrtFree(y);
    aclrtFree(z);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return written ? 0 : 1;
}
