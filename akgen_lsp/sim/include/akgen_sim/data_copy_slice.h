// akgen sim: DataCopy with SliceInfo (basic_api/kernel_operator_data_copy_intf.h, "GM与UB切片数据搬运"), GM -> UB and
// UB -> GM, in the library's steps (impl/basic_api/kernel_operator_data_copy_intf_impl.h): the per-dimension shapes
// are the slices' shapeValue (the tensors' ShapeInfo when srcSliceInfo[0].shapeValue is 0; a GlobalTensor carries no
// ShapeInfo here, so that form is reported); the start element is sum(startIndex_i * prod(shape_<i)); each
// higher-dimension slice (every (stride + 1)-th index from startIndex to endIndex) adds one offset; per offset one
// DataCopy of blockCount = (end0 - start0 + 1 + stride0) / (burstLen0 * 32 B / sizeof(T) + stride0) bursts of
// burstLen0 blocks, through the simulator's DataCopy (the GM side's stride a whole number of 32 B blocks) or
// DataCopyPad (a GM-side stride in bytes), with their checks.
#pragma once

#include <vector>

#include "data_copy.h"

namespace AscendC {

#ifndef K_MAX_DIM
constexpr uint32_t K_MAX_DIM = 8;
#endif

struct SliceInfo {
    SliceInfo() {}
    SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn, const uint32_t burstLenIn,
              const uint32_t shapeValueIn = 0)
        : startIndex(startIndexIn), endIndex(endIndexIn), stride(strideIn), burstLen(burstLenIn),
          shapeValue(shapeValueIn) {}
    uint32_t startIndex = 0;
    uint32_t endIndex = 32 - 1;
    uint32_t stride = 0;
    uint32_t burstLen = 32;
    uint32_t shapeValue = 0;
};

}  // namespace AscendC

