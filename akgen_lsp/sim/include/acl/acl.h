// akgen sim: the AscendCL host runtime header. Kernels that include it (for types only) compile; the host runtime
// calls themselves (aclrtMalloc, aclrtMemcpy, streams) are not emulated: the simulator's launcher does their job.
#pragma once

#include <cstddef>
#include <cstdint>

using aclError = int;
constexpr aclError ACL_SUCCESS = 0;
constexpr aclError ACL_ERROR_NONE = 0;  // acl_base.h's older name of ACL_SUCCESS
using aclrtStream = void*;
using aclrtContext = void*;
// acl_base.h: half-precision values as their bits, with the two conversions (round to nearest even).
using aclFloat16 = uint16_t;
inline float aclFloat16ToFloat(aclFloat16 v) {
    uint32_t sign = uint32_t(v & 0x8000u) << 16, exp = (v >> 10) & 0x1fu, man = v & 0x3ffu, bits;
    if (exp == 0x1fu) {
        bits = sign | 0x7f800000u | (man << 13);
    } else if (exp != 0) {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    } else if (man == 0) {
        bits = sign;
    } else {  // subnormal: normalise
        int e = -1;
        do { man <<= 1; ++e; } while ((man & 0x400u) == 0);
        bits = sign | (uint32_t(112 - e) << 23) | ((man & 0x3ffu) << 13);
    }
    float f;
    __builtin_memcpy(&f, &bits, sizeof(f));
    return f;
}
inline aclFloat16 aclFloatToFloat16(float f) {
    uint32_t x;
    __builtin_memcpy(&x, &f, sizeof(x));
    uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
    if (exp == 0xffu) return aclFloat16(sign | 0x7c00u | (man ? 0x200u : 0u));
    int e = int(exp) - 112;
    if (e >= 31) return aclFloat16(sign | 0x7c00u);
    if (e <= 0) {  // subnormal or zero
        if (e < -10) return aclFloat16(sign);
        man |= 0x800000u;
        uint32_t shift = uint32_t(14 - e), half = man >> shift, rest = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rest > mid || (rest == mid && (half & 1u))) ++half;
        return aclFloat16(sign | half);
    }
    uint32_t h = (uint32_t(e) << 10) | (man >> 13), rest = man & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry into the exponent is still right
    return aclFloat16(sign | h);
}
// The host runtime calls, emulated for `.asc` programs (akgen sim run-program): akgen_sim/acl_runtime.h.
#include "akgen_sim/acl_runtime.h"
