// akgen sim: ShapeInfo and DataFormat (basic_api/kernel_tensor.h, kernel_struct_data_copy.h): the shape a kernel
// attaches to a tensor with SetShapeInfo, which high-level APIs (SoftmaxFlashV2, SoftMax, ...) read when their
// SoftMaxShapeInfo argument is left at {}. shape is the (padded) shape the data has in memory, originalShape the
// valid part; the constructor without an original shape uses the shape for both. At most K_MAX_SHAPE_DIM (8) dims.
#pragma once

#include <cstdint>

#ifndef K_MAX_SHAPE_DIM
#define K_MAX_SHAPE_DIM 8
#endif

namespace AscendC {

#ifndef ASCC_ENUM_DATAFORMAT
#define ASCC_ENUM_DATAFORMAT
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
#endif

struct ShapeInfo {
    ShapeInfo() {}
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const uint8_t inputOriginalShapeDim,
              const uint32_t inputOriginalShape[], const DataFormat inputFormat)
        : shapeDim(clamp(inputShapeDim)), originalShapeDim(clamp(inputOriginalShapeDim)), dataFormat(inputFormat) {
        for (int i = 0; i < shapeDim; ++i) shape[i] = inputShape[i];
        for (int i = 0; i < originalShapeDim; ++i) originalShape[i] = inputOriginalShape[i];
    }
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat)
        : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat) {}
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[])
        : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, DataFormat::ND) {}

    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[K_MAX_SHAPE_DIM] = {};  // `= {}`: also valid for -DK_MAX_SHAPE_DIM=0 (some UTs pass it)
    uint32_t originalShape[K_MAX_SHAPE_DIM] = {};
    DataFormat dataFormat = DataFormat::ND;

private:
    // CANN asserts dims <= 8 (a kernel-log error); more would overrun the arrays, so extra dims are dropped.
    static uint8_t clamp(uint8_t d) { return d > K_MAX_SHAPE_DIM ? K_MAX_SHAPE_DIM : d; }
};

inline uint64_t GetShapeSize(const ShapeInfo& shapeInfo) {
    uint64_t n = 1;
    for (int i = 0; i < shapeInfo.shapeDim; ++i) n *= shapeInfo.shape[i];
    return n;
}

}  // namespace AscendC
