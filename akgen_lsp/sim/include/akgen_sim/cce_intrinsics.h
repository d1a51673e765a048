// akgen sim: more raw CCE intrinsics of dav_c220 (the compiler builtins the Ascend C library is written on), for
// kernels that call them directly with UB pointers (LocalTensor::GetPhyAddr() cast to `__ubuf__ T*`):
//
// - binary vector ops vadd / vsub / vmul / vdiv / vmax / vmin / vand / vor (dst, src0, src1, repeat, dstBlockStride,
//   src0BlockStride, src1BlockStride, dstRepeatStride, src0RepeatStride, src1RepeatStride);
// - vector_dup(dst, scalar, repeat, dstBlockStride, srcBlockStride, dstRepeatStride, srcRepeatStride);
// - copy_ubuf_to_ubuf(dst, src, sid, nBurst, lenBurst, srcGap, dstGap) (32-byte units, as DataCopyParams);
// - vtranspose(dst, src): one 16 x 16 transpose of 16-bit elements (512 bytes);
// - set_va_reg_sb(VAn, uint64_t[8]) and scatter_vnchwconv_b16 / _b32(dstVA, srcVA, repeat, dstStride, srcStride):
//   the VA address registers and the vnchwconv (TransDataTo5HD) that reads its 16 destination addresses from the
//   register pair dstVA, dstVA + 1 and its 16 source addresses from srcVA, srcVA + 1 (as CANN's TransDataTo5HD sets
//   VA0/VA1 = dstList, VA2/VA3 = srcList and calls scatter_vnchwconv_b16(VA0, VA2, ...)).
//
// Each uses the vector mask register as it stands (set_vector_mask / SetVectorMask / SetMaskCount), exactly like the
// API forms with isSetMask = false, and goes through the same engine, checks (buffer alive, bounds, alignment, dtype,
// repeat) and cost as the API it is the instruction of. Also here: FusedMulAdd (basic API, dst = src0 * dst + src1)
// and the AscendC constants of kernel_utils_constants.h that kernels of this layer use (ONE_BLK_FLOAT_NUM, ...).
#pragma once

#include <cstdint>
#include <cstring>
#include <map>

#include "vec_transpose_gatherb.h"
#include "data_copy.h"
#include "intrinsics.h"
#include "vec_binary.h"
#include "vec_misc.h"
#include "vec_transpose.h"

namespace AscendC {
// kernel_utils_constants.h (namespace AscendC)
constexpr uint8_t B64_BYTE_SIZE = 8;
constexpr uint8_t B32_BYTE_SIZE = 4;
constexpr uint8_t B16_BYTE_SIZE = 2;
constexpr uint8_t B8_BYTE_SIZE = 1;
constexpr int32_t VA_REG_ARRAY_LEN = 8;
constexpr uint32_t HALF_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
constexpr uint32_t FLOAT_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
constexpr uint32_t ONE_REPEAT_FLOAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
constexpr uint32_t ONE_REPEAT_HALF_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
constexpr uint32_t MAX_REPEAT_FLOAT_SIZE = ONE_REPEAT_FLOAT_SIZE * MAX_REPEAT_TIMES;
constexpr uint32_t MAX_REPEAT_HALF_SIZE = ONE_REPEAT_HALF_SIZE * MAX_REPEAT_TIMES;
constexpr uint32_t ONE_BLK_HALF_NUM = ONE_BLK_SIZE / B16_BYTE_SIZE;
constexpr uint32_t ONE_BLK_FLOAT_NUM = ONE_BLK_SIZE / B32_BYTE_SIZE;
constexpr uint32_t BRCB_BROADCAST_NUMBER = 8;
constexpr uint32_t BRCB_MAX_REPEAT_SIZE = BRCB_BROADCAST_NUMBER * MAX_REPEAT_TIMES;
constexpr uint8_t DEFAULT_DATA_COPY_STRIDE = 0;  // the default stride of the data-copy parameter structs
constexpr uint64_t FULL_MASK = 0xffffffffffffffffULL;  // every bit of a 64-bit vector mask word
constexpr uint8_t B32_DATA_NUM_PER_BLOCK = 8;  // 32-bit elements of one 32-byte block
constexpr uint8_t B16_DATA_NUM_PER_BLOCK = 16;
constexpr int32_t B16_DATA_NUM_PER_REPEAT = 128;  // elements of one 256-byte repeat
constexpr int32_t B32_DATA_NUM_PER_REPEAT = 64;
constexpr uint32_t B64_DATA_NUM_PER_REPEAT = 32;
}  // namespace AscendC
// PRELOAD(len): prefetches the kernel's next `len` instruction blocks into the instruction cache on the NPU; it changes
// no data, and CANN's CPU debug makes it empty, as here.
#ifndef PRELOAD
#define PRELOAD(len) do {} while (0)
#endif

