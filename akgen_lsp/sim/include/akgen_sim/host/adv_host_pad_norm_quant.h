// akgen sim host side: temporary-buffer size helpers of normalization / quantization adv APIs on A2/A3 (dav-2201),
// with the library's sizes (impl/adv_api/tiling/...). A bad argument is reported on stderr and leaves the outputs
// unchanged, as the library's ASCENDC_HOST_ASSERT(..., return, ...) does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "graph.h"
#include "../adv_pad_norm_transpose_tiling.h"
#include "../adv_tiling.h"
#include "../../tiling/platform/platform_ascendc.h"
#include "../../securec.h"  // CANN host builds have securec's memcpy_s in scope

namespace AscendC {
namespace tiling {
// as kernel_tiling/kernel_tiling.h declares them (also declared, identically, by adv_normalization.h on the kernel side)
using LayerNormSeparateTiling = ::LayerNormSeparateTiling;
using LayerNormTiling = ::LayerNormTiling;
}  // namespace tiling

// WelfordUpdate (normalization/layernorm_tiling_impl.cpp): srcShape [rnLength, abLength]; min is one 256-byte repeat
// per work tensor (3 for a half input, 1 for float with isReuseSource, else 2), max that for every 64 floats of the
// shape. isInplace and typeSizeU do not change the size.
inline void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeT, const uint32_t typeSizeU,
                                          const bool isReuseSource, const bool isInplace, uint32_t& maxValue,
                                          uint32_t& minValue) {
    (void)typeSizeU;
    (void)isInplace;
    const std::vector<int64_t> dims = srcShape.GetDims();
    if (dims.size() != 2) {
        std::fprintf(stderr, "[GetWelfordUpdateMaxMinTmpSize] srcShape dims must be 2 ([rnLength, abLength]), got %zu: "
                             "pass the shape as {rnLength, abLength}\n", dims.size());
        return;
    }
    const uint32_t rn = static_cast<uint32_t>(dims[0]), ab = static_cast<uint32_t>(dims[1]);
    const uint32_t bufs = typeSizeT == sizeof(uint16_t) ? 3u : (isReuseSource ? 1u : 2u);
    minValue = bufs * 256u;
    maxValue = (rn * ab + 63u) / 64u * minValue;
}

namespace akgen_host {

inline bool pad_args_ok(const char* api, const ge::Shape& shape, uint32_t typeSize) {
    if (typeSize != 2 && typeSize != 4) {
        std::fprintf(stderr, "[%s] The value of typeSize is %u, should be 2 or 4.\n", api, typeSize);
        return false;
    }
    if (shape.GetDims().size() != 2) {
        std::fprintf(stderr, "[%s] The dims of srcShape is %zu, should be 2: pass {height, width}.\n", api,
                     shape.GetDims().size());
        return false;
    }
    return true;
}

// Pad / UnPad temporary space (pad_tiling_impl.cpp): two buffers of 16 rows of one 32-byte block per 16 elements.
inline void pad_tmp_sizes(const ge::Shape& shape, uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    const std::vector<int64_t> d = shape.GetDims();
    const uint32_t n = static_cast<uint32_t>(d[0] * d[1]);
    const uint32_t perRow = (32u / typeSize) * 2u * typeSize;
    maxValue = ((n - 1u) / 16u + 1u) * 16u * perRow;
    minValue = 16u * perRow;
}

}  // namespace akgen_host

// Pad: temporary space for the unaligned-width path (the aligned path needs none).
inline void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue) {
    if (!akgen_host::pad_args_ok("Pad][GetPadMaxMinTmpSize", srcShape, typeSize)) return;
    akgen_host::pad_tmp_sizes(srcShape, typeSize, maxValue, minValue);
}

