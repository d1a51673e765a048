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
//
// WelfordUpdate<T, U, isReuseSource, config>(outMean, outVar, inMean, inVar, inputX[, sharedTmpBuffer], para), T half
// or float, U float, para.rnLength 1 (as the library asserts), abLength 32-byte aligned: for the first
// abComputeLength elements, in float (layernorm_common_impl.h's steps):
//   d = x - inMean;  outMean = d * nRec + inMean;  outVar = d * (x - outMean) + inVar
// With config.isInplace and abComputeLength < abLength the tail is first copied from in to out, block-aligned (the
// library's DataCopy of AlignUp(abLength - abComputeLength, 8) elements at the end). The shared buffer must hold at
// least one 256-byte repeat per work tensor: 2 (float), 1 (float, isReuseSource), 3 (half).
// WelfordFinalize<isReuseSource>(outMean, outVar, inMean, inVar[, counts][, sharedTmpBuffer], para) over abLength
// (welfordfinalize_common_impl.h): with counts c_i, mean = sum(m_i * c_i * rRec), var = sum(((m_i - mean)^2 * c_i
// + v_i) * rRec); without counts each element's weight is rnLength (tailCount == 0: mean = sum(m_i * abRec)) or,
// with a tail, headCount for the first headCountLength elements and tailCount after. outputs: element 0.
//
// Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta
// [, sharedTmpBuffer], epsilon, para), [A, R] rows rLengthWithPadding apart (32-byte aligned in T), T/U half or float:
// rstd = 1 / sqrt(var + epsilon) (float, A values), y = (x - mean) * rstd * gamma + beta over the first rLength
// columns (config.isNoGamma / isNoBeta drop gamma / beta), in float, rounded once to T.
//
// DeepNorm<T, isReuseSrc, isBasicBlock>(dst, mean, variance, src, gx, beta, gamma[, sharedTmpBuffer], alpha, epsilon,
// tiling) (normalization/deepnorm/deepnorm_common_impl.h), [B, S, H] rows hLength apart, T half or float, in float:
// x1 = alpha * x + gx, mean = sum(x1) * lastDimValueBack, variance = sum((x1 - mean)^2) * lastDimValueBack over the
// first originalHLength columns, y = (x1 - mean) / sqrt(variance + epsilon) * gamma + beta; mean / variance (B x S)
// and y rounded once to T. The tiling comes from GetDeepNormTilingInfo (a zero oneTmpSize is reported, as is a
// shared buffer smaller than its tmpBufSize floats).
#pragma once

#include <vector>

#include "adv_softmax.h"
#include "adv_pad_norm_transpose_tiling.h"
#include "lib_internal.h"

namespace AscendC {

struct WelfordUpdateConfig {
    constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
    bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

struct WelfordUpdateParam {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t abComputeLength;
    float nRec;
};

#ifndef ASCC_ENUM_REDUCEPATTERN
#define ASCC_ENUM_REDUCEPATTERN
enum class ReducePattern : uint32_t {
    AR = 0, RA = 1, R, ARA, ARAR, ARARA, ARARAR, ARARARA, ARARARAR, ARARARARA, RAR, RARA, RARAR, RARARA, RARARAR,
    RARARARA,
};
#endif

struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1;
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};

struct NormalizePara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};

struct WelfordFinalizePara {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t headCount;
    uint32_t headCountLength;
    uint32_t tailCount;
    uint32_t tailCountLength;
    float abRec;
    float rRec;
};

}  // namespace AscendC

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