// The VA address registers of the vector unit (a compiler enum in CCE).
enum ub_addr8_t : uint8_t { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };

namespace akgen_sim {

// The VA registers of the running block (kept apart per block: a register is "set" only after this block's
// set_va_reg_sb; a fresh block starts with none set).
struct VaRegs {
    const uint8_t* ub = nullptr;  // the UB of the block that set them
    uint64_t reg[8][8] = {};
    bool set[8] = {};
};
VaRegs& va_regs();  // launcher/runtime.inc (a std::map: see there)

// The 16 addresses of the register pair (va, va + 1) for a vnchwconv.
inline bool va_reg_list(ub_addr8_t va, uint64_t out[16], const char* api, const char* role, const loc_t& loc) {
    const unsigned v = static_cast<unsigned>(va);
    if (v > 6) {
        fail("SIM-PARAM", fmt("%s: the %s address list is the register pair VA%u, VA%u, and VA7 is the last "
                                  "register (use VA0 .. VA6)", api, role, v, v + 1), loc, "api_mismatch", api);
        return false;
    }
    VaRegs& r = va_regs();
    for (unsigned k = v; k <= v + 1; ++k) {
        if (!r.set[k]) {
            fail("SIM-VA-UNSET", fmt("%s: VA%u (the %s address list) was not set in this block: call "
                                     "set_va_reg_sb(VA%u, addresses) first", api, k, role, k), loc, "scope", api);
            return false;
        }
    }
    std::memcpy(out, r.reg[v], 8 * sizeof(uint64_t));
    std::memcpy(out + 8, r.reg[v + 1], 8 * sizeof(uint64_t));
    return true;
}

template <typename T> inline AscendC::BinaryRepeatParams cce_binary_params(uint8_t dB, uint8_t s0B, uint8_t s1B,
                                                                          uint8_t dR, uint8_t s0R, uint8_t s1R) {
    AscendC::BinaryRepeatParams p;
    p.dstBlkStride = dB;
    p.src0BlkStride = s0B;
    p.src1BlkStride = s1B;
    p.dstRepStride = dR;
    p.src0RepStride = s0R;
    p.src1RepStride = s1R;
    return p;
}

}  // namespace akgen_sim