// PadTiling for srcShape [height, width] (oriSrcShape's width: the valid columns) and a stack of stackBufferSize bytes.
inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, PadTiling& tiling) {
    if (!akgen_host::pad_args_ok("Pad][PadTilingFunc", srcShape, typeSize)) return;
    if (oriSrcShape.GetDims().size() != 2 || oriSrcShape.GetShapeSize() > srcShape.GetShapeSize()) {
        std::fprintf(stderr, "[Pad][PadTilingFunc] oriSrcShape must be 2-D and no larger than srcShape.\n");
        return;
    }
    const uint32_t h = static_cast<uint32_t>(srcShape.GetDims()[0]);
    const uint32_t w = static_cast<uint32_t>(srcShape.GetDims()[1]);
    const uint32_t epb = 32u / typeSize;
    tiling.set_srcHeight(h);
    tiling.set_srcWidth(w);
    tiling.set_srcOriWidth(static_cast<uint32_t>(oriSrcShape.GetDims()[1]));
    const uint32_t withoutLast = w - epb;
    tiling.set_widthWithoutLastBlock(withoutLast);
    tiling.set_blocksPerRow(w * typeSize / 32u);
    const uint32_t heightTiling = 255u;
    tiling.set_heightTiling(heightTiling);
    tiling.set_heightFractal(h / heightTiling);
    tiling.set_heightFractalTail(h % heightTiling);
    tiling.set_mainLoopOffset(heightTiling * w);
    tiling.set_tailBlockOffset(h / heightTiling * heightTiling * w + withoutLast);
    if (stackBufferSize == 0) return;
    const uint32_t baseBlockSize = 16u * 32u / typeSize;
    const uint32_t blockNum = stackBufferSize / typeSize / baseBlockSize / 2u;
    tiling.set_tmpBuffer1RowNum(16u * blockNum);
    tiling.set_tmpBuffer1BlockNum(blockNum);
    tiling.set_tmpBuffer2Offset(blockNum * baseBlockSize);
    const uint32_t widthTiling = 16u * blockNum;
    if (widthTiling == 0) return;  // stack smaller than GetPadMaxMinTmpSize's min: Pad reports it
    const uint32_t tail = w % widthTiling;
    tiling.set_widthTiling(widthTiling);
    tiling.set_widthFractal(w / widthTiling);
    tiling.set_widthFractalTail(tail);
    tiling.set_widthFractalTailAlingned(((tail - 1u) / epb + 1u) * epb);
    const uint32_t brcbTiling = widthTiling;
    const uint32_t brcbTail = h * w % brcbTiling;
    tiling.set_brcbTiling(brcbTiling);
    tiling.set_brcbFractal(h * w / brcbTiling);
    tiling.set_brcbFractalTail(brcbTail);
    const uint32_t maxRepeat = 254u;  // 255 x 8 is not 32-byte aligned
    tiling.set_maxRepeatTimes(maxRepeat);
    tiling.set_brcbTilingRepeatTimes(brcbTiling / 8u / maxRepeat);
    tiling.set_brcbTilingRepeatTimesTail(brcbTiling / 8u % maxRepeat);
    tiling.set_brcbFractalTailRepeatTimes(brcbTail / 8u / maxRepeat);
    tiling.set_brcbFractalTailRepeatTimesTail(brcbTail / 8u % maxRepeat);
}

// UnPad: no temporary space on A2/A3 (one GatherMask): 0 / 0, as the library answers for dav-2201.
inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                  const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform;
    if (!akgen_host::pad_args_ok("UnPad][GetUnPadMaxMinTmpSize", srcShape, typeSize)) return;
    maxValue = 0;
    minValue = 0;
}

inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            UnPadTiling& tiling) {
    if (!akgen_host::pad_args_ok("UnPad][UnPadTilingFunc", srcShape, typeSize)) return;
    tiling.set_srcHeight(static_cast<uint32_t>(srcShape.GetDims()[0]));
    tiling.set_srcWidth(static_cast<uint32_t>(srcShape.GetDims()[1]));
    if (stackBufferSize == 0) return;
    const uint32_t baseBlockSize = 16u * 32u / typeSize;
    const uint32_t blockNum = stackBufferSize / typeSize / baseBlockSize / 2u;
    tiling.set_tmpBuffer1BlockNum(blockNum);
    tiling.set_tmpBuffer1RowNum(16u * blockNum);
    tiling.set_tmpBuffer2Offset(blockNum * baseBlockSize);
    const uint32_t widthTiling = 16u * blockNum;
    if (widthTiling == 0) return;
    const uint32_t w = static_cast<uint32_t>(srcShape.GetDims()[1]);
    uint32_t fractal = w / widthTiling, tail = w % widthTiling;
    if (tail != 0) {
        fractal += 1;
    } else {
        tail = widthTiling;
    }
    tiling.set_widthTiling(widthTiling);
    tiling.set_widthFractal(fractal);
    tiling.set_widthFractalTail(tail);
}

// AscendDequant (quantization/ascend_dequant_tiling_impl.cpp): srcShape [m, n] or [n], int32_t (typeSize 4).
// Floats: one 256-byte repeat of reserve, the float deqScale (n + 8) and the float source (all m rows: max; one row:
// min).
inline void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                          uint32_t& minValue) {
    const std::vector<int64_t> d = srcShape.GetDims();
    if (srcShape.GetShapeSize() <= 0 || d.empty() || d.size() > 2 || typeSize != 4) {
        std::fprintf(stderr, "[AscendDequant][GetAscendDequantMaxMinTmpSize] the source must be a 1-D or 2-D int32_t "
                             "shape (typeSize 4) of at least one element (got %zu dims, typeSize %u)\n", d.size(),
                     typeSize);
        return;
    }
    const uint32_t outer = d.size() == 2 ? static_cast<uint32_t>(d[0]) : 1u;
    const uint32_t inner = static_cast<uint32_t>(d.back());
    const uint32_t scale = inner + 8u;
    maxValue = (64u + outer * inner + scale) * 4u;
    minValue = (64u + inner + scale) * 4u;
}
inline void GetAscendDequantTmpBufferFactorSize(const ge::Shape& srcShape, uint32_t& maxLiveNodeCount,
                                                uint32_t& extraBuf) {
    const std::vector<int64_t> d = srcShape.GetDims();
    extraBuf = 8u + 64u;
    if (d.size() == 2) {
        extraBuf += static_cast<uint32_t>(d[1]);
        maxLiveNodeCount = 1u;
    } else if (d.size() == 1) {
        maxLiveNodeCount = 2u;
    } else {
        extraBuf = 0u;
        maxLiveNodeCount = 0u;
    }
}

// AscendAntiQuant (quantization/ascend_antiquant_tiling_impl.cpp), int8 sources: a half output needs no temporary
// space (0); a bfloat16_t one float work areas: per channel and not transposed 2 x scale + 64 x K floats (both max and
// min), transposed 80 x N floats, a single scale the whole source (max) or 1024 bytes (min).
namespace akgen_host {
inline uint32_t antiquant_tmp(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                              ge::DataType outputDataType, bool wantMax) {
    if (outputDataType == ge::DT_FLOAT16) return 0;
    const uint32_t scaleSize = static_cast<uint32_t>(scaleShape.GetShapeSize());
    const uint32_t srcSize = static_cast<uint32_t>(srcShape.GetShapeSize());
    const bool perChannel = scaleSize != 1;
    if (isTranspose && perChannel) return (8u + 8u + 64u) * scaleSize * 4u;
    if (!perChannel) return wantMax ? srcSize * 4u : 1024u;
    const uint32_t k = static_cast<uint32_t>(srcShape.GetDims()[0]);
    return scaleSize * 2u * 4u + 64u * k * 4u;
}
inline bool antiquant_args_ok(const char* fn, const ge::Shape& srcShape) {
    if (srcShape.GetShapeSize() > 0) return true;
    std::fprintf(stderr, "[AscendAntiQuant][%s] Input Shape size must be greater than 0.\n", fn);
    return false;
}
}  // namespace akgen_host

