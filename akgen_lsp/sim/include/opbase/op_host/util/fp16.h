// akgen sim host side: op_host/util/fp16.h of CANN's operator base library: Ops::Base::fp16_t, an IEEE 754 half
// that host tiling code reads a float16 const input as (tensor->GetData<fp16_t>()) and computes with. Stored as its
// 16 bits; arithmetic and comparisons go through float; conversion from float rounds to nearest even.
#ifndef AKGEN_SIM_OPBASE_FP16_H
#define AKGEN_SIM_OPBASE_FP16_H

#include <cstdint>
#include <cstring>

namespace Ops {
namespace Base {
struct fp16_t {
    uint16_t val = 0;

    fp16_t() = default;
    fp16_t(float f) : val(from_float(f)) {}  // NOLINT: implicit, as the library's
    fp16_t(double d) : val(from_float(static_cast<float>(d))) {}  // NOLINT
    fp16_t(int32_t i) : val(from_float(static_cast<float>(i))) {}  // NOLINT
    fp16_t(int64_t i) : val(from_float(static_cast<float>(i))) {}  // NOLINT
    fp16_t(uint32_t i) : val(from_float(static_cast<float>(i))) {}  // NOLINT
    fp16_t(uint64_t i) : val(from_float(static_cast<float>(i))) {}  // NOLINT
    fp16_t(uint16_t bits, bool) : val(bits) {}
    operator float() const { return to_float(val); }
    operator double() const { return to_float(val); }
    float toFloat() const { return to_float(val); }
    double toDouble() const { return to_float(val); }
    int32_t toInt32() const { return static_cast<int32_t>(to_float(val)); }
    fp16_t& operator=(float f) { val = from_float(f); return *this; }
    fp16_t operator+(fp16_t o) const { return fp16_t(to_float(val) + to_float(o.val)); }
    fp16_t operator-(fp16_t o) const { return fp16_t(to_float(val) - to_float(o.val)); }
    fp16_t operator*(fp16_t o) const { return fp16_t(to_float(val) * to_float(o.val)); }
    fp16_t operator/(fp16_t o) const { return fp16_t(to_float(val) / to_float(o.val)); }
    bool operator==(fp16_t o) const { return to_float(val) == to_float(o.val); }
    bool operator!=(fp16_t o) const { return !(*this == o); }
    bool operator<(fp16_t o) const { return to_float(val) < to_float(o.val); }
    bool operator>(fp16_t o) const { return to_float(val) > to_float(o.val); }

    static float to_float(uint16_t h) {
        uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
        uint32_t exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu, bits;
        if (exp == 0x1F) {
            bits = sign | 0x7F800000u | (man << 13);  // inf / nan
        } else if (exp != 0) {
            bits = sign | ((exp + 112u) << 23) | (man << 13);
        } else if (man == 0) {
            bits = sign;  // +-0
        } else {  // subnormal: normalise
            int e = -1;
            do { ++e; man <<= 1; } while ((man & 0x400u) == 0);
            bits = sign | (static_cast<uint32_t>(112 - e) << 23) | ((man & 0x3FFu) << 13);
        }
        float f;
        std::memcpy(&f, &bits, sizeof(f));
        return f;
    }
    static uint16_t from_float(float f) {
        uint32_t x;
        std::memcpy(&x, &f, sizeof(x));
        uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
        uint32_t exp = (x >> 23) & 0xFFu, man = x & 0x7FFFFFu;
        if (exp == 0xFF) return static_cast<uint16_t>(sign | 0x7C00u | (man ? 0x200u : 0u));
        int32_t e = static_cast<int32_t>(exp) - 127 + 15;
        if (e >= 0x1F) return static_cast<uint16_t>(sign | 0x7C00u);  // overflow: inf
        if (e <= 0) {  // subnormal or zero
            if (e < -10) return sign;
            man |= 0x800000u;
            uint32_t shift = static_cast<uint32_t>(14 - e);
            uint32_t half = man >> shift, rest = man & ((1u << shift) - 1u), mid = 1u << (shift - 1);
            if (rest > mid || (rest == mid && (half & 1u))) ++half;
            return static_cast<uint16_t>(sign | half);
        }
        uint32_t half = (static_cast<uint32_t>(e) << 10) | (man >> 13), rest = man & 0x1FFFu;
        if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // may carry into the exponent: correct
        return static_cast<uint16_t>(sign | half);
    }
};
}  // namespace Base
}  // namespace Ops

#endif