namespace akgen_sim {

struct SlicePlan {
    bool ok = false;
    uint32_t srcStart = 0, dstStart = 0;
    std::vector<uint32_t> srcOff, dstOff;
    uint32_t blockCount = 0;
};

// The element offsets of every row a slice takes (launcher/runtime.inc: a std::vector kernels' compiles need not
// instantiate unless they slice).
std::vector<uint32_t> slice_offsets(const AscendC::SliceInfo s[], const uint32_t shape[], uint32_t dims);

template <typename T>
inline SlicePlan slice_plan(const AscendC::SliceInfo dstS[], const AscendC::SliceInfo srcS[], uint32_t dims,
                            const loc_t& loc) {
    const char* api = "DataCopy with SliceInfo";
    SlicePlan p;
    if (dims == 0 || dims > AscendC::K_MAX_DIM) {
        fail("SIM-SLICE-PARAMS", fmt("%s: dimValue %u must be 1..%u", api, dims, AscendC::K_MAX_DIM), loc,
             "api_mismatch", api);
        return p;
    }
    if (srcS[0].shapeValue == 0) {
        fail("SIM-NOT-EMULATED", fmt("%s: the slices give no shapeValue, so the shapes would come from the tensors' "
                                     "ShapeInfo, which the simulator's GlobalTensor does not carry; set shapeValue "
                                     "in every SliceInfo", api), loc, "api_mismatch", api);
        return p;
    }
    uint32_t srcShape[AscendC::K_MAX_DIM], dstShape[AscendC::K_MAX_DIM];
    for (uint32_t i = 0; i < dims; ++i) {
        srcShape[i] = srcS[i].shapeValue;
        dstShape[i] = dstS[i].shapeValue;
        if (srcS[i].endIndex < srcS[i].startIndex || dstS[i].endIndex < dstS[i].startIndex ||
            (i > 0 && (srcS[i].burstLen != 1 || dstS[i].burstLen != 1))) {
            fail("SIM-SLICE-PARAMS", fmt("%s: dimension %u: endIndex must not be below startIndex, and burstLen must be "
                                         "1 beyond the first dimension", api, i), loc, "api_mismatch", api);
            return p;
        }
    }
    uint32_t sliceSize = 1;
    for (uint32_t i = 0; i < dims; ++i) {
        if (i > 0) sliceSize *= srcShape[i - 1];
        p.srcStart += srcS[i].startIndex * sliceSize;
    }
    sliceSize = 1;
    for (uint32_t i = 0; i < dims; ++i) {
        if (i > 0) sliceSize *= dstShape[i - 1];
        p.dstStart += dstS[i].startIndex * sliceSize;
    }
    p.srcOff = slice_offsets(srcS, srcShape, dims);
    p.dstOff = slice_offsets(dstS, dstShape, dims);
    if (p.dstOff.size() < p.srcOff.size()) {
        fail("SIM-SLICE-PARAMS", fmt("%s: the destination slices hold %zu rows, fewer than the source's %zu", api,
                                     p.dstOff.size(), p.srcOff.size()), loc, "api_mismatch", api);
        return p;
    }
    const uint32_t one = srcS[0].burstLen * uint32_t(32 / sizeof(T)) + srcS[0].stride;
    p.blockCount = one ? (srcS[0].endIndex - srcS[0].startIndex + 1 + srcS[0].stride) / one : 0;
    if (p.blockCount == 0 || srcS[0].burstLen == 0) {
        fail("SIM-SLICE-PARAMS", fmt("%s: the first dimension's slice [%u, %u] holds no burst of %u blocks", api,
                                     srcS[0].startIndex, srcS[0].endIndex, srcS[0].burstLen), loc, "api_mismatch", api);
        return p;
    }
    p.ok = true;
    return p;
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, AKGEN_LOC) {
    ::akgen_sim::touch("DataCopy", loc);
    const ::akgen_sim::SlicePlan p = ::akgen_sim::slice_plan<T>(dstSliceInfo, srcSliceInfo, dimValue, loc);
    if (!p.ok) return;
    const uint32_t sz = sizeof(T);
    if ((srcSliceInfo[0].stride * sz) % 32 == 0) {
        DataCopyParams rp(static_cast<uint16_t>(p.blockCount), static_cast<uint16_t>(srcSliceInfo[0].burstLen),
                          static_cast<uint16_t>(srcSliceInfo[0].stride * sz / 32),
                          static_cast<uint16_t>(dstSliceInfo[0].stride * sz / 32));
        for (size_t i = 0; i < p.srcOff.size(); ++i) {
            DataCopy(dst[p.dstStart + p.dstOff[i]], src[p.srcStart + p.srcOff[i]], rp, loc);
        }
    } else {
        DataCopyExtParams ep(static_cast<uint16_t>(p.blockCount), srcSliceInfo[0].burstLen * 32,
                             srcSliceInfo[0].stride * sz, dstSliceInfo[0].stride * sz / 32, 0);
        DataCopyPadExtParams<T> pad(false, 0, 0, T{});
        for (size_t i = 0; i < p.srcOff.size(); ++i) {
            DataCopyPad(dst[p.dstStart + p.dstOff[i]], src[p.srcStart + p.srcOff[i]], ep, pad, loc);
        }
    }
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, AKGEN_LOC) {
    ::akgen_sim::touch("DataCopy", loc);
    const ::akgen_sim::SlicePlan p = ::akgen_sim::slice_plan<T>(dstSliceInfo, srcSliceInfo, dimValue, loc);
    if (!p.ok) return;
    const uint32_t sz = sizeof(T);
    if ((dstSliceInfo[0].stride * sz) % 32 == 0) {
        DataCopyParams rp(static_cast<uint16_t>(p.blockCount), static_cast<uint16_t>(srcSliceInfo[0].burstLen),
                          static_cast<uint16_t>(srcSliceInfo[0].stride * sz / 32),
                          static_cast<uint16_t>(dstSliceInfo[0].stride * sz / 32));
        for (size_t i = 0; i < p.srcOff.size(); ++i) {
            DataCopy(dst[p.dstStart + p.dstOff[i]], src[p.srcStart + p.srcOff[i]], rp, loc);
        }
    } else {
        DataCopyExtParams ep(static_cast<uint16_t>(p.blockCount), srcSliceInfo[0].burstLen * 32,
                             srcSliceInfo[0].stride * sz / 32, dstSliceInfo[0].stride * sz, 0);
        for (size_t i = 0; i < p.srcOff.size(); ++i) {
            DataCopyPad(dst[p.dstStart + p.dstOff[i]], src[p.srcStart + p.srcOff[i]], ep, loc);
        }
    }
}

}  // namespace AscendC
