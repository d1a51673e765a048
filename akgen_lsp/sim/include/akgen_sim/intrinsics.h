// akgen sim: the raw CCE vector intrinsics some kernels call directly under `#if __CCE_AICORE__ == 220` (the layer
// the Ascend C API is written on, dav_c220): vcadd and get_acc_val. They take UB pointers (LocalTensor::GetPhyAddr()
// cast to `__ubuf__ T*`) and use the vector mask register as it stands (AscendCUtils::SetMask / SetVectorMask /
// SetMaskCount), exactly like the API forms with isSetMask = false.
//
// vcadd(dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, mode):
// - mode false (0): one sum per repeat, written to dst + r * dstRepStride elements (RepeatReduceSum / WholeReduceSum);
// - mode true (1): the per-repeat sums are added in repeat order into the ACC_VAL register (read with get_acc_val();
//   the value's bits are in the low bytes of the 64-bit register) and dst is not written (kernels pass nullptr).
// Each repeat sums its enabled elements in the adjacent-pair tree of the hardware (see vec_reduce.h).
#pragma once

#include "vec_reduce.h"

namespace akgen_sim {

// The UB buffer a raw pointer points into: the live buffer (InitBuffer slot) that contains it, as a LocalTensor view
// that reaches to the end of that buffer, so the usual checks (alive, bounds, alignment, size) apply.
template <typename T> inline AscendC::LocalTensor<T> raw_ub(T* p, const char* api, const char* role, const loc_t& loc) {
    BlockCtx& c = ctx();
    const uint8_t* a = reinterpret_cast<const uint8_t*>(p);
    if (c.ub == nullptr || a < c.ub || a >= c.ub + cfg().ub_bytes) {
        fail("SIM-UB-OOB", fmt("%s: the %s address is not in UB (the intrinsic takes a UB pointer, e.g. "
                               "(__ubuf__ T*)tensor.GetPhyAddr())", api, role), loc, "memory", api);
    }
    for (Slot& s : c.slots) {
        if (s.base != nullptr && a >= s.base && a < s.base + s.bytes && s.state != SlotState::FREE) {
            auto n = static_cast<uint32_t>((s.base + s.bytes - a) / sizeof(T));
            return AscendC::LocalTensor<T>(p, n, &s, s.pos);
        }
    }
    fail("SIM-TENSOR-UNINIT", fmt("%s: the %s address is in no buffer the kernel allocated (InitBuffer + AllocTensor / "
                                  "TBuf::Get)", api, role), loc, "scope", api);
}

template <typename T>
inline void vcadd_impl(T* dst, T* src, uint32_t repeat, uint32_t dstRepStride, uint32_t srcBlkStride,
                       uint32_t srcRepStride, bool mode, const loc_t& loc) {
    const char* api = "vcadd";
    touch(api, loc);
    if (repeat == 0) return;
    AscendC::LocalTensor<T> s = raw_ub(src, api, "src", loc);
    MaskArg mask{false, false, 0, 0};  // the mask register as it stands
    if (!mode) {
        AscendC::LocalTensor<T> d = raw_ub(dst, api, "dst", loc);
        whole_reduce(api, Red::SUM, d, s, mask, repeat, static_cast<int32_t>(dstRepStride),
                     static_cast<int32_t>(srcBlkStride), static_cast<int32_t>(srcRepStride),
                     AscendC::ReduceOrder::ORDER_ONLY_VALUE, loc);
        return;
    }
    constexpr uint32_t per = 256 / sizeof(T);
    MaskState m = resolve_mask(mask);
    repeat = counter_repeats(m, per, repeat);
    Stride ss{srcBlkStride, srcRepStride};
    check_local(s, "src", api, touched_extent(repeat, ss, sizeof(T), m, per), loc);
    uint64_t left = m.total;
    calc_t<T> acc{};
    for (uint32_t r = 0; r < repeat; ++r) {
        calc_t<T> v{};
        uint32_t idx = 0;
        reduce_one(Red::SUM, s.addr_, r, ss, m, left, v, idx);
        acc = r == 0 ? v : round_to<T>(acc + v);
    }
    T out = static_cast<T>(acc);
    ctx().spr_acc = 0;
    std::memcpy(&ctx().spr_acc, &out, sizeof(T));
    vec_charge("whole_reduce_sum", api, repeat, nullptr, {s.slot_}, loc);
}

}  // namespace akgen_sim

inline void vcadd(float* dst, float* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride,
                  uint16_t srcRepStride, bool mode = false, AKGEN_LOC) {
    ::akgen_sim::vcadd_impl(dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, mode, loc);
}
inline void vcadd(half* dst, half* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride,
                  uint16_t srcRepStride, bool mode = false, AKGEN_LOC) {
    ::akgen_sim::vcadd_impl(dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, mode, loc);
}
// ACC_VAL: the sum left by vcadd in mode 1 (and by the count form of ReduceSum).
inline uint64_t get_acc_val() {
    ::akgen_sim::charge_scalar();
    return ::akgen_sim::ctx().spr_acc;
}

// The mask registers, raw: set_mask_count / set_mask_norm pick counter or normal mode (SetMaskCount / SetMaskNorm);
// set_vector_mask(high, low) writes the mask register as is (normal mode: the bits; counter mode: low is the count).
inline void set_mask_count(AKGEN_LOC) { ::AscendC::SetMaskCount(loc); }
inline void set_mask_norm(AKGEN_LOC) { ::AscendC::SetMaskNorm(loc); }
inline void set_vector_mask(uint64_t maskHigh, uint64_t maskLow, AKGEN_LOC) {
    ::akgen_sim::touch("set_vector_mask", loc);
    ::akgen_sim::ctx().mask_hi = maskHigh;
    ::akgen_sim::ctx().mask_lo = maskLow;
}

namespace AscendC {
// The untyped readers of ACC_VAL (kernel_operator_vec_reduce_intf_impl.h): the register's 64 bits.
inline int64_t GetReduceRepeatSumSpr() { return static_cast<int64_t>(get_acc_val()); }
inline int64_t GetAccVal() { return GetReduceRepeatSumSpr(); }
}  // namespace AscendC
