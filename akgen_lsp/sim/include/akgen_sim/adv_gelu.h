// akgen sim: the high-level FasterGelu (lib/activation/gelu.h): y = x / (1 + exp(-1.702 x)), in the A2/A3 library's
// step order (Muls by -1.702, Exp, Adds 1, Div; with highPerformance Reciprocal then Mul), each step rounded to T, or to
// float for half with highPrecision (the library then casts the result back once). The sharedTmpBuffer and the
// library's counter-mode passes change nothing in the result; its size is not checked.
#pragma once

#include "vec_math.h"

namespace akgen_sim {
template <typename T, bool highPrecision, bool highPerformance>
inline T faster_gelu_one(T x) {
    using C = std::conditional_t<highPrecision && sizeof(T) == 2, float, T>;
    auto r = [](float v) { return static_cast<float>(static_cast<C>(v)); };  // one step, rounded as the library does
    const float xf = static_cast<float>(static_cast<C>(static_cast<float>(x)));
    const float k = static_cast<float>(static_cast<C>(-1.702f));
    float t = r(xf * k);
    t = r(m::exp(t));
    t = r(t + 1.0f);
    float y = highPerformance ? r(xf * r(1.0f / t)) : r(xf / t);
    return static_cast<T>(y);
}
}  // namespace akgen_sim

namespace AscendC {
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, float>,
                  "Failed to check dtype in FasterGelu, current api support dtype combination is half, float");
    (void)sharedTmpBuffer;
    if (::akgen_sim::ctx().core_type == 1) return;  // `if ASCEND_IS_AIC return;`, as the library does
    ::akgen_sim::unary_count("FasterGelu", "exp", dstLocal, srcLocal, dataSize,
                             [](const T& x) { return ::akgen_sim::faster_gelu_one<T, highPrecision, highPerformance>(x); },
                             loc);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize,
                       AKGEN_LOC) {
    FasterGelu<T, highPrecision, highPerformance>(dstLocal, srcLocal, LocalTensor<uint8_t>(), dataSize, loc);
}
}  // namespace AscendC