inline uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             ge::DataType inputDataType, ge::DataType outputDataType) {
    (void)inputDataType;
    if (!akgen_host::antiquant_args_ok("GetAscendAntiQuantMaxTmpSize", srcShape)) return 0;
    return akgen_host::antiquant_tmp(srcShape, scaleShape, isTranspose, outputDataType, true);
}
inline uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             ge::DataType inputDataType, ge::DataType outputDataType) {
    (void)inputDataType;
    if (!akgen_host::antiquant_args_ok("GetAscendAntiQuantMinTmpSize", srcShape)) return 0;
    return akgen_host::antiquant_tmp(srcShape, scaleShape, isTranspose, outputDataType, false);
}
inline void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                            ge::DataType inputDataType, ge::DataType outputDataType,
                                            uint32_t& maxValue, uint32_t& minValue) {
    (void)inputDataType;
    if (!akgen_host::antiquant_args_ok("GetAscendAntiQuantMaxMinTmpSize", srcShape)) return;
    maxValue = akgen_host::antiquant_tmp(srcShape, scaleShape, isTranspose, outputDataType, true);
    minValue = akgen_host::antiquant_tmp(srcShape, scaleShape, isTranspose, outputDataType, false);
}

// Normalize (normalization/normalize_tiling_impl.cpp), srcShape [A, R], A2/A3 sizes in bytes (32-byte rounded):
// max 2 x R + 2 x A(rounded up to 8) x R floats, min max(A floats, 2 x R floats (float gamma) or 4 x R (half)).
inline void GetNormalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const std::vector<int64_t> d = srcShape.GetDims();
    if (!isComputeRstd || isOnlyOutput || typeSizeU == 0 || typeSizeT == 0 || d.size() < 2) {
        std::fprintf(stderr, "[Normalize][GetNormalizeMaxMinTmpSize] needs isComputeRstd true, isOnlyOutput false, "
                             "non-zero type sizes and an [A, R] shape\n");
        return;
    }
    auto up32 = [](uint32_t b) { return (b + 31u) / 32u * 32u; };
    const uint32_t a = static_cast<uint32_t>(d[0]), r = static_cast<uint32_t>(d[1]);
    const uint32_t align = 32u / typeSizeT;
    const uint32_t rp = (r + align - 1u) / align * align;
    const uint32_t rBytes = up32(rp * 4u);
    maxValue = 2u * rBytes + 2u * up32((a + 7u) / 8u * 8u * rp * 4u);
    const uint32_t nr = typeSizeU == 4u ? 2u * rBytes : 4u * rBytes;
    minValue = std::max(up32(a * 4u), nr);
}

// LayerNorm [A, R] (normalization/layernorm_tiling_impl.cpp, A2/A3): 2 float work copies (rows padded to 32 bytes of
// typeSize) plus the A float variances, at least the Normalize sizes plus the variances.
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
                                      uint32_t& minValue) {
    const std::vector<int64_t> d = srcShape.GetDims();
    if (typeSize == 0 || isOnlyOutput || d.size() < 2) {
        std::fprintf(stderr, "[LayerNorm][GetLayerNormMaxMinTmpSize] needs a non-zero typeSize, isOnlyOutput false "
                             "and an [A, R] shape\n");
        return;
    }
    auto up32 = [](uint32_t b) { return (b + 31u) / 32u * 32u; };
    const uint32_t a = static_cast<uint32_t>(d[0]), r = static_cast<uint32_t>(d[1]);
    const uint32_t align = 32u / typeSize;
    const uint32_t rp = (r + align - 1u) / align * align;
    const uint32_t mv = up32(a * 4u);
    uint32_t mx = 2u * up32(a * rp * 4u) + mv;
    uint32_t mn = 2u * up32(rp * 4u) + mv;
    uint32_t nmx = 0, nmn = 0;
    GetNormalizeMaxMinTmpSize(srcShape, typeSize, typeSize, isReuseSource, isComputeRstd, isOnlyOutput, nmx, nmn);
    if (mn - mv <= nmn) mn = nmn + mv;
    if (mx - mv <= nmx) mx = nmx + mv;
    maxValue = mx;
    minValue = mn;
}

