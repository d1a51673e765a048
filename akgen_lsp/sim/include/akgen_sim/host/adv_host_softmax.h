// akgen sim host side: the SoftMax / SoftMaxGrad tiling helpers of adv_api/activation/softmax_tiling.h with the A2/A3
// (dav-2201) sizes: Get{SoftMax,SoftMaxGrad}{Max,Min}TmpSize (bytes of float work space), SoftMaxTilingFunc /
// SoftMaxGradTilingFunc (fill SoftMaxTiling: rows of the last axis, the per-pass row count baseM that the work space
// holds, rounded to 8 rows and to the basic block, and the tail), IsBasicBlockInSoftMax. The shape is read as
// [prod(other axes), last axis]. A bad argument is reported on stderr; the sizes are then 0 and the tiling untouched.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "../adv_tiling.h"
#include "graph.h"

namespace AscendC {

using TensorShape = ge::Shape;

namespace akgen_softmax {
constexpr uint32_t kBlk = 32, kBasicTile = 8, kUnit = 64, kBasicMin = 256;

inline bool rows(const char* fn, const TensorShape& s, uint32_t typeSize, uint32_t& m, uint32_t& k) {
    if (s.GetShapeSize() <= 0 || s.GetDimNum() == 0 || (typeSize != 2 && typeSize != 4)) {
        std::fprintf(stderr, "[%s] the shape must have elements and dataTypeSize must be 2 (half) or 4 (float) (got "
                             "%lld elements, dataTypeSize %u)\n", fn, static_cast<long long>(s.GetShapeSize()),
                     typeSize);
        return false;
    }
    k = static_cast<uint32_t>(s.GetDim(s.GetDimNum() - 1));
    m = static_cast<uint32_t>(s.GetShapeSize()) / k;
    if ((uint64_t(k) * typeSize) % kBlk != 0)
        std::fprintf(stderr, "[%s] the last axis (%u elements) should be a whole number of 32-byte blocks\n", fn, k);
    return true;
}

inline void basic_block_m(uint32_t& baseM, uint32_t m, uint32_t k) {
    if (baseM > kBasicTile && m % kBasicTile == 0 && k % kUnit == 0) {
        baseM = baseM / kBasicTile * kBasicTile;
        while (baseM != 0 && m % baseM != 0) baseM -= kBasicTile;
        while (baseM * k >= kUnit * kBasicMin) baseM /= 2;  // at most 255 repeats
    }
}

// Fills a SoftMaxTiling, or a tiling of the same fields (LogSoftMaxTiling).
template <class Tiling>
inline void fill(Tiling& t, uint32_t m, uint32_t k, uint32_t perBlk, uint32_t baseM) {
    t.set_srcM(m);
    t.set_srcK(k);
    t.set_srcSize(m * k);
    t.set_outMaxM(m);
    t.set_outMaxK(perBlk);
    t.set_outMaxSize(m * perBlk);
    t.set_splitM(baseM);
    t.set_splitK(k);
    t.set_splitSize(baseM * k);
    t.set_reduceM(baseM);
    t.set_reduceK(perBlk);
    t.set_reduceSize(baseM * perBlk);
    uint32_t tail = 0;
    if (baseM != 0) {
        tail = m % baseM;
        t.set_rangeM(m / baseM);
    }
    t.set_tailM(tail);
    t.set_tailSplitSize(tail * k);
    t.set_tailReduceSize(tail * perBlk);
}

inline uint32_t split_m(uint32_t work, uint32_t perRow, uint32_t m, uint32_t k) {
    uint32_t baseM = std::min(perRow ? work / perRow : 0u, m);
    if (baseM < m && baseM > kBasicTile) baseM = baseM / kBasicTile * kBasicTile;
    basic_block_m(baseM, m, k);
    return baseM;
}

inline uint32_t grad_row(uint32_t typeSize, uint32_t k, bool isFront) {
    const uint32_t perBlk = kBlk / typeSize;
    if (typeSize == 2) return perBlk * 2 + k * 3 + kUnit;
    return isFront ? perBlk + k + kUnit : perBlk * 2 + k + kUnit;
}
}  // namespace akgen_softmax

inline uint32_t GetSoftMaxMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource) {
    (void)isReuseSource;
    uint32_t m = 0, k = 0;
    if (!akgen_softmax::rows("GetSoftMaxMaxTmpSize", srcShape, dataTypeSize, m, k)) return 0;
    return m * (akgen_softmax::kBlk / dataTypeSize + k + akgen_softmax::kUnit) * 4;
}
inline uint32_t GetSoftMaxMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource) {
    (void)isReuseSource;
    uint32_t m = 0, k = 0;
    if (!akgen_softmax::rows("GetSoftMaxMinTmpSize", srcShape, dataTypeSize, m, k)) return 0;
    return (akgen_softmax::kBlk / dataTypeSize + k + akgen_softmax::kUnit) * 4;
}
inline void SoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, SoftMaxTiling& softmaxTiling) {
    uint32_t m = 0, k = 0;
    if (!akgen_softmax::rows("SoftMaxTilingFunc", srcShape, dataTypeSize, m, k)) return;
    const uint32_t perBlk = akgen_softmax::kBlk / dataTypeSize;
    const uint32_t baseM = akgen_softmax::split_m(localWorkSpaceSize / 4, perBlk + k + akgen_softmax::kUnit, m, k);
    akgen_softmax::fill(softmaxTiling, m, k, perBlk, baseM);
}

inline uint32_t GetSoftMaxGradMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isReuseSource;
    uint32_t m = 0, k = 0;
    if (!akgen_softmax::rows("GetSoftMaxGradMaxTmpSize", srcShape, dataTypeSize, m, k)) return 0;
    return m * akgen_softmax::grad_row(dataTypeSize, k, isFront) * 4;
}
inline uint32_t GetSoftMaxGradMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isReuseSource;
    uint32_t m = 0, k = 0;
    if (!akgen_softmax::rows("GetSoftMaxGradMinTmpSize", srcShape, dataTypeSize, m, k)) return 0;
    return akgen_softmax::grad_row(dataTypeSize, k, isFront) * 4;
}
inline void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false) {  // the default of CANN's softmax_tiling.h
    uint32_t m = 0, k = 0;
    if (!akgen_softmax::rows("SoftMaxGradTilingFunc", srcShape, dataTypeSize, m, k)) return;
    const uint32_t perBlk = akgen_softmax::kBlk / dataTypeSize;
    const uint32_t baseM =
        akgen_softmax::split_m(localWorkSpaceSize / 4, akgen_softmax::grad_row(dataTypeSize, k, isFront), m, k);
    akgen_softmax::fill(softmaxGradTiling, m, k, perBlk, baseM);
}

inline bool IsBasicBlockInSoftMax(SoftMaxTiling& tiling, const uint32_t dataTypeSize) {
    if (dataTypeSize == 0) return false;
    const uint32_t k = tiling.get_srcK();
    return tiling.get_tailM() == 0 && k >= akgen_softmax::kBasicMin / dataTypeSize && k < 2048 &&
           k % akgen_softmax::kUnit == 0;
}

}  // namespace AscendC
