// akgen sim: the scalar math our headers use, on compiler builtins only. No <cmath>: a kernel may be named like a
// libm function (NPUKernelBench has `extern "C" void sqrt(GM_ADDR...)`), which would clash with <cmath>'s
// declarations. The float builtins below call expf/logf/... (or inline instructions), never the double names.
#pragma once

#include <type_traits>

namespace akgen_sim::m {

inline float exp(float x) { return __builtin_expf(x); }
inline double exp(double x) { return __builtin_exp(x); }
inline float log(float x) { return __builtin_logf(x); }
inline double log(double x) { return __builtin_log(x); }
inline float sqrt(float x) { return __builtin_sqrtf(x); }
inline double sqrt(double x) { return __builtin_sqrt(x); }
inline float fabs(float x) { return __builtin_fabsf(x); }
inline double fabs(double x) { return __builtin_fabs(x); }
inline float tanh(float x) { return __builtin_tanhf(x); }
inline float sin(float x) { return __builtin_sinf(x); }
inline float cos(float x) { return __builtin_cosf(x); }
inline float tan(float x) { return __builtin_tanf(x); }
inline float asin(float x) { return __builtin_asinf(x); }
inline float acos(float x) { return __builtin_acosf(x); }
inline float atan(float x) { return __builtin_atanf(x); }
inline float sinh(float x) { return __builtin_sinhf(x); }
inline float cosh(float x) { return __builtin_coshf(x); }
inline float asinh(float x) { return __builtin_asinhf(x); }
inline float acosh(float x) { return __builtin_acoshf(x); }
inline float atanh(float x) { return __builtin_atanhf(x); }
inline float erf(float x) { return __builtin_erff(x); }
inline float erfc(float x) { return __builtin_erfcf(x); }
inline float pow(float x, float y) { return __builtin_powf(x, y); }
inline float log2(float x) { return __builtin_log2f(x); }
inline float log10(float x) { return __builtin_log10f(x); }
inline float expm1(float x) { return __builtin_expm1f(x); }
inline float log1p(float x) { return __builtin_log1pf(x); }
inline double floor(double x) { return __builtin_floor(x); }
inline double ceil(double x) { return __builtin_ceil(x); }
inline double round(double x) { return __builtin_round(x); }
inline double trunc(double x) { return __builtin_trunc(x); }
inline double nearbyint(double x) { return __builtin_nearbyint(x); }
inline float nextafter(float x, float y) { return __builtin_nextafterf(x, y); }
inline float ldexp(float x, int e) { return __builtin_ldexpf(x, e); }
template <typename F> inline bool isnan(F x) { return __builtin_isnan(x); }
template <typename F> inline bool isinf(F x) { return __builtin_isinf(x); }
inline constexpr float inf = __builtin_inff();

}  // namespace akgen_sim::m

// Device code calls the libm names unqualified (`sqrt(x)` in a kernel helper, as the CPU debug build's <cmath>
// allows). Global function templates, not <cmath> or using-declarations: they coexist with a kernel named like a libm
// function (`extern "C" void sqrt(GM_ADDR, ...)`) and, when some header brings in <cmath>/<math.h>, with its ::sqrt
// (a non-template, which then wins overload resolution). float stays float; other arithmetic types compute in double.
#define AKGEN_GLOBAL_LIBM(NAME)                                                                                     \
    template <typename F, std::enable_if_t<std::is_arithmetic_v<F>, int> = 0> inline auto NAME(F x) {               \
        if constexpr (std::is_same_v<F, float>) return akgen_sim::m::NAME(x);                                       \
        else return akgen_sim::m::NAME(static_cast<double>(x));                                                      \
    }
AKGEN_GLOBAL_LIBM(sqrt)
AKGEN_GLOBAL_LIBM(exp)
AKGEN_GLOBAL_LIBM(log)
AKGEN_GLOBAL_LIBM(fabs)
AKGEN_GLOBAL_LIBM(floor)
AKGEN_GLOBAL_LIBM(ceil)
AKGEN_GLOBAL_LIBM(round)
#undef AKGEN_GLOBAL_LIBM
