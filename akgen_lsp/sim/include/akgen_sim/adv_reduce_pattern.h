// akgen sim: the pattern reductions ReduceMax / ReduceMin / ReduceSum<T, Pattern::Reduce::AR | RA, isReuseSource> of
// adv_api/reduce/reduce.h (A2/A3: half and float, 2-D shapes). srcShape = {first, last}; rows are last elements padded
// to 32 bytes in UB (srcInnerPad must be true on A2/A3). AR: dst[first] = max/min of each row; RA: dst[last] = max/min
// of each column. Max and min do not depend on the order the library takes (NaN inputs are not modelled: the running
// value is replaced only by an element that compares greater / less). ReduceSum adds in float, in element order
// (the library's own order of partial sums is not modelled: a float sum may differ in its last bits). Checked:
// srcInnerPad, operand sizes. Not emulated yet: ReduceMean / ReduceProd / ReduceAny / ReduceAll with a pattern.
#pragma once

#include <vector>

#include "vec_engine.h"

namespace AscendC {
namespace Pattern {
namespace Reduce {
struct R {};
struct RA {};
struct AR {};
}  // namespace Reduce
}  // namespace Pattern
}  // namespace AscendC

namespace akgen_sim {

template <typename T, typename P, int op>  // op: 0 min, 1 max, 2 sum
inline void reduce_pattern(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                           const uint32_t srcShape[], bool srcInnerPad, const loc_t& loc) {
    static_assert(one_of_v<T, half, float>,
                  "Failed to check dtype, current api support dtype combination is half, float.");
    static_assert(std::is_same_v<P, AscendC::Pattern::Reduce::AR> || std::is_same_v<P, AscendC::Pattern::Reduce::RA>,
                  "Currently only support AR and RA pattern.");
    touch(api, loc);
    if (!srcInnerPad) {
        fail("SIM-REDUCE-PAD", fmt("%s: srcInnerPad must be true on Atlas A2/A3: rows must be padded to 32 bytes in "
                                   "the source", api), loc, "api_mismatch", api);
        return;
    }
    const uint32_t first = srcShape[0], last = srcShape[1];
    if (first == 0 || last == 0) {
        fail("SIM-REDUCE-PAD", fmt("%s: both first and last axis must be greater than 0 (got {%u, %u})", api, first,
                                   last), loc, "api_mismatch", api);
        return;
    }
    constexpr uint32_t per_blk = 32 / sizeof(T);
    const uint32_t stride = (last + per_blk - 1) / per_blk * per_blk;
    constexpr bool ar = std::is_same_v<P, AscendC::Pattern::Reduce::AR>;
    const uint32_t outs = ar ? first : last;
    check_local(src, "src", api, (uint64_t(first - 1) * stride + last) * sizeof(T), loc);
    check_local(dst, "dst", api, uint64_t(outs) * sizeof(T), loc);
    auto pick = [](float a, float b) { return op == 2 ? a + b : (op == 1 ? b > a : b < a) ? b : a; };
    std::vector<T> out(outs);
    for (uint32_t o = 0; o < outs; ++o) {
        const uint32_t n = ar ? last : first;
        float acc = static_cast<float>(ar ? src.addr_[uint64_t(o) * stride] : src.addr_[o]);
        for (uint32_t k = 1; k < n; ++k) {
            const uint64_t i = ar ? uint64_t(o) * stride + k : uint64_t(k) * stride + o;
            acc = pick(acc, static_cast<float>(src.addr_[i]));
        }
        out[o] = static_cast<T>(acc);
    }
    for (uint32_t o = 0; o < outs; ++o) dst.addr_[o] = out[o];
    vec_charge(cost_key(op == 2 ? "add" : "max", cost_kind<T>()), api, repeats_for<T>(uint64_t(first) * stride) * 1.5, dst.slot_,
               {src.slot_}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

#define AKGEN_REDUCE_PATTERN(NAME, OP)                                                                             \
    template <class T, class pattern, bool isReuseSource = false>                                                      \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                                 \
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[], bool srcInnerPad,        \
                     AKGEN_LOC) {                                                                                      \
        (void)sharedTmpBuffer;                                                                                         \
        ::akgen_sim::reduce_pattern<T, pattern, OP>(#NAME, dstTensor, srcTensor, srcShape, srcInnerPad, loc);      \
    }                                                                                                                  \
    template <class T, class pattern, bool isReuseSource = false>                                                      \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t srcShape[],     \
                     bool srcInnerPad, AKGEN_LOC) {                                                                    \
        ::akgen_sim::reduce_pattern<T, pattern, OP>(#NAME, dstTensor, srcTensor, srcShape, srcInnerPad, loc);      \
    }
AKGEN_REDUCE_PATTERN(ReduceMax, 1)
AKGEN_REDUCE_PATTERN(ReduceMin, 0)
AKGEN_REDUCE_PATTERN(ReduceSum, 2)
#undef AKGEN_REDUCE_PATTERN

}  // namespace AscendC
