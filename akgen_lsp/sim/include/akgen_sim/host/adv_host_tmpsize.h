// akgen sim host side: the temporary-buffer size helpers of the element-wise adv APIs that a host program or a
// TilingFunc calls (adv_api/math/*_tiling.h, adv_api/activation/*_tiling.h): Get<Op>MaxMinTmpSize and
// Get<Op>TmpBufferFactorSize with the sizes of the A2/A3 (dav-2201) library. Bytes: min is the size one 256-byte
// repeat needs, max the size for the whole shape in one pass. A bad argument is reported on stderr and leaves the
// outputs unchanged, as the library's ASCENDC_HOST_ASSERT(..., return, ...) does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "graph.h"
#include "adv_host_softmax.h"
#include "adv_host_softmax_flash.h"
#include "adv_host_logsoftmax_math950.h"

namespace AscendC {

using TensorShape = ge::Shape;

namespace akgen_host {

constexpr uint32_t kRepeatBytes = 256;

inline bool shape_ok(const char* api, const TensorShape& shape) {
    if (shape.GetShapeSize() > 0) return true;
    std::fprintf(stderr, "[%s] the input shape size must be greater than 0 (got %lld): pass the element count of the "
                         "source tensor\n", api, static_cast<long long>(shape.GetShapeSize()));
    return false;
}

// Factor-of-the-input sizes: min = fac * 256, max = fac * max(n * typeSize, 256).
inline void by_factor(const char* api, const TensorShape& shape, uint32_t typeSize, uint32_t facFloat,
                      uint32_t facHalf, uint32_t& maxValue, uint32_t& minValue) {
    if (!shape_ok(api, shape)) return;
    const uint32_t fac = typeSize == sizeof(float) ? facFloat : facHalf;
    const uint32_t bytes = static_cast<uint32_t>(shape.GetShapeSize()) * typeSize;
    minValue = fac * kRepeatBytes;
    maxValue = fac * std::max(bytes, kRepeatBytes);
}

}  // namespace akgen_host

// Exp<T, taylorExpandLevel>: float work tensors, 3 (float; 2 when isReuseSource) or 4 (half) of them.
inline bool GetExpMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    const uint32_t n = static_cast<uint32_t>(srcShape.GetShapeSize());
    const uint32_t bufs = typeSize == sizeof(float) ? (isReuseSource ? 2u : 3u) : 4u;
    minValue = bufs * akgen_host::kRepeatBytes;
    maxValue = bufs * std::max<uint32_t>(n * static_cast<uint32_t>(sizeof(float)), akgen_host::kRepeatBytes);
    return true;
}
inline void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    extraBuffer = 0;
    maxLiveNodeCount = typeSize == sizeof(float) ? 3 : 8;
}

#define AKGEN_FACTOR_TMPSIZE(OP, FAC_FLOAT, FAC_HALF)                                                                  \
    inline void Get##OP##MaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,\
                                       uint32_t& maxValue, uint32_t& minValue) {                                       \
        (void)isReuseSource;                                                                                           \
        akgen_host::by_factor("Get" #OP "MaxMinTmpSize", srcShape, typeSize, FAC_FLOAT, FAC_HALF, maxValue, minValue); \
    }                                                                                                                  \
    inline void Get##OP##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {\
        extraBuf = 0;                                                                                                  \
        maxLiveNodeCount = typeSize == sizeof(float) ? FAC_FLOAT : FAC_HALF;                                           \
    }

AKGEN_FACTOR_TMPSIZE(Ceil, 1u, 2u)
AKGEN_FACTOR_TMPSIZE(Floor, 1u, 2u)
AKGEN_FACTOR_TMPSIZE(Trunc, 1u, 2u)
AKGEN_FACTOR_TMPSIZE(Frac, 0u, 4u)
AKGEN_FACTOR_TMPSIZE(GeGLU, 0u, 4u)
AKGEN_FACTOR_TMPSIZE(Fmod, 1u, 8u)  // Trunc's factor plus 3 float tensors (6 half-sized) for half
#undef AKGEN_FACTOR_TMPSIZE

// Acosh: max(calc * n, 256) * typeSize (the library multiplies the element count, not the bytes).
inline void GetAcoshMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    if (!akgen_host::shape_ok("GetAcoshMaxMinTmpSize", srcShape)) return;
    const uint32_t calc = typeSize == sizeof(float) ? 1 : 2;
    minValue = calc * akgen_host::kRepeatBytes;
    maxValue = std::max(calc * static_cast<uint32_t>(srcShape.GetShapeSize()), akgen_host::kRepeatBytes) * typeSize;
}
inline void GetAcoshTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = typeSize == sizeof(float) ? 1 : 2;
}

