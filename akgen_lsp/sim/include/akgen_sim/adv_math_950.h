// akgen sim: the math adv APIs that the CANN library implements for Ascend 950 only (adv_api/math/{bitwise_and,
// clamp, fma, is_finite, logical_and, rint, where}.h: their bodies are `#if __NPU_ARCH__ == 3510 || == 5102`):
//   BitwiseAnd<config>(dst, src0, src1, count)          Clamp<config>(dst, src, min, max, count)
//   Fma<config>(dst, src0, src1, src2[, tmp], count)    IsFinite<T, U>(dst, src, count)
//   LogicalAnd<config>(dst, src0, src1, count)          Rint<config>(dst, src[, tmp], count)
//   Where(dst, src0, src1, condition, count)            and their Config structs / DEFAULT_*_CONFIG
// On the devices the simulator models (A2/A3 dav-2201, Atlas inference 310P) the library's function compiles to an
// empty body: the call computes nothing and dst keeps whatever it held. CANN 9.1 declares them for every arch
// (adv_api/kernel_api.h, included by kernel_operator.h); kernels written before these APIs existed use the same names
// for their own classes next to `using namespace AscendC` (NPUKernelBench's IsFinite answer: IsFiniteNs::IsFinite),
// which that declaration makes ambiguous. So the simulator declares them only when the build defines
// AKGEN_SIM_DECLARE_950_APIS (manifest "defines"): then a call fails with SIM-ARCH-API at its line, naming the basic
// APIs that do the same work on A2/A3. Without it, a call is a compile error at its line ("not a member of AscendC").
#pragma once

#include "runtime.h"
#include "tensor.h"

namespace akgen_sim {

[[noreturn]] inline void arch950_only(const char* api, const char* instead, const loc_t& loc) {
    touch(api, loc);
    fail("SIM-ARCH-API",
         fmt("%s is implemented for Ascend 950 (dav-3510) only: on this device (%s) the CANN library's %s compiles to "
             "an empty body and leaves dst unchanged. %s", api, cfg().arch, api, instead),
         loc, "api_mismatch", api);
}

}  // namespace akgen_sim

#ifdef AKGEN_SIM_DECLARE_950_APIS
namespace AscendC {

struct BitwiseAndConfig { bool isReuseSource; };
constexpr BitwiseAndConfig DEFAULT_BITWISE_AND_CONFIG = {false};
struct ClampConfig { bool isReuseSource; };
constexpr ClampConfig DEFAULT_CLAMP_CONFIG = {false};
struct FmaConfig { bool isReuseSource; };
constexpr FmaConfig DEFAULT_FMA_CONFIG = {false};
struct RintConfig { bool isReuseSource; };
constexpr RintConfig DEFAULT_RINT_CONFIG = {false};
struct LogicalAndConfig { bool isReuseSource; };
constexpr LogicalAndConfig DEFAULT_LOGICAL_AND_CONFIG = {false};

template <const BitwiseAndConfig& config = DEFAULT_BITWISE_AND_CONFIG, typename T>
inline void BitwiseAnd(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t,
                       AKGEN_LOC) {
    ::akgen_sim::arch950_only("BitwiseAnd", "On A2/A3 use And (16-bit lanes; a 32-bit tensor reinterpreted as "
                                            "int16_t / uint16_t with twice the count).", loc);
}

template <const ClampConfig& config = DEFAULT_CLAMP_CONFIG, typename T, typename U, typename S>
inline void Clamp(const LocalTensor<T>&, const LocalTensor<T>&, const U&, const S&, const uint32_t, AKGEN_LOC) {
    ::akgen_sim::arch950_only("Clamp", "On A2/A3 use Maxs then Mins (or ClampMin then ClampMax).", loc);
}

template <const FmaConfig& config = DEFAULT_FMA_CONFIG, typename T>
inline void Fma(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,
                const LocalTensor<uint8_t>&, const uint32_t, AKGEN_LOC) {
    ::akgen_sim::arch950_only("Fma", "On A2/A3 use Mul then Add, or MulAddDst / FusedMulAdd.", loc);
}
template <const FmaConfig& config = DEFAULT_FMA_CONFIG, typename T>
inline void Fma(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,
                const uint32_t, AKGEN_LOC) {
    ::akgen_sim::arch950_only("Fma", "On A2/A3 use Mul then Add, or MulAddDst / FusedMulAdd.", loc);
}

template <typename T, typename U>
inline void IsFinite(const LocalTensor<U>&, const LocalTensor<T>&, uint32_t, AKGEN_LOC) {
    ::akgen_sim::arch950_only("IsFinite", "On A2/A3 compare x - x with 0 (Sub, then Compare EQ: NaN and inf give NaN) "
                                          "and Select.", loc);
}

template <const LogicalAndConfig& config = DEFAULT_LOGICAL_AND_CONFIG, typename T, typename U>
inline void LogicalAnd(const LocalTensor<T>&, const LocalTensor<U>&, const LocalTensor<U>&, const uint32_t,
                       AKGEN_LOC) {
    ::akgen_sim::arch950_only("LogicalAnd", "On A2/A3 compare each source with 0 (Compare NE) and And the masks, or "
                                            "Mul 0/1 values.", loc);
}

template <const RintConfig& config = DEFAULT_RINT_CONFIG, typename T>
inline void Rint(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<uint8_t>&, const uint32_t,
                 AKGEN_LOC) {
    ::akgen_sim::arch950_only("Rint", "On A2/A3 use Cast with RoundMode::CAST_RINT (to the same type, or through an "
                                      "integer type).", loc);
}
template <const RintConfig& config = DEFAULT_RINT_CONFIG, typename T>
inline void Rint(const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t, AKGEN_LOC) {
    ::akgen_sim::arch950_only("Rint", "On A2/A3 use Cast with RoundMode::CAST_RINT (to the same type, or through an "
                                      "integer type).", loc);
}

template <typename T, typename U, typename S, typename V>
inline void Where(const LocalTensor<T>&, const U&, const S&, const LocalTensor<V>&, const uint32_t, AKGEN_LOC) {
    ::akgen_sim::arch950_only("Where", "On A2/A3 build a bit mask with Compare and use Select.", loc);
}

}  // namespace AscendC
#endif  // AKGEN_SIM_DECLARE_950_APIS
