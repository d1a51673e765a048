// akgen sim host side: the adv-API temporary-buffer size helpers a TilingFunc calls (adv_api/activation/
// sigmoid_tiling.h, adv_api/reduce/mean_tiling.h, sum_tiling.h), with the A2/A3 library's sizes. A bad argument is
// reported on stderr and leaves the outputs unchanged, as the library's ASCENDC_HOST_ASSERT(..., return, ...) does.
#pragma once

#include <cstdint>
#include <cstdio>

#include "graph.h"
#include "adv_host_tmpsize.h"  // the element-wise adv APIs' Get<Op>MaxMinTmpSize
#include "adv_host_pad_norm_quant.h"   // WelfordUpdate and other normalization / quantization tmp sizes

namespace AscendC {

using TensorShape = ge::Shape;

inline void GetSigmoidMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const int64_t inputSize = srcShape.GetShapeSize();
    if ((typeSize != 2 && typeSize != 4) || inputSize <= 0) {
        std::fprintf(stderr, "[GetSigmoidMaxMinTmpSize] typeSize must be 2 or 4 and the shape size greater than 0 "
                             "(got typeSize %u, shape size %lld)\n", typeSize, static_cast<long long>(inputSize));
        return;
    }
    const uint64_t bytes = static_cast<uint64_t>(inputSize) * typeSize;
    maxValue = static_cast<uint32_t>(bytes > 256 ? bytes : 256);
    minValue = 256;
}

inline void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                                 const bool isReuseSource, uint32_t& maxSize, uint32_t& minSize) {
    (void)isReuseSource;
    const bool ok_types = (srcTypeSize == 2 && accTypeSize == 2) || (srcTypeSize == 4 && accTypeSize == 4) ||
                          (srcTypeSize == 2 && accTypeSize == 4);
    if (!ok_types || n == 0) {
        std::fprintf(stderr, "[Mean][GetMeanMaxMinTmpSize] (srcTypeSize, accTypeSize) must be (2, 2), (4, 4) or "
                             "(2, 4) and n greater than 0 (got (%u, %u), n %u)\n", srcTypeSize, accTypeSize, n);
        return;
    }
    uint32_t perRep = 256 / srcTypeSize;
    uint32_t repeatTimes = (n + perRep - 1) / perRep;
    uint32_t work = (repeatTimes + 31) / 32 * 32;
    const uint32_t inner = (n * srcTypeSize + 31) / 32 * 32 / srcTypeSize;
    if (srcTypeSize == 2 && accTypeSize == 4) {
        perRep = 256 / 4;
        repeatTimes = (n + perRep - 1) / perRep;
        work = (repeatTimes + 31) / 32 * 32 + inner * 4;
    }
    maxSize = minSize = work;
}

inline void GetMeanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    (void)typeSize;
    maxLiveNodeCount = 1;
    extraBuffer = 0;
}

inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxSize,
                                uint32_t& minSize) {
    (void)isReuseSource;
    if (typeSize == 0 || typeSize > 32 || n == 0) {
        std::fprintf(stderr, "[Sum][GetSumMaxMinTmpSize] typeSize must be 2 or 4 and n greater than 0 (got typeSize "
                             "%u, n %u)\n", typeSize, n);
        return;
    }
    const uint32_t perBlk = 32 / typeSize, perRep = 256 / typeSize;
    const uint32_t repeatTimes = (n + perRep - 1) / perRep;
    maxSize = minSize = (repeatTimes + perBlk - 1) / perBlk * perBlk * typeSize;
}

}  // namespace AscendC