// Power on A2/A3: live float tensors by form (tensor^tensor or with one scalar) and type, plus one repeat of bytes.
namespace akgen_host {
inline bool is_tensor_shape(const TensorShape& s) { return !(s.GetDimNum() == 1 && s.GetDim(0) == 1); }
inline uint32_t power_nodes(bool tt, bool typeIsInt, uint32_t typeSize) {
    if (typeIsInt) return tt ? 6 : 7;
    if (typeSize == sizeof(float)) return tt ? 4 : 5;
    return 14;
}
}  // namespace akgen_host

inline void GetPowerMaxMinTmpSize(const TensorShape& srcShape1, const TensorShape& srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
    (void)isReuseSource;
    const bool t1 = akgen_host::is_tensor_shape(srcShape1), t2 = akgen_host::is_tensor_shape(srcShape2);
    const uint32_t nodes = akgen_host::power_nodes(t1 && t2, typeIsInt, typeSize);
    const uint32_t n = static_cast<uint32_t>((t1 ? srcShape1 : srcShape2).GetShapeSize());
    const uint32_t R = akgen_host::kRepeatBytes;
    if (typeIsInt) minValue = R * nodes;
    else if (typeSize == sizeof(float)) minValue = R * nodes + R;
    else minValue = R * nodes / 2 + R;
    const uint32_t calc = typeSize == sizeof(float) ? std::max(n * typeSize, R) : std::max(n * typeSize, R / 2);
    maxValue = typeIsInt ? calc * nodes : calc * nodes + R;
}
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    maxLiveNodeCount = akgen_host::power_nodes(baseIsTensor && expIsTensor, typeIsInt, typeSize);
    extraBuffer = typeIsInt ? 0 : akgen_host::kRepeatBytes;
}

// Xor: one tensor of the input's bytes, at least one repeat.
inline void GetXorMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    if (!akgen_host::shape_ok("GetXorMaxMinTmpSize", srcShape)) return;
    minValue = akgen_host::kRepeatBytes;
    maxValue = std::max(static_cast<uint32_t>(srcShape.GetShapeSize()) * typeSize, minValue);
}
inline void GetXorTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    (void)typeSize;
    maxLiveNodeCount = 1;
    extraBuffer = 0;
}

// ClampMax / ClampMin: a byte mask per element, at least one repeat's worth (64 floats or 128 halves).
inline void GetClampMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    if (!akgen_host::shape_ok("GetClampMaxMinTmpSize", srcShape)) return;
    minValue = typeSize == sizeof(float) ? 64 : 128;
    maxValue = std::max(static_cast<uint32_t>(srcShape.GetShapeSize()), minValue);
}
inline void GetClampTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    (void)typeSize;
    maxLiveNodeCount = 1;
    extraBuf = 0;
}

// Silu and Swish need no temporary buffer.
inline void GetSiluTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue) {
    (void)srcShape, (void)typeSize, (void)isReuseSource;
    maxValue = minValue = 0;
}
inline void GetSwishTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                            uint32_t& maxValue, uint32_t& minValue) {
    (void)srcShape, (void)typeSize, (void)isReuseSource;
    maxValue = minValue = 0;
}

// Gelu / FasterGelu: three float work tensors.
inline uint32_t GetGeluMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize) {
    (void)srcShape, (void)typeSize;
    return 3 * akgen_host::kRepeatBytes;
}
inline uint32_t GetGeluMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize) {
    const uint32_t mn = GetGeluMinTmpSize(srcShape, typeSize);
    const uint32_t mx = 3 * static_cast<uint32_t>(srcShape.GetShapeSize()) * static_cast<uint32_t>(sizeof(float));
    return std::max(mn, mx);
}
inline void GetGeluMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
    maxValue = GetGeluMaxTmpSize(srcShape, typeSize);
    minValue = GetGeluMinTmpSize(srcShape, typeSize);
}

// SwiGLU: none for float, six half-sized tensors' worth of float work space for half (note the argument order).
inline void GetSwiGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue, const bool isReuseSource = false) {
    (void)isReuseSource;
    akgen_host::by_factor("GetSwiGLUMaxMinTmpSize", srcShape, typeSize, 0u, 6u, maxValue, minValue);
}
inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    extraBuffer = 0;
    maxLiveNodeCount = typeSize == sizeof(float) ? 0 : 6;
}

