// akgen sim: the bounds-checked memory functions of Huawei's securec library (libc_sec) that CANN host programs call:
// memcpy_s, memmove_s, memset_s. Return EOK (0) on success; on a null pointer or a count larger than destMax they
// copy nothing (memset_s: nothing) and return an error code (EINVAL / ERANGE), as securec does for these cases.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif

typedef int errno_t;

inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (dest == nullptr || src == nullptr) return EINVAL;
    if (count > destMax) return ERANGE;
    if (count != 0) std::memmove(dest, src, count);
    return EOK;
}

inline errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
    return memcpy_s(dest, destMax, src, count);
}

inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
    if (dest == nullptr) return EINVAL;
    if (count > destMax) return ERANGE;
    if (count != 0) std::memset(dest, c, count);
    return EOK;
}