template <typename T, typename U, bool isReuseSource, bool inplace>
inline void welford_update(const AscendC::LocalTensor<U>& outMean, const AscendC::LocalTensor<U>& outVar,
                           const AscendC::LocalTensor<U>& inMean, const AscendC::LocalTensor<U>& inVar,
                           const AscendC::LocalTensor<T>& x, const AscendC::LocalTensor<uint8_t>* tmp,
                           const AscendC::WelfordUpdateParam& para, const loc_t& loc) {
    const char* api = "WelfordUpdate";
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "Failed to check dtype of inputX, inputX support dtype is: half/float.");
    static_assert(std::is_same_v<U, float>, "Failed to check dtype of mean/var, mean/var support dtype is: float.");
    touch(api, loc);
    if (para.rnLength != 1) {
        fail("SIM-WELFORD-PARA", fmt("WelfordUpdate: para.rnLength is %u; the API supports rnLength 1 only (split the "
                                     "reduce axis and call it once per row)", para.rnLength), loc, "api_mismatch", api);
    }
    if (para.abComputeLength == 0 || para.abComputeLength > para.abLength) {
        fail("SIM-WELFORD-PARA", fmt("WelfordUpdate: para.abComputeLength %u must be in 1..abLength (%u)",
                                     para.abComputeLength, para.abLength), loc, "api_mismatch", api);
    }
    if ((uint64_t(para.abLength) * sizeof(T)) % 32 != 0) {
        fail("SIM-WELFORD-PARA", fmt("WelfordUpdate: para.abLength %u x %zu B is not 32-byte aligned; pad it",
                                     para.abLength, sizeof(T)), loc, "api_mismatch", api);
    }
    const uint64_t n = para.abComputeLength, ab = para.abLength;
    check_local(x, "inputX", api, ab * sizeof(T), loc);
    check_local(inMean, "inputMean", api, ab * sizeof(U), loc);
    check_local(inVar, "inputVariance", api, ab * sizeof(U), loc);
    check_local(outMean, "outputMean", api, (inplace ? ab : n) * sizeof(U), loc);
    check_local(outVar, "outputVariance", api, (inplace ? ab : n) * sizeof(U), loc);
    if (tmp != nullptr) {
        const uint32_t bufs = sizeof(T) == sizeof(half) ? 3u : (isReuseSource ? 1u : 2u);
        if (tmp->GetSize() < bufs * 256u) {
            fail("SIM-WELFORD-TMP", fmt("WelfordUpdate: sharedTmpBuffer is %u B, smaller than the %u B (%u x 256 B) "
                                        "it needs; size it with GetWelfordUpdateMaxMinTmpSize", tmp->GetSize(),
                                        bufs * 256u, bufs), loc, "api_mismatch", api);
        }
        check_local(*tmp, "sharedTmpBuffer", api, bufs * 256u, loc);
    }
    if (inplace && n < ab) {
        const uint64_t len = (ab - n + 7) / 8 * 8;
        for (uint64_t i = ab - len; i < ab; ++i) {
            outMean.addr_[i] = inMean.addr_[i];
            outVar.addr_[i] = inVar.addr_[i];
        }
    }
    for (uint64_t i = 0; i < n; ++i) {
        const float xv = static_cast<float>(x.addr_[i]);
        const float m0 = inMean.addr_[i], v0 = inVar.addr_[i];
        const float d = xv - m0;
        const float m1 = d * para.nRec + m0;
        outVar.addr_[i] = d * (xv - m1) + v0;
        outMean.addr_[i] = m1;
    }
    vec_charge("muls", api, double((n * sizeof(float) + 255) / 256) * 6, outMean.slot_,
               {x.slot_, inMean.slot_, inVar.slot_}, loc);
}