// Axpy: none for float; half (also half into float) takes four float work tensors.
inline void GetAxpyMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                 uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    if (!akgen_host::shape_ok("GetAxpyMaxMinTmpSize", srcShape)) return;
    if (typeSize == sizeof(float)) {
        maxValue = minValue = 0;
        return;
    }
    const uint32_t bytes = static_cast<uint32_t>(srcShape.GetShapeSize()) * typeSize;
    minValue = 4 * akgen_host::kRepeatBytes;
    maxValue = bytes > akgen_host::kRepeatBytes ? 4 * bytes : minValue;
}
inline void GetAxpyTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = typeSize == sizeof(float) ? 1 : 4;
}

// DropOut: two float work tensors.
inline uint32_t GetDropOutMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    (void)srcShape, (void)typeSize, (void)isReuseSource;
    return 2 * akgen_host::kRepeatBytes;
}
inline uint32_t GetDropOutMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    const uint32_t mn = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
    const uint32_t mx = 2 * static_cast<uint32_t>(srcShape.GetShapeSize()) * static_cast<uint32_t>(sizeof(float));
    return std::max(mn, mx);
}
inline void GetDropOutMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
    maxValue = GetDropOutMaxTmpSize(srcShape, typeSize, isReuseSource);
    minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
}

// Select with a byte mask: the source padded to 32 elements as half plus 512 reserved bytes (at least 1024), one
// 4096-element block for the minimum; plus the padded mask when its last axis differs from the source's.
namespace akgen_host {
inline uint32_t select_buffer(const TensorShape& s0, const TensorShape& s1, const TensorShape& mask,
                              uint32_t maskTypeSize, bool isReuseMask, bool isMin) {
    auto is_scalar = [](const TensorShape& s) { return s.GetDimNum() == 0 || s.GetShapeSize() == 1; };
    auto pad = [](uint32_t a, uint32_t b) { return (a + b - 1) / b * b; };
    const bool s0Scalar = is_scalar(s0);
    const TensorShape& src = s0Scalar ? s1 : s0;
    const uint32_t srcSize = static_cast<uint32_t>(src.GetShapeSize());
    const int64_t maskLast = mask.GetDim(mask.GetDimNum() - 1);
    const int64_t srcLast = src.GetDim(src.GetDimNum() - 1);
    const uint32_t cal = (isMin && srcSize > 4096) ? 4096 : srcSize;
    uint32_t need = std::max<uint32_t>(1024, pad(cal, 32) * 2 + 512);
    if (maskLast != srcLast && !isReuseMask && maskLast > 1) need += pad(srcSize * maskTypeSize, 32);
    return need;
}
}  // namespace akgen_host

inline uint32_t GetSelectMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                    const uint32_t srcTypeSize, const TensorShape& maskShape,
                                    const uint32_t maskTypeSize, const bool isReuseMask) {
    (void)srcTypeSize;
    return akgen_host::select_buffer(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, true);
}
inline uint32_t GetSelectMaxTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                    const uint32_t srcTypeSize, const TensorShape& maskShape,
                                    const uint32_t maskTypeSize, const bool isReuseMask) {
    (void)srcTypeSize;
    return akgen_host::select_buffer(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, false);
}
inline void GetSelectMaxMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                   const uint32_t srcTypeSize, const TensorShape& maskShape,
                                   const uint32_t maskTypeSize, const bool isReuseMask, uint32_t& maxValue,
                                   uint32_t& minValue) {
    if (maskShape.GetDimNum() != 2 || (src0Shape.GetDimNum() != 2 && src1Shape.GetDimNum() != 2)) {
        std::fprintf(stderr, "[Select][GetSelectMaxMinTmpSize] the mask shape and one of the source shapes must be "
                             "2-D (got %zu, %zu and %zu dimensions)\n", maskShape.GetDimNum(), src0Shape.GetDimNum(),
                     src1Shape.GetDimNum());
    }
    maxValue = GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
    minValue = GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}

// AscendQuant: half work space for the whole input (2 bytes an element) rounded up to 32 bytes, at least two repeats.
inline void GetAscendQuantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                        uint32_t& minValue) {
    const int64_t n = srcShape.GetShapeSize();
    if (n <= 0 || (n * typeSize) % 32 != 0 || (typeSize != 2 && typeSize != 4)) {
        std::fprintf(stderr, "[AscendQuant][GetAscendQuantMaxMinTmpSize] the input must have elements filling whole "
                             "32-byte blocks and typeSize 2 or 4 (got %lld elements, typeSize %u)\n",
                     static_cast<long long>(n), typeSize);
    }  // the library's check only logs: the sizes are computed all the same
    const uint32_t mx = std::max<uint32_t>(static_cast<uint32_t>(n > 0 ? n : 0) * 2, 2 * akgen_host::kRepeatBytes);
    maxValue = (mx + 31) / 32 * 32;
    minValue = 2 * akgen_host::kRepeatBytes;
}
inline void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = 2;
}