// LayerNormSeparateTiling for [A, R] and a stack of stackBufferSize bytes (A2/A3 path of GetLayerNormNDTilingInfo).
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     LayerNormSeparateTiling& tiling) {
    (void)isReuseSource;
    (void)isComputeRstd;
    const std::vector<int64_t> d = srcShape.GetDims();
    if (typeSize == 0 || d.size() < 2 || srcShape.GetShapeSize() <= 0) {
        std::fprintf(stderr, "[LayerNorm][GetLayerNormNDTilingInfo] needs a non-zero typeSize and a non-empty [A, R] "
                             "shape\n");
        return;
    }
    const uint32_t a = static_cast<uint32_t>(d[0]), r = static_cast<uint32_t>(d[1]);
    const uint32_t align = 32u / typeSize;
    const uint32_t rp = (r + align - 1u) / align * align;
    const uint32_t inputXSize = a * rp, meanVarSize = a;
    const uint32_t varSize = (meanVarSize + 7u) / 8u * 8u;
    const uint32_t tmpBufSize = stackBufferSize / 4u;
    uint32_t one = tmpBufSize > varSize ? (tmpBufSize - varSize) / 2u : 0u;
    one = one / rp * rp;
    if (one > inputXSize) one = inputXSize;
    if (one == 0) return;
    const uint32_t tail = inputXSize % one;
    tiling.set_aLength(a);
    tiling.set_rLength(r);
    tiling.set_inputXSize(inputXSize);
    tiling.set_meanVarSize(meanVarSize);
    tiling.set_numberOfTmpBuf(2u);
    tiling.set_varianceTmpTensorPos(0u);
    tiling.set_varianceTmpTensorSize(varSize);
    tiling.set_tmpBufSize(tmpBufSize);
    tiling.set_oneTmpSize(one);
    tiling.set_firstTmpStartPos(varSize);
    tiling.set_secondTmpStartPos(varSize + one);
    tiling.set_loopRound(inputXSize / one);
    tiling.set_inputRoundSize(one);
    tiling.set_inputTailSize(tail);
    tiling.set_inputTailPos(inputXSize - tail);
    tiling.set_meanVarRoundSize(one / rp);
    tiling.set_meanVarTailSize(tail / rp);
    tiling.set_meanVarTailPos(meanVarSize - tail / rp);
    tiling.set_arCurLength(one);
    tiling.set_aCurLength(one / rp);
    tiling.set_rValueBack(1.0f / static_cast<float>(r));
}

// DeepNorm (normalization/deepnorm_tiling_impl.cpp), srcShape [B, S, H] (H 32-byte aligned, at most 2040): max 3
// float B*S*H work tensors plus 2 x B*S (2 tensors for float with isReuseSource), min the same with H for B*S*H.
namespace akgen_host {
inline bool deepnorm_args_ok(const char* fn, const ge::Shape& s, uint32_t typeSize, bool basic) {
    const std::vector<int64_t> d = s.GetDims();
    const char* why = nullptr;
    if (s.GetShapeSize() <= 0 || d.size() != 3) {
        why = "the srcShape must be [B, S, H] with at least one element";
    } else if (typeSize != 2 && typeSize != 4) {
        why = "the type size must be 2 or 4";
    } else if (d[2] * typeSize % 32 != 0 || d[2] > 2040) {
        why = "the last axis H must be 32-byte aligned and at most 2040";
    } else if (basic && (d[2] % 64 != 0 || (d[0] * d[1]) % 8 != 0)) {
        why = "with isBasicBlock H must be a multiple of 64 and B*S of 8";
    }
    if (why == nullptr) return true;
    std::fprintf(stderr, "[DeepNorm][%s] %s\n", fn, why);
    return false;
}
}  // namespace akgen_host

