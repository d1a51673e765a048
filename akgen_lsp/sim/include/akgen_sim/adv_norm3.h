// akgen sim: the high-level RmsNorm of lib/normalization/rmsnorm.h, with the tiling type RmsNormTiling (field names
// and order of CANN's rmsnorm_tilingdata.h; visible at global scope, as kernel_tiling declares it, and in optiling).
//
// RmsNorm<T, isBasicBlock>(dst, src, gamma, sharedTmpBuffer, epsilon, tiling), T half or float, src [B, S, H] with
// rows tiling.hLength apart: for each of the B x S rows, over the first originalHLength elements (the library's
// generic reduce sums originalHLength values; the basic-block form sums all hLength, which it requires to be a
// multiple of 64), in float (half is cast up first):
//   rstd = exp(-0.5 * ln(sum(x^2) * reciprocalOfHLength + epsilon)),  y = x * rstd * gamma
// and y is rounded once to T (CAST_NONE: round to nearest). The library's steps (impl/adv_api/detail/normalization/
// rmsnorm/rmsnorm_common_impl.h) keep everything in float; its rsqrt is Ln, Muls(-0.5), Exp, reproduced here. The
// row sum is a plain float sum (the real RepeatReduceSum adds in a binary tree: last-bit differences are possible).
// The shared temporary buffer must hold the float work area the library lays out in it: mainBsLengthAlign +
// mainBshLength floats (twice mainBshLength plus mainBsLengthAlign for half, which keeps its float copy there too).
#pragma once

#include "adv_softmax.h"
#include "lib_internal.h"

BEGIN_TILING_DATA_DEF(RmsNormTiling)
TILING_DATA_FIELD_DEF(uint32_t, bLength)
TILING_DATA_FIELD_DEF(uint32_t, sLength)
TILING_DATA_FIELD_DEF(uint32_t, hLength)
TILING_DATA_FIELD_DEF(uint32_t, originalHLength)
TILING_DATA_FIELD_DEF(float, reciprocalOfHLength)
TILING_DATA_FIELD_DEF(uint32_t, mainBshLength)
TILING_DATA_FIELD_DEF(uint32_t, mainBsLength)
TILING_DATA_FIELD_DEF(uint32_t, mainBsLengthAlign)
TILING_DATA_FIELD_DEF(uint32_t, loopRound)
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos)
TILING_DATA_FIELD_DEF(uint32_t, tailBshLength)
TILING_DATA_FIELD_DEF(uint32_t, tailBsLength)
END_TILING_DATA_DEF;

namespace optiling {
using RmsNormTiling = ::RmsNormTiling;
}

namespace akgen_sim {

template <typename T, bool isBasicBlock>
inline void rmsnorm_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<uint8_t>& tmp, float eps,
                         const RmsNormTiling& tiling, const loc_t& loc) {
    const char* api = "RmsNorm";
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "Failed to check dtype in RmsNorm, current api support dtype combination is half, float.");
    touch(api, loc);
    const uint32_t h = tiling.hLength;
    const uint32_t rows = tiling.bLength * tiling.sLength;
    if (rows == 0 || h == 0) return;
    if ((uint64_t(h) * sizeof(T)) % 32 != 0) {
        fail("SIM-RMSNORM-SHAPE", fmt("RmsNorm: the row length hLength %u x %zu B is not 32-byte aligned (pad the last "
                                      "axis and pass the real length as originalHLength)", h, sizeof(T)),
             loc, "api_mismatch", api);
    }
    if (isBasicBlock && (h % 64 != 0 || rows % 8 != 0)) {
        fail("SIM-RMSNORM-SHAPE", fmt("RmsNorm<isBasicBlock=true>: hLength %u must be a multiple of 64 and B*S %u a "
                                      "multiple of 8; use isBasicBlock=false for this shape", h, rows),
             loc, "api_mismatch", api);
    }
    const uint32_t n = isBasicBlock ? h : (tiling.originalHLength ? tiling.originalHLength : h);
    if (n > h) {
        fail("SIM-RMSNORM-SHAPE", fmt("RmsNorm: originalHLength %u is larger than hLength %u", n, h), loc,
             "api_mismatch", api);
    }
    if (tiling.mainBshLength == 0 && rows * h > tiling.tailBshLength) {
        fail("SIM-RMSNORM-TILING", "RmsNorm: the tiling's mainBshLength is 0; fill RmsNormTiling with GetRmsNormTilingInfo "
                                   "for this shape and temporary buffer", loc, "api_mismatch", api);
    }
    const uint64_t total = uint64_t(rows) * h;
    check_local(src, "srcLocal", api, total * sizeof(T), loc);
    check_local(dst, "dstLocal", api, total * sizeof(T), loc);
    check_local(gamma, "gammaLocal", api, uint64_t(h) * sizeof(T), loc);
    const uint64_t work = uint64_t(tiling.mainBsLengthAlign) + uint64_t(tiling.mainBshLength) *
                                                                    (sizeof(T) == sizeof(half) ? 2 : 1);
    check_local(tmp, "sharedTmpBuffer", api, work * sizeof(float), loc);
    for (uint32_t r = 0; r < rows; ++r) {
        const T* xr = src.addr_ + uint64_t(r) * h;
        T* yr = dst.addr_ + uint64_t(r) * h;
        float s = 0;
        for (uint32_t j = 0; j < n; ++j) {
            const float x = static_cast<float>(xr[j]);
            s += x * x;
        }
        float v = s * tiling.reciprocalOfHLength + eps;
        float rstd = m::exp(m::log(v) * -0.5f);
        for (uint32_t j = 0; j < h; ++j) {
            const float y = static_cast<float>(xr[j]) * rstd * static_cast<float>(gamma.addr_[j]);
            yr[j] = static_cast<T>(y);
        }
    }
    vec_charge("whole_reduce_sum", api, double((total * sizeof(float) + 255) / 256) * 8, dst.slot_,
               {src.slot_, gamma.slot_, tmp.slot_}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, const RmsNormTiling& tiling,
                    AKGEN_LOC) {
    ::akgen_sim::rmsnorm_rows<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, sharedTmpBuffer,
                                               static_cast<float>(epsilon), tiling, loc);
}
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const T epsilon, const RmsNormTiling& tiling, AKGEN_LOC) {
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    ::akgen_sim::rmsnorm_rows<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, stack, static_cast<float>(epsilon),
                                               tiling, loc);
}

}  // namespace AscendC