// ReduceMax / ReduceMin with a pattern (adv_api/reduce/reduce_tiling.h): 2-D shapes, AR or RA.
#ifndef ASCC_ENUM_REDUCEPATTERN  // also declared by the kernel side (NormalizeConfig), as CANN does
#define ASCC_ENUM_REDUCEPATTERN
enum class ReducePattern : uint32_t {
    AR = 0, RA = 1, R, ARA, ARAR, ARARA, ARARAR, ARARARA, ARARARAR, ARARARARA, RAR, RARA, RARAR, RARARA, RARARAR,
    RARARARA,
};
#endif
namespace akgen_host {
inline uint32_t pow2_floor(uint32_t n) {
    uint32_t k = 1;
    while (n > 1) k <<= 1, n >>= 1;
    return k;
}
inline void reduce_maxmin_tmp(const char* fn, const TensorShape& srcShape, ge::DataType dataType,
                              ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue,
                              uint32_t& minValue) {
    if (dataType != ge::DT_FLOAT && dataType != ge::DT_FLOAT16) {
        std::fprintf(stderr, "[%s] it only supports float and half type on this platform.\n", fn);
        return;
    }
    if (srcShape.GetDimNum() != 2) {
        std::fprintf(stderr, "[%s] srcShape dims must be 2 (got %zu).\n", fn, srcShape.GetDimNum());
        return;
    }
    if (!isSrcInnerPad) std::fprintf(stderr, "[%s] isSrcInnerPad must be true on this platform.\n", fn);
    if (pattern != ReducePattern::AR && pattern != ReducePattern::RA)
        std::fprintf(stderr, "[%s] Currently only support AR and RA pattern.\n", fn);
    const uint32_t first = static_cast<uint32_t>(srcShape.GetDim(0)), last = static_cast<uint32_t>(srcShape.GetDim(1));
    if (isReuseSource) {
        maxValue = minValue = 0;
        return;
    }
    const uint32_t ts = dataType == ge::DT_FLOAT ? 4 : 2;
    if (pattern == ReducePattern::AR) {
        const uint32_t perBlk = 32 / ts, perRep = 256 / ts;
        maxValue = minValue = last <= perBlk ? 0 : (last < perRep ? first * perBlk * ts : first * perRep * ts);
        return;
    }
    uint32_t k = pow2_floor(first);
    if (k == first && first > 1) k >>= 1;
    maxValue = minValue = k * ((last * ts + 31) / 32 * 32);
}
}  // namespace akgen_host

using TensorDataType = ge::DataType;
inline void GetReduceMaxMaxMinTmpSize(const TensorShape& srcShape, const TensorDataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    akgen_host::reduce_maxmin_tmp("ReduceMax][GetReduceMaxMaxMinTmpSize", srcShape, dataType, pattern, isSrcInnerPad,
                                  isReuseSource, maxValue, minValue);
}
inline void GetReduceMinMaxMinTmpSize(const TensorShape& srcShape, const TensorDataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    akgen_host::reduce_maxmin_tmp("ReduceMin][GetReduceMinMaxMinTmpSize", srcShape, dataType, pattern, isSrcInnerPad,
                                  isReuseSource, maxValue, minValue);
}

// CumSum: 2-D [outter, inner], inner a whole number of 32-byte blocks. First axis: half needs the whole input as
// float, float none; last axis: two transposes of 16-row groups (all rows rounded up to 16 for the maximum), half
// plus a half copy of them.
inline void GetCumSumMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isLastAxis,
                                   const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    if (srcShape.GetDimNum() != 2 || (typeSize != 2 && typeSize != 4) || srcShape.GetDim(1) <= 0 ||
        (srcShape.GetDim(1) * typeSize) % 32 != 0) {
        std::fprintf(stderr, "[CumSum][GetCumSumMaxMinTmpSize] the shape must be 2-D with the inner axis a whole "
                             "number of 32-byte blocks and typeSize 2 or 4 (got %zu dimensions, typeSize %u)\n",
                     srcShape.GetDimNum(), typeSize);
        return;
    }
    const uint32_t outter = static_cast<uint32_t>(srcShape.GetDim(0)), inner = static_cast<uint32_t>(srcShape.GetDim(1));
    if (!isLastAxis) {
        maxValue = minValue = typeSize == 2 ? outter * inner * 4 : 0;
        return;
    }
    const uint32_t alignOutter = (outter + 15) / 16 * 16;
    const uint32_t minCast = typeSize == 2 ? inner * 16 * 2 : 0, maxCast = typeSize == 2 ? inner * alignOutter * 2 : 0;
    minValue = minCast + 16 * inner * typeSize * 2;
    maxValue = maxCast + alignOutter * inner * typeSize * 2;
}

}  // namespace AscendC
