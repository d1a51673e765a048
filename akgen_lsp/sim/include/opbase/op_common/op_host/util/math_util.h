// akgen sim host side: the integer helpers of CANN's operator base library (util/math_util.h): divisions and
// alignments rounded up or down, as their names say; a zero divisor or alignment gives 0 (no trap).
#ifndef AKGEN_SIM_OPBASE_MATH_UTIL_H
#define AKGEN_SIM_OPBASE_MATH_UTIL_H

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace Ops {
namespace Base {
template <typename T, typename U> inline auto CeilDiv(T a, U b) -> std::common_type_t<T, U> {
    using R = std::common_type_t<T, U>;
    return b == 0 ? R(0) : static_cast<R>((static_cast<R>(a) + static_cast<R>(b) - 1) / static_cast<R>(b));
}
template <typename T, typename U> inline auto FloorDiv(T a, U b) -> std::common_type_t<T, U> {
    using R = std::common_type_t<T, U>;
    return b == 0 ? R(0) : static_cast<R>(static_cast<R>(a) / static_cast<R>(b));
}
template <typename T, typename U> inline auto CeilAlign(T a, U b) -> std::common_type_t<T, U> {
    using R = std::common_type_t<T, U>;
    return static_cast<R>(CeilDiv(a, b) * static_cast<R>(b));
}
template <typename T, typename U> inline auto FloorAlign(T a, U b) -> std::common_type_t<T, U> {
    using R = std::common_type_t<T, U>;
    return static_cast<R>(FloorDiv(a, b) * static_cast<R>(b));
}
template <typename T> inline bool IsFloatEqual(T a, T b) {
    return std::fabs(static_cast<double>(a) - static_cast<double>(b)) <= 1e-6;
}
}  // namespace Base
}  // namespace Ops
#endif