inline bool GetDeepNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue) {
    if (!akgen_host::deepnorm_args_ok("GetDeepNormMaxMinTmpSize", srcShape, typeSize, isBasicBlock)) return false;
    const std::vector<int64_t> d = srcShape.GetDims();
    const uint32_t bs = static_cast<uint32_t>(d[0] * d[1]), h = static_cast<uint32_t>(d[2]);
    auto up32 = [](uint32_t b) { return (b + 31u) / 32u * 32u; };
    const uint32_t bufs = (isReuseSource && typeSize == 4u) ? 2u : 3u;
    maxValue = bufs * up32(bs * h * 4u) + 2u * up32(bs * 4u);
    minValue = bufs * up32(h * 4u) + 2u * up32(bs * 4u);
    return true;
}

inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, DeepNormTiling& tiling) {
    uint32_t mx = 0, mn = 0;
    if (!GetDeepNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, isBasicBlock, mx, mn) || stackBufferSize < mn) {
        return false;
    }
    const std::vector<int64_t> d = srcShape.GetDims(), o = originSrcShape.GetDims();
    if (o.size() != 3) return false;
    const uint32_t b = static_cast<uint32_t>(d[0]), s = static_cast<uint32_t>(d[1]), h = static_cast<uint32_t>(d[2]);
    const uint32_t oh = static_cast<uint32_t>(o[2]);
    if (o[0] != d[0] || o[1] != d[1] || oh == 0 || oh > h || (isBasicBlock && oh != h) || h > 255u * 8u) return false;
    const uint32_t inputXSize = b * s * h, meanVarSize = b * s;
    const uint32_t bufs = (isReuseSource && typeSize == 4u) ? 2u : 3u;
    const uint32_t mvSize = (meanVarSize + 7u) / 8u * 8u;
    const uint32_t mvTotal = typeSize == 4u ? 0u : 2u * mvSize;
    const uint32_t tmpBufSize = stackBufferSize / 4u;
    uint32_t one = (tmpBufSize - mvTotal) / bufs;
    one = one / h * h;
    if (one > inputXSize) one = inputXSize;
    if (isBasicBlock && one / (8u * h) > 0) one = one / (8u * h) * (8u * h);
    if (one == 0) return false;
    const uint32_t tail = inputXSize % one;
    tiling.set_bLength(b);
    tiling.set_sLength(s);
    tiling.set_hLength(h);
    tiling.set_originalHLength(oh);
    tiling.set_inputXSize(inputXSize);
    tiling.set_meanVarSize(meanVarSize);
    tiling.set_numberOfTmpBuf(bufs);
    tiling.set_meanTmpTensorPos(0u);
    tiling.set_meanTmpTensorSize(mvSize);
    tiling.set_varianceTmpTensorPos(mvSize);
    tiling.set_varianceTmpTensorSize(mvSize);
    tiling.set_tmpBufSize(tmpBufSize);
    tiling.set_oneTmpSize(one);
    tiling.set_firstTmpStartPos(mvTotal);
    tiling.set_secondTmpStartPos(mvTotal + one);
    tiling.set_thirdTmpStartPos(mvTotal + 2u * one);
    tiling.set_loopRound(inputXSize / one);
    tiling.set_inputRoundSize(one);
    tiling.set_inputTailSize(tail);
    tiling.set_inputTailPos(inputXSize - tail);
    tiling.set_meanVarRoundSize(one / h);
    tiling.set_meanVarTailSize(tail / h);
    tiling.set_meanVarTailPos(meanVarSize - tail / h);
    tiling.set_bshCurLength(one);
    tiling.set_bsCurLength(one / h);
    tiling.set_lastDimValueBack(1.0f / static_cast<float>(oh));
    return true;
}

