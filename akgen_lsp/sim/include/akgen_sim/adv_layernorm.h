// akgen sim: the high-level LayerNorm, with the tiling type LayerNormTiling (field names of CANN's
// layernorm_tilingdata.h) and the [A, R] form's LayerNormPara / LayerNormSeparateTiling / LayerNormConfig.
//
// [B, S, H] form: for each of the B x S rows (rows hLength apart), over the first originalHLength elements:
// mean = sum(x) / n, variance = sum((x - mean)^2) / n, y = (x - mean) / sqrt(variance + epsilon) * gamma + beta;
// outputMean / outputVariance are B x S values. [A, R] form: the same over rLength of each row (rLengthWithPadding
// apart) with outputMean and outputRstd = 1 / sqrt(variance + epsilon) in float (config.isOutputRstd false: the
// variance), gamma/beta optional by config. All arithmetic in float, each output rounded once to its type
// (the real API sums in a binary tree: results can differ from it in the last bits). sharedTmpBuffer is accepted and
// not needed by the emulation.
#pragma once

#include "adv_softmax.h"

namespace AscendC {

struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
    bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};

struct LayerNormPara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};

}  // namespace AscendC

namespace akgen_sim {

// rows x n (rows `stride` apart): y, mean and var (or rstd) per row.
template <typename T, typename U, typename MV>
inline void layernorm_rows(const char* api, const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<MV>* mean,
                           const AscendC::LocalTensor<MV>* var, const AscendC::LocalTensor<T>& x,
                           const AscendC::LocalTensor<U>* gamma, const AscendC::LocalTensor<U>* beta, float eps,
                           uint32_t rows, uint32_t n, uint32_t stride, bool rstd, const loc_t& loc) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, bfloat16_t>,
                  "Failed to check dtype in LayerNorm, current api support dtype combination is half, float");
    touch(api, loc);
    if (rows == 0 || n == 0) return;
    if (n > stride) {
        fail("SIM-LAYERNORM-SHAPE", fmt("%s: the normalised length %u is larger than the row length %u", api, n, stride),
             loc, "api_mismatch", api);
    }
    if ((uint64_t(stride) * sizeof(T)) % 32 != 0) {
        fail("SIM-LAYERNORM-SHAPE", fmt("%s: the row length %u x %zu B is not 32-byte aligned (pad the last axis)", api,
                                        stride, sizeof(T)), loc, "api_mismatch", api);
    }
    uint64_t total = uint64_t(rows) * stride;
    check_local(x, "inputX", api, total * sizeof(T), loc);
    check_local(out, "output", api, total * sizeof(T), loc);
    if (gamma) check_local(*gamma, "gamma", api, uint64_t(n) * sizeof(U), loc);
    if (beta) check_local(*beta, "beta", api, uint64_t(n) * sizeof(U), loc);
    if (mean) check_local(*mean, "outputMean", api, uint64_t(rows) * sizeof(MV), loc);
    if (var) check_local(*var, rstd ? "outputRstd" : "outputVariance", api, uint64_t(rows) * sizeof(MV), loc);
    for (uint32_t r = 0; r < rows; ++r) {
        const T* xr = x.addr_ + uint64_t(r) * stride;
        T* yr = out.addr_ + uint64_t(r) * stride;
        float s = 0;
        for (uint32_t j = 0; j < n; ++j) s += static_cast<float>(xr[j]);
        float mu = s / float(n);
        float v = 0;
        for (uint32_t j = 0; j < n; ++j) {
            float d = static_cast<float>(xr[j]) - mu;
            v += d * d;
        }
        v /= float(n);
        float inv = 1.0f / m::sqrt(v + eps);
        for (uint32_t j = 0; j < n; ++j) {
            float y = (static_cast<float>(xr[j]) - mu) * inv;
            if (gamma) y *= static_cast<float>(gamma->addr_[j]);
            if (beta) y += static_cast<float>(beta->addr_[j]);
            yr[j] = static_cast<T>(y);
        }
        if (mean) mean->addr_[r] = static_cast<MV>(mu);
        if (var) var->addr_[r] = static_cast<MV>(rstd ? inv : v);
    }
    vec_charge("whole_reduce_sum", api, double((total * sizeof(T) + 255) / 256) * 6, out.slot_,
               {x.slot_, gamma ? gamma->slot_ : nullptr, beta ? beta->slot_ : nullptr}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

// [B, S, H]: output, mean and variance.
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                      const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamma,
                      const LocalTensor<T>& beta, const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
                      LayerNormTiling& tiling, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    uint32_t n = tiling.originalHLength ? tiling.originalHLength : tiling.hLength;
    ::akgen_sim::layernorm_rows("LayerNorm", output, &outputMean, &outputVariance, inputX, &gamma, &beta,
                                static_cast<float>(epsilon), tiling.bLength * tiling.sLength, n, tiling.hLength, false,
                                loc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                      const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamma,
                      const LocalTensor<T>& beta, const T epsilon, LayerNormTiling& tiling, AKGEN_LOC) {
    uint32_t n = tiling.originalHLength ? tiling.originalHLength : tiling.hLength;
    ::akgen_sim::layernorm_rows("LayerNorm", output, &outputMean, &outputVariance, inputX, &gamma, &beta,
                                static_cast<float>(epsilon), tiling.bLength * tiling.sLength, n, tiling.hLength, false,
                                loc);
}

// [A, R]: output, mean and rstd (or variance) in float.
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                      const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const LayerNormPara& para, const LayerNormSeparateTiling& tiling, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    (void)tiling;
    ::akgen_sim::layernorm_rows("LayerNorm", output, config.isOnlyOutput ? nullptr : &outputMean,
                                config.isOnlyOutput ? nullptr : &outputRstd, inputX,
                                config.isNoGamma ? nullptr : &gamma, config.isNoBeta ? nullptr : &beta, epsilon,
                                para.aLength, para.rLength, para.rLengthWithPadding, config.isOutputRstd, loc);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                      const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const LayerNormPara& para,
                      const LayerNormSeparateTiling& tiling, AKGEN_LOC) {
    (void)tiling;
    ::akgen_sim::layernorm_rows("LayerNorm", output, config.isOnlyOutput ? nullptr : &outputMean,
                                config.isOnlyOutput ? nullptr : &outputRstd, inputX,
                                config.isNoGamma ? nullptr : &gamma, config.isNoBeta ? nullptr : &beta, epsilon,
                                para.aLength, para.rLength, para.rLengthWithPadding, config.isOutputRstd, loc);
}

}  // namespace AscendC
