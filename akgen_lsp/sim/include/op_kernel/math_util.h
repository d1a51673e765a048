// akgen sim kernel side: the integer helpers of CANN's operator base library as kernels include them
// ("op_kernel/math_util.h"): divisions and alignments rounded up or down, as their names say; a zero divisor or
// alignment gives 0. constexpr, so kernels may size constants with them. The host side
// (opbase/op_common/op_host/util/math_util.h) includes this file: one set, usable on either side.
#ifndef AKGEN_SIM_OPBASE_MATH_UTIL_H
#define AKGEN_SIM_OPBASE_MATH_UTIL_H

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace Ops {
namespace Base {
template <typename T, typename U> constexpr auto CeilDiv(T a, U b) -> std::common_type_t<T, U> {
    using R = std::common_type_t<T, U>;
    return b == 0 ? R(0) : static_cast<R>((static_cast<R>(a) + static_cast<R>(b) - 1) / static_cast<R>(b));
}
template <typename T, typename U> constexpr auto FloorDiv(T a, U b) -> std::common_type_t<T, U> {
    using R = std::common_type_t<T, U>;
    return b == 0 ? R(0) : static_cast<R>(static_cast<R>(a) / static_cast<R>(b));
}
template <typename T, typename U> constexpr auto CeilAlign(T a, U b) -> std::common_type_t<T, U> {
    using R = std::common_type_t<T, U>;
    return static_cast<R>(CeilDiv(a, b) * static_cast<R>(b));
}
template <typename T, typename U> constexpr auto FloorAlign(T a, U b) -> std::common_type_t<T, U> {
    using R = std::common_type_t<T, U>;
    return static_cast<R>(FloorDiv(a, b) * static_cast<R>(b));
}
template <typename T> inline bool IsFloatEqual(T a, T b) {
    return std::fabs(static_cast<double>(a) - static_cast<double>(b)) <= 1e-6;
}
}  // namespace Base
}  // namespace Ops
#endif