// Transpose (ConfusionTranspose) host side (transpose/confusion_transpose_tiling_impl.cpp), scenarios 1 and 2
// (TRANSPOSE_NZ2ND_0213 = 1, TRANSPOSE_NZ2NZ_0213 = 2), srcShape [B, A1, A2, A3]: tmp max A2 (rounded up to 16) x 16
// elements, min one 16 x 16 block; the tiling's param0..param15. Other scenarios are not emulated (reported).
namespace akgen_host {
inline bool transpose_0213(const char* fn, uint32_t type, const ge::Shape& s, uint32_t typeSize) {
    if ((type == 1u || type == 2u) && s.GetDims().size() == 4 && typeSize > 0) return true;
    std::fprintf(stderr, "[Transpose][%s] akgen sim: only TRANSPOSE_NZ2ND_0213 / TRANSPOSE_NZ2NZ_0213 (1, 2) with a "
                         "4-D [B, A1, A2, A3] shape and a non-zero typeSize are emulated (got type %u, %zu dims)\n",
                 fn, type, s.GetDims().size());
    return false;
}
}  // namespace akgen_host

inline void GetTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                      const uint32_t transposeTypeIn, uint32_t& maxValue, uint32_t& minValue) {
    if (!akgen_host::transpose_0213("GetTransposeMaxMinTmpSize", transposeTypeIn, srcShape, typeSize)) return;
    const uint32_t a2 = static_cast<uint32_t>((srcShape.GetDims()[2] + 15) / 16 * 16);
    maxValue = a2 * 16u * typeSize;
    minValue = 256u * typeSize;
}

inline void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                   const uint32_t transposeTypeIn, ConfusionTransposeTiling& tiling) {
    if (!akgen_host::transpose_0213("GetTransposeTilingInfo", transposeTypeIn, srcShape, typeSize)) return;
    const std::vector<int64_t> d = srcShape.GetDims();
    const uint32_t b = static_cast<uint32_t>(d[0]), a1 = static_cast<uint32_t>(d[1]);
    const uint32_t a2 = static_cast<uint32_t>((d[2] + 15) / 16 * 16);
    const uint32_t wt = static_cast<uint32_t>((d[3] + 15) / 16), a3 = wt * 16u;
    const uint32_t popSize = stackBufferSize / typeSize / 256u * 256u;
    const uint32_t popH = popSize / 16u, need = a2 * 16u;
    const uint32_t mainBlocks = popSize ? need / popSize : 0u;
    tiling.set_param0(32u / typeSize);
    tiling.set_param1(b);
    tiling.set_param2(a1);
    tiling.set_param3(a3);
    tiling.set_param4(a2);
    tiling.set_param5(wt);
    tiling.set_param6(popSize);
    tiling.set_param7(popH);
    tiling.set_param8(need);
    tiling.set_param9(mainBlocks);
    tiling.set_param10(popSize ? need % popSize : 0u);
    tiling.set_param11(a2 * a3);
    tiling.set_param12(a1 * a2 * a3);
    tiling.set_param13(a1 * a3);
    tiling.set_param14(a1 * 16u);
    tiling.set_param15(popH * mainBlocks * a1 * a3);
}
inline void GetConfusionTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                               const uint32_t transposeTypeIn, uint32_t& maxValue,
                                               uint32_t& minValue) {
    GetTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}
inline void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            ConfusionTransposeTiling& tiling) {
    GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}

}  // namespace AscendC