inline void welford_finalize(const AscendC::LocalTensor<float>& outMean, const AscendC::LocalTensor<float>& outVar,
                             const AscendC::LocalTensor<float>& inMean, const AscendC::LocalTensor<float>& inVar,
                             const AscendC::LocalTensor<int32_t>* counts, const AscendC::WelfordFinalizePara& para,
                             const loc_t& loc) {
    const char* api = "WelfordFinalize";
    touch(api, loc);
    const uint32_t ab = para.abLength;
    if (ab == 0 || ab % 8 != 0) {
        fail("SIM-WELFORD-PARA", fmt("WelfordFinalize: para.abLength %u must be a positive multiple of 8 (32 bytes of "
                                     "float)", ab), loc, "api_mismatch", api);
    }
    if (counts == nullptr && para.tailCountLength != 0 && para.tailCount == 0) {
        fail("SIM-WELFORD-PARA", "WelfordFinalize: para.tailCount should not be zero when para.tailCountLength is "
                                 "non-zero", loc, "api_mismatch", api);
    }
    if (counts == nullptr && para.tailCountLength != 0 && para.headCountLength + para.tailCountLength != ab) {
        fail("SIM-WELFORD-PARA", fmt("WelfordFinalize: headCountLength %u + tailCountLength %u must equal abLength %u",
                                     para.headCountLength, para.tailCountLength, ab), loc, "api_mismatch", api);
    }
    check_local(inMean, "inputMean", api, uint64_t(ab) * 4, loc);
    check_local(inVar, "inputVariance", api, uint64_t(ab) * 4, loc);
    if (counts) check_local(*counts, "counts", api, uint64_t(ab) * 4, loc);
    check_local(outMean, "outputMean", api, 4, loc);
    check_local(outVar, "outputVariance", api, 4, loc);
    const bool tail = counts == nullptr && para.tailCountLength != 0 && para.tailCount != 0;
    auto weight = [&](uint32_t i) -> float {
        if (counts) return static_cast<float>(counts->addr_[i]);
        if (tail) return static_cast<float>(i < para.headCountLength ? para.headCount : para.tailCount);
        return static_cast<float>(para.rnLength);
    };
    float mean = 0;
    for (uint32_t i = 0; i < ab; ++i) {
        mean += (counts || tail) ? inMean.addr_[i] * weight(i) * para.rRec : inMean.addr_[i] * para.abRec;
    }
    float var = 0;
    for (uint32_t i = 0; i < ab; ++i) {
        const float d = inMean.addr_[i] - mean;
        var += (d * d * weight(i) + inVar.addr_[i]) * para.rRec;
    }
    outMean.addr_[0] = mean;
    outVar.addr_[0] = var;
    vec_charge("whole_reduce_sum", api, double((uint64_t(ab) * 4 + 255) / 256) * 8, outMean.slot_,
               {inMean.slot_, inVar.slot_}, loc);
}

template <typename U, typename T>
inline void normalize_rows(const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<float>& rstdOut,
                           const AscendC::LocalTensor<float>& mean, const AscendC::LocalTensor<float>& var,
                           const AscendC::LocalTensor<T>& x, const AscendC::LocalTensor<U>* gamma,
                           const AscendC::LocalTensor<U>* beta, float eps, const AscendC::NormalizePara& para,
                           bool onlyOutput, const loc_t& loc) {
    const char* api = "Normalize";
    static_assert(one_of_v<T, half, float> && one_of_v<U, half, float> && sizeof(U) >= sizeof(T),
                  "Failed to check dtype in Normalize, current api support dtype combination is inputX half with "
                  "gamma/beta half or float, inputX float with gamma/beta float.");
    touch(api, loc);
    const uint32_t A = para.aLength, R = para.rLength, RP = para.rLengthWithPadding;
    if (A == 0 || R == 0) return;
    if (R > RP || (uint64_t(RP) * sizeof(T)) % 32 != 0) {
        fail("SIM-NORMALIZE-SHAPE", fmt("Normalize: rLengthWithPadding %u must be at least rLength %u and 32-byte "
                                        "aligned in the input type", RP, R), loc, "api_mismatch", api);
        return;
    }
    check_local(x, "inputX", api, uint64_t(A) * RP * sizeof(T), loc);
    check_local(out, "output", api, uint64_t(A) * RP * sizeof(T), loc);
    check_local(mean, "inputMean", api, uint64_t(A) * 4, loc);
    check_local(var, "inputVariance", api, uint64_t(A) * 4, loc);
    if (!onlyOutput) check_local(rstdOut, "outputRstd", api, uint64_t(A) * 4, loc);
    if (gamma) check_local(*gamma, "gamma", api, uint64_t(R) * sizeof(U), loc);
    if (beta) check_local(*beta, "beta", api, uint64_t(R) * sizeof(U), loc);
    for (uint32_t a = 0; a < A; ++a) {
        const float rstd = 1.0f / m::sqrt(var.addr_[a] + eps);
        const float mu = mean.addr_[a];
        for (uint32_t r = 0; r < R; ++r) {
            float y = (static_cast<float>(x.addr_[uint64_t(a) * RP + r]) - mu) * rstd;
            if (gamma) y *= static_cast<float>(gamma->addr_[r]);
            if (beta) y += static_cast<float>(beta->addr_[r]);
            out.addr_[uint64_t(a) * RP + r] = static_cast<T>(y);
        }
        if (!onlyOutput) rstdOut.addr_[a] = rstd;
    }
    vec_charge("muls", api, double((uint64_t(A) * RP * 4 + 255) / 256) * 4, out.slot_, {x.slot_, mean.slot_, var.slot_},
               loc);
}

