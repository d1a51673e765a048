// akgen sim: MulAddDst of the Memory vector APIs (basic_api/kernel_operator_vec_binary_intf.h):
// dst = src0 * src1 + dst, element by element. Types (the API page): half, half -> half; float, float -> float;
// half, half -> float (PAR 64: one repeat reads 64 halves of each source and updates 64 floats). Computed in float
// and rounded once to dst's type. The count form takes every pair; the mask + repeat forms take the same-type pairs
// (the half -> float repeat form is reported as not emulated).
#pragma once

#include "cce_intrinsics.h"

namespace akgen_sim {
template <typename T, typename U> inline void muladddst_types() {
    static_assert((std::is_same_v<T, U> && one_of_v<T, half, float>) ||
                      (std::is_same_v<T, float> && std::is_same_v<U, half>),
                  "Failed to check dtype in MulAddDst, current api support dtype combination is src: half, dst: half; "
                  "src: float, dst: float; src: half, dst: float");
}

template <typename T, typename R>
inline void muladddst_repeat(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& s0,
                             const AscendC::LocalTensor<T>& s1, MaskArg mask, R repeat_in,
                             const AscendC::BinaryRepeatParams& p, const loc_t& loc) {
    in_place_ternary_repeat("MulAddDst", dst, s0, s1, mask, repeat_in, p, loc, [](T* d, const T* a, const T* b) {
        *d = static_cast<T>(static_cast<float>(*a) * static_cast<float>(*b) + static_cast<float>(*d));
    });
}
}  // namespace akgen_sim

namespace AscendC {
template <typename T, typename U>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      const int32_t& count, AKGEN_LOC) {
    ::akgen_sim::muladddst_types<T, U>();
    const char* api = "MulAddDst";
    ::akgen_sim::touch(api, loc);
    ::akgen_sim::check_count<T>(count, api, loc);
    if (count <= 0) return;
    ::akgen_sim::check_local(dst, "dst", api, uint64_t(count) * sizeof(T), loc);
    ::akgen_sim::check_local(src0, "src0", api, uint64_t(count) * sizeof(U), loc);
    ::akgen_sim::check_local(src1, "src1", api, uint64_t(count) * sizeof(U), loc);
    for (int32_t i = 0; i < count; ++i) {
        dst.addr_[i] = static_cast<T>(static_cast<float>(src0.addr_[i]) * static_cast<float>(src1.addr_[i]) +
                                      static_cast<float>(dst.addr_[i]));
    }
    ::akgen_sim::vec_charge(::akgen_sim::cost_key("mul", ::akgen_sim::cost_kind<T>()), api,
                            ::akgen_sim::repeats_for<T>(uint64_t(count)), dst.slot_, {src0.slot_, src1.slot_}, loc);
}
template <typename T, typename U, bool isSetMask = true, typename R, std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      uint64_t mask, R repeatTime, const BinaryRepeatParams& p, AKGEN_LOC) {
    ::akgen_sim::muladddst_types<T, U>();
    if constexpr (std::is_same_v<T, U>) {
        ::akgen_sim::muladddst_repeat(dst, src0, src1, ::akgen_sim::mask_count<T>(mask, isSetMask), repeatTime, p,
                                      loc);
    } else {
        ::akgen_sim::fail("SIM-UNSUPPORTED", "MulAddDst of half sources into a float dst is emulated in its count "
                                             "form only (MulAddDst(dst, src0, src1, count))", loc, "api_mismatch",
                          "MulAddDst");
    }
}
template <typename T, typename U, bool isSetMask = true, typename R, std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      const uint64_t mask[], R repeatTime, const BinaryRepeatParams& p, AKGEN_LOC) {
    ::akgen_sim::muladddst_types<T, U>();
    if constexpr (std::is_same_v<T, U>) {
        ::akgen_sim::muladddst_repeat(dst, src0, src1, ::akgen_sim::mask_bits(mask, isSetMask), repeatTime, p, loc);
    } else {
        ::akgen_sim::fail("SIM-UNSUPPORTED", "MulAddDst of half sources into a float dst is emulated in its count "
                                             "form only (MulAddDst(dst, src0, src1, count))", loc, "api_mismatch",
                          "MulAddDst");
    }
}
}  // namespace AscendC