namespace AscendC {
namespace akgen_host {
// Broadcast's extra space for int8 data, which the library casts to half first: src and dst rounded up to 16
// elements, 2 bytes each (typeSize becomes 2).
inline uint32_t brc_cast_bytes(const ge::Shape& src, const ge::Shape& dst, uint32_t& typeSize) {
    if (typeSize != 1) return 0;
    typeSize = 2;
    auto up16 = [](int64_t n) { return static_cast<uint32_t>((n + 15) / 16 * 16); };
    return (up16(src.GetShapeSize()) + up16(dst.GetShapeSize())) * typeSize;
}
}  // namespace akgen_host

// The temporary space of Broadcast (lib/pad/broadcast.h) for srcShape -> dstShape (dims 1 or 2, each equal or 1 in
// src), in bytes: none for a copy or a scalar fill (except int8, cast to half), one 32-byte block when axis 0 is
// broadcast, else the Brcb scratch (and, for a last dim that is not 32-byte aligned, the copy scratch) of the A2/A3
// library; the 310P formula on an Ascend310P platform. A bad argument is reported on stderr and leaves the outputs.
inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                      const ge::Shape& dstShape, uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const size_t dims = dstShape.GetDimNum();
    auto bad = [](const char* why) {
        std::fprintf(stderr, "[Broadcast][GetBroadCastMaxMinTmpSize] %s\n", why);
    };
    if (typeSize != 1 && typeSize != 2 && typeSize != 4) return bad("typeSize must be 1, 2 or 4");
    if ((dims != 1 && dims != 2) || srcShape.GetDimNum() != dims) {
        return bad("srcShape and dstShape must both have 1 or 2 dims");
    }
    for (size_t i = 0; i < dims; ++i) {
        if (srcShape.GetDim(i) != dstShape.GetDim(i) && srcShape.GetDim(i) != 1) {
            return bad("srcShape cannot broadcast to dstShape (each dim must be equal or 1)");
        }
    }
    const int64_t srcSize = srcShape.GetShapeSize();
    if (srcSize <= 0) return bad("the source shape size must be greater than 0");
    constexpr uint32_t blk = 32;
    uint32_t ts = typeSize;
    if (srcSize == dstShape.GetShapeSize() || srcSize == 1) {
        const uint32_t cast = akgen_host::brc_cast_bytes(srcShape, dstShape, ts);
        minValue = maxValue = typeSize == 1 ? cast + blk : 0;
        return;
    }
    const uint32_t cast = akgen_host::brc_cast_bytes(srcShape, dstShape, ts);
    const uint32_t per_blk = blk / ts;
    const uint32_t d0 = static_cast<uint32_t>(dstShape.GetDim(0));
    const uint32_t d1 = dims > 1 ? static_cast<uint32_t>(dstShape.GetDim(1)) : 1;
    const bool axis1 = dims > 1 && srcShape.GetDim(1) == 1;
    const bool p310 = ascendcPlatform.GetSocVersion() == platform_ascendc::SocVersion::ASCEND310P;
    if (!axis1) {
        if (d1 % per_blk != 0) return bad("dim[1] is not 32-byte aligned");
        minValue = maxValue = blk + cast;
        return;
    }
    if (p310) {
        if (d0 % per_blk != 0) return bad("dim[0] is not 32-byte aligned");
        minValue = blk + cast + per_blk * ((d1 + 7) / 8) * ts;
        maxValue = blk + cast + d0 * d1 * ts;
        return;
    }
    const uint32_t brcb_min = per_blk * per_blk * ts;
    const uint32_t brcb_max = (d0 + 7) / 8 * 8 * per_blk * ts;
    if (d1 % per_blk == 0) {
        minValue = brcb_min + cast;
        maxValue = brcb_max + cast;
    } else {
        const uint32_t d1_up = (d1 + per_blk - 1) / per_blk * per_blk;
        minValue = brcb_min + per_blk * d1_up * ts + cast;
        maxValue = brcb_max + d0 * d1_up * ts + cast;
    }
}
}  // namespace AscendC