template <typename T, bool isBasicBlock>
inline void deepnorm_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& meanOut,
                          const AscendC::LocalTensor<T>& varOut, const AscendC::LocalTensor<T>& src,
                          const AscendC::LocalTensor<T>& gx, const AscendC::LocalTensor<T>& beta,
                          const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<uint8_t>* tmp, float alpha,
                          float eps, const DeepNormTiling& t, const loc_t& loc) {
    const char* api = "DeepNorm";
    static_assert(one_of_v<T, half, float>,
                  "Failed to check dtype in DeepNorm, current api support dtype combination is half, float.");
    touch(api, loc);
    const uint32_t rows = t.bLength * t.sLength, h = t.hLength;
    const uint32_t n = t.originalHLength ? t.originalHLength : h;
    if (rows == 0 || h == 0 || t.oneTmpSize == 0) {
        fail("SIM-DEEPNORM-TILING", "DeepNorm: the tiling is empty (B*S, H or oneTmpSize is 0); fill DeepNormTiling with "
                                    "GetDeepNormTilingInfo and check that it returned true", loc, "api_mismatch", api);
        return;
    }
    if ((uint64_t(h) * sizeof(T)) % 32 != 0 || n > h || (isBasicBlock && (h % 64 != 0 || rows % 8 != 0))) {
        fail("SIM-DEEPNORM-SHAPE", fmt("DeepNorm: H %u (originalH %u, B*S %u) must be 32-byte aligned and at least "
                                       "originalH%s", h, n, rows, isBasicBlock ? "; isBasicBlock needs H % 64 == 0 and "
                                       "B*S % 8 == 0" : ""), loc, "api_mismatch", api);
        return;
    }
    const uint64_t total = uint64_t(rows) * h;
    check_local(src, "srcLocal", api, total * sizeof(T), loc);
    check_local(gx, "gxLocal", api, total * sizeof(T), loc);
    check_local(dst, "dstLocal", api, total * sizeof(T), loc);
    check_local(gamma, "gammaLocal", api, uint64_t(h) * sizeof(T), loc);
    check_local(beta, "betaLocal", api, uint64_t(h) * sizeof(T), loc);
    check_local(meanOut, "meanLocal", api, uint64_t(rows) * sizeof(T), loc);
    check_local(varOut, "rstdLocal", api, uint64_t(rows) * sizeof(T), loc);
    if (tmp != nullptr) check_local(*tmp, "sharedTmpBuffer", api, uint64_t(t.tmpBufSize) * 4, loc);
    std::vector<float> x1(h);
    for (uint32_t r = 0; r < rows; ++r) {
        const uint64_t base = uint64_t(r) * h;
        float s = 0;
        for (uint32_t j = 0; j < h; ++j) {
            x1[j] = alpha * static_cast<float>(src.addr_[base + j]) + static_cast<float>(gx.addr_[base + j]);
            if (j < n) s += x1[j] * t.lastDimValueBack;
        }
        float v = 0;
        for (uint32_t j = 0; j < n; ++j) {
            const float d = x1[j] - s;
            v += d * d * t.lastDimValueBack;
        }
        const float inv = 1.0f / m::sqrt(v + eps);
        for (uint32_t j = 0; j < n; ++j) {
            const float y = (x1[j] - s) * inv * static_cast<float>(gamma.addr_[j]) + static_cast<float>(beta.addr_[j]);
            dst.addr_[base + j] = static_cast<T>(y);
        }
        meanOut.addr_[r] = static_cast<T>(s);
        varOut.addr_[r] = static_cast<T>(v);
    }
    vec_charge("whole_reduce_sum", api, double((total * 4 + 255) / 256) * 10, dst.slot_, {src.slot_, gx.slot_}, loc);
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


template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                          const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                          const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
                          const WelfordUpdateParam& para, AKGEN_LOC) {
    ::akgen_sim::welford_update<T, U, isReuseSource, config.isInplace>(outputMean, outputVariance, inputMean,
                                                                       inputVariance, inputX, &sharedTmpBuffer, para,
                                                                       loc);
}
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                          const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                          const LocalTensor<T>& inputX, const WelfordUpdateParam& para, AKGEN_LOC) {
    ::akgen_sim::welford_update<T, U, isReuseSource, config.isInplace>(outputMean, outputVariance, inputMean,
                                                                       inputVariance, inputX, nullptr, para, loc);
}

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                      const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                      const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon, const NormalizePara& para,
                      AKGEN_LOC) {
    (void)sharedTmpBuffer;
    ::akgen_sim::normalize_rows<U, T>(output, outputRstd, inputMean, inputVariance, inputX,
                                      config.isNoGamma ? nullptr : &gamma, config.isNoBeta ? nullptr : &beta, epsilon,
                                      para, config.isOnlyOutput, loc);
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                      const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                      const float epsilon, const NormalizePara& para, AKGEN_LOC) {
    ::akgen_sim::normalize_rows<U, T>(output, outputRstd, inputMean, inputVariance, inputX,
                                      config.isNoGamma ? nullptr : &gamma, config.isNoBeta ? nullptr : &beta, epsilon,
                                      para, config.isOnlyOutput, loc);
}

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
                     const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                     const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer, const T alpha,
                     const T epsilon, DeepNormTiling& tiling, AKGEN_LOC) {
    ::akgen_sim::deepnorm_rows<T, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal,
                                                gammaLocal, &sharedTmpBuffer, static_cast<float>(alpha),
                                                static_cast<float>(epsilon), tiling, loc);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
                     const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                     const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon, DeepNormTiling& tiling,
                     AKGEN_LOC) {
    ::akgen_sim::deepnorm_rows<T, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal,
                                                gammaLocal, nullptr, static_cast<float>(alpha),
                                                static_cast<float>(epsilon), tiling, loc);
}

template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    ::akgen_sim::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, nullptr, para, loc);
}
template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            WelfordFinalizePara& para, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    ::akgen_sim::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, &counts, para, loc);
}
template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            WelfordFinalizePara& para, AKGEN_LOC) {
    ::akgen_sim::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, nullptr, para, loc);
}
template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<int32_t>& counts, WelfordFinalizePara& para, AKGEN_LOC) {
    ::akgen_sim::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, &counts, para, loc);
}

}  // namespace AscendC

namespace AscendC {
namespace tiling {
// kernel_tiling/kernel_tiling.h also declares the normalization tiling structs in AscendC::tiling.
using LayerNormSeparateTiling = ::LayerNormSeparateTiling;
using LayerNormTiling = ::LayerNormTiling;
using RmsNormTiling = ::RmsNormTiling;
}  // namespace tiling
}  // namespace AscendC