// ---- binary vector instructions: the mask register as it stands (isSetMask = false)
#define AKGEN_CCE_BINARY(NAME, COST, EXPR, ...)                                                                        \
    template <typename T>                                                                                              \
        requires ::akgen_sim::one_of_v<T, __VA_ARGS__>                                                                 \
    inline void NAME(T* dst, T* src0, T* src1, uint8_t repeat, uint8_t dstBlockStride, uint8_t src0BlockStride,       \
                     uint8_t src1BlockStride, uint8_t dstRepeatStride, uint8_t src0RepeatStride,                       \
                     uint8_t src1RepeatStride, AKGEN_LOC) {                                                            \
        ::akgen_sim::touch(#NAME, loc);                                                                                \
        if (repeat == 0) return;                                                                                       \
        auto d = ::akgen_sim::raw_ub(dst, #NAME, "dst", loc);                                                          \
        auto a = ::akgen_sim::raw_ub(src0, #NAME, "src0", loc);                                                        \
        auto b = ::akgen_sim::raw_ub(src1, #NAME, "src1", loc);                                                        \
        ::akgen_sim::binary_repeat(#NAME, COST, d, a, b, ::akgen_sim::MaskArg{false, false, 0, 0}, repeat,             \
                                   ::akgen_sim::cce_binary_params<T>(dstBlockStride, src0BlockStride, src1BlockStride, \
                                                                     dstRepeatStride, src0RepeatStride,                \
                                                                     src1RepeatStride),                                \
                                   [](auto x, auto y) { return EXPR; }, loc);                                          \
    }

AKGEN_CCE_BINARY(vadd, "add", x + y, half, float, int16_t, int32_t)
AKGEN_CCE_BINARY(vsub, "sub", x - y, half, float, int16_t, int32_t)
AKGEN_CCE_BINARY(vmul, "mul", x * y, half, float, int16_t, int32_t)
AKGEN_CCE_BINARY(vdiv, "div", x / y, half, float)
AKGEN_CCE_BINARY(vmax, "max", ::akgen_sim::vmax_elem(x, y), half, float, int16_t, int32_t)
AKGEN_CCE_BINARY(vmin, "min", ::akgen_sim::vmin_elem(x, y), half, float, int16_t, int32_t)
AKGEN_CCE_BINARY(vand, "and", (x & y), int16_t, uint16_t)
AKGEN_CCE_BINARY(vor, "or", (x | y), int16_t, uint16_t)

#undef AKGEN_CCE_BINARY

// ---- dcci(addr, cache_line_t, dcci_dst_t): clean and invalidate the scalar data cache (one line or all of it), the
// intrinsic under DataCacheCleanAndInvalid. The simulator has no scalar data cache between the core and GM, so it
// changes nothing; like DataCacheCleanAndInvalid on GM it lets the other blocks of a program run (GM polling).
enum class cache_line_t : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class dcci_dst_t : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <typename T>
inline void dcci(T* addr, cache_line_t line, dcci_dst_t dst = dcci_dst_t::CACHELINE_ALL, AKGEN_LOC) {
    (void)addr, (void)line, (void)dst;
    ::akgen_sim::touch("dcci", loc);
    ::akgen_sim::charge_scalar();
    ::akgen_sim::yield_block();
}

// ---- vector_dup: the scalar into every enabled element (the source strides are the scalar's: unused)
template <typename T>
    requires ::akgen_sim::one_of_v<T, half, float, int16_t, uint16_t, int32_t, uint32_t, bfloat16_t>
inline void vector_dup(T* dst, std::type_identity_t<T> a, uint8_t repeat, uint16_t dstBlockStride,
                       uint16_t srcBlockStride, uint8_t dstRepeatStride, uint8_t srcRepeatStride, AKGEN_LOC) {
    (void)srcBlockStride, (void)srcRepeatStride;
    ::akgen_sim::touch("vector_dup", loc);
    if (repeat == 0) return;
    auto d = ::akgen_sim::raw_ub(dst, "vector_dup", "dst", loc);
    const T s = a;
    ::akgen_sim::unary_repeat("vector_dup", "duplicate", d, d, ::akgen_sim::MaskArg{false, false, 0, 0}, repeat,
                              ::akgen_sim::Stride{dstBlockStride, dstRepeatStride},
                              ::akgen_sim::Stride{dstBlockStride, dstRepeatStride}, [s](const T&) { return s; }, loc,
                              false);
}

// ---- copy_ubuf_to_ubuf: UB -> UB on the vector pipe, nBurst bursts of lenBurst 32-byte blocks, gaps in blocks
inline void copy_ubuf_to_ubuf(void* dst, void* src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                              uint16_t dstGap, AKGEN_LOC) {
    (void)sid;
    ::akgen_sim::touch("copy_ubuf_to_ubuf", loc);
    if (nBurst == 0 || lenBurst == 0) return;
    auto d = ::akgen_sim::raw_ub(static_cast<uint8_t*>(dst), "copy_ubuf_to_ubuf", "dst", loc);
    auto s = ::akgen_sim::raw_ub(static_cast<uint8_t*>(src), "copy_ubuf_to_ubuf", "src", loc);
    AscendC::DataCopyParams p;
    p.blockCount = nBurst;
    p.blockLen = lenBurst;
    p.srcStride = srcGap;
    p.dstStride = dstGap;
    AscendC::DataCopy(d, s, p, loc);
}

// ---- vtranspose: one 16 x 16 block of 16-bit elements
template <typename T>
    requires ::akgen_sim::one_of_v<T, int16_t, uint16_t>
inline void vtranspose(T* dst, T* src, AKGEN_LOC) {
    ::akgen_sim::touch("vtranspose", loc);
    auto d = ::akgen_sim::raw_ub(dst, "vtranspose", "dst", loc);
    auto s = ::akgen_sim::raw_ub(src, "vtranspose", "src", loc);
    ::akgen_sim::transpose16(d, s, loc);
}

// ---- VA registers and vnchwconv
inline void set_va_reg_sb(ub_addr8_t va, const uint64_t* array, AKGEN_LOC) {
    ::akgen_sim::touch("set_va_reg_sb", loc);
    ::akgen_sim::charge_scalar();
    const unsigned v = static_cast<unsigned>(va);
    if (v > 7) {
        ::akgen_sim::fail("SIM-PARAM", ::akgen_sim::fmt("set_va_reg_sb: VA%u is no register (VA0 .. VA7)", v), loc,
                          "api_mismatch", "set_va_reg_sb");
        return;
    }
    ::akgen_sim::VaRegs& r = ::akgen_sim::va_regs();
    std::memcpy(r.reg[v], array, 8 * sizeof(uint64_t));
    r.set[v] = true;
}

namespace akgen_sim {
template <typename T>
inline void scatter_vnchwconv(ub_addr8_t dstVa, ub_addr8_t srcVa, uint8_t repeat, uint16_t dstStride,
                              uint16_t srcStride, const char* api, const loc_t& loc) {
    touch(api, loc);
    uint64_t d[16], s[16];
    if (!va_reg_list(dstVa, d, api, "dst", loc) || !va_reg_list(srcVa, s, api, "src", loc)) return;
    AscendC::TransDataTo5HDParams p;
    p.repeatTimes = repeat;
    p.dstRepStride = dstStride;
    p.srcRepStride = srcStride;
    AscendC::TransDataTo5HD<T>(d, s, p, loc);
}
}  // namespace akgen_sim

inline void scatter_vnchwconv_b16(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                  uint16_t srcStride, AKGEN_LOC) {
    ::akgen_sim::scatter_vnchwconv<uint16_t>(dst, src, repeat, dstStride, srcStride, "scatter_vnchwconv_b16", loc);
}
inline void scatter_vnchwconv_b32(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                  uint16_t srcStride, AKGEN_LOC) {
    ::akgen_sim::scatter_vnchwconv<uint32_t>(dst, src, repeat, dstStride, srcStride, "scatter_vnchwconv_b32", loc);
}

namespace akgen_sim {
// The repeat form of a vector API that reads dst as a third operand (FusedMulAdd, MulAddDst): the checks, the masked
// visit and the charge of one such API; `op(d, a, b)` updates one dst element from src0's and src1's.
template <typename T, typename R, typename Op>
inline void in_place_ternary_repeat(const char* api, const AscendC::LocalTensor<T>& dst,
                                    const AscendC::LocalTensor<T>& s0, const AscendC::LocalTensor<T>& s1,
                                    MaskArg mask, R repeat_in, const AscendC::BinaryRepeatParams& p,
                                    const loc_t& loc, Op op) {
    touch(api, loc);
    uint32_t repeat = check_repeat(repeat_in, api, loc);
    constexpr uint32_t per = 256 / sizeof(T);
    check_mask(mask, per, api, loc);
    MaskState m = resolve_mask(mask);
    repeat = counter_repeats(m, per, repeat);
    if (repeat == 0) return;
    Stride sd{p.dstBlkStride, p.dstRepStride}, sa{p.src0BlkStride, p.src0RepStride};
    Stride sb{p.src1BlkStride, p.src1RepStride};
    check_local(dst, "dst", api, touched_extent(repeat, sd, sizeof(T), m, per), loc);
    check_local(s0, "src0", api, touched_extent(repeat, sa, sizeof(T), m, per), loc);
    check_local(s1, "src1", api, touched_extent(repeat, sb, sizeof(T), m, per), loc);
    repeat_visit(dst.addr_, s0.addr_, s1.addr_, repeat, sd, sa, sb, m, per, op);
    vec_charge(cost_key("mul", cost_kind<T>()), api, repeat, dst.slot_, {s0.slot_, s1.slot_}, loc);
}

template <typename T, typename R>
inline void fused_mul_add_repeat(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& s0,
                                 const AscendC::LocalTensor<T>& s1, MaskArg mask, R repeat_in,
                                 const AscendC::BinaryRepeatParams& p, const loc_t& loc) {
    using C = calc_t<T>;
    in_place_ternary_repeat("FusedMulAdd", dst, s0, s1, mask, repeat_in, p, loc, [](T* d, const T* a, const T* b) {
        *d = static_cast<T>(static_cast<C>(*a) * static_cast<C>(*d) + static_cast<C>(*b));
    });
}
}  // namespace akgen_sim

// ---- FusedMulAdd (basic API, kernel_operator_vec_binary_intf.h): dst = src0 * dst + src1, computed in float for
// half and rounded once; half and float on A2/A3.
namespace AscendC {
template <typename T>
inline void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                        const int32_t& count, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, float>,
                  "Failed to check dtype in FusedMulAdd, current api support dtype combination is half, float");
    const char* api = "FusedMulAdd";
    ::akgen_sim::touch(api, loc);
    ::akgen_sim::check_count<T>(count, api, loc);
    if (count <= 0) return;
    const uint64_t bytes = uint64_t(count) * sizeof(T);
    ::akgen_sim::check_local(dst, "dst", api, bytes, loc);
    ::akgen_sim::check_local(src0, "src0", api, bytes, loc);
    ::akgen_sim::check_local(src1, "src1", api, bytes, loc);
    using C = ::akgen_sim::calc_t<T>;
    for (int32_t i = 0; i < count; ++i) {
        dst.addr_[i] = static_cast<T>(static_cast<C>(src0.addr_[i]) * static_cast<C>(dst.addr_[i]) +
                                      static_cast<C>(src1.addr_[i]));
    }
    ::akgen_sim::vec_charge(::akgen_sim::cost_key("mul", ::akgen_sim::cost_kind<T>()), api,
                            ::akgen_sim::repeats_for<T>(uint64_t(count)), dst.slot_, {src0.slot_, src1.slot_}, loc);
}
template <typename T, bool isSetMask = true, typename R, std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                        uint64_t mask, R repeatTime, const BinaryRepeatParams& p, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, float>,
                  "Failed to check dtype in FusedMulAdd, current api support dtype combination is half, float");
    ::akgen_sim::fused_mul_add_repeat(dst, src0, src1, ::akgen_sim::mask_count<T>(mask, isSetMask), repeatTime, p, loc);
}
template <typename T, bool isSetMask = true, typename R, std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                        const uint64_t mask[], R repeatTime, const BinaryRepeatParams& p, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, float>,
                  "Failed to check dtype in FusedMulAdd, current api support dtype combination is half, float");
    ::akgen_sim::fused_mul_add_repeat(dst, src0, src1, ::akgen_sim::mask_bits(mask, isSetMask), repeatTime, p, loc);
}
}  // namespace AscendC
