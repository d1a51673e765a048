// akgen sim: the library's own pointer forms of DataCopyPad, which kernels of CANN's operator repositories call
// directly with `(__ubuf__ T*)local.GetPhyAddr()` and `(__gm__ T*)global.GetPhyAddr()` (ops-nn's matmul cmct tiles,
// scatter_elements_v2):
//
// - DataCopyPadGm2UBImpl(ubDst, gmSrc, DataCopyExtParams, DataCopyPadExtParams<T>[, cacheMode]) and the
//   (DataCopyParams, DataCopyPadParams) form: GM -> UB with padding, exactly DataCopyPad on the tensors the pointers
//   are in (blockLen in bytes, srcStride a GM gap in bytes, dstStride a UB gap in 32-byte blocks);
// - DataCopyPadUB2GMImpl(gmDst, ubSrc, DataCopyExtParams | DataCopyParams): UB -> GM (srcStride a UB gap in blocks,
//   dstStride a GM gap in bytes).
//
// On a cube core (of a split MIX launch) they do nothing, as in the library (the cube core has no UB). The UB pointer must be
// inside a buffer the kernel allocated, the GM pointer inside a GM buffer of the launch; each goes through the checks
// and cost of the DataCopyPad it is.
#pragma once

#include <cstdint>

#include "data_copy.h"
#include "intrinsics.h"

namespace AscendC {
namespace akgen_raw {
// a cube core of a split (MIX) launch; a block of a vector or undeclared kernel plays both core types and copies
inline bool on_cube_core() { return ::akgen_sim::ctx().core_type == 1; }
template <typename T> inline GlobalTensor<T> gm_at(T* p, const ::akgen_sim::loc_t& loc) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(p, 0, loc);
    return g;
}
}  // namespace akgen_raw

template <typename T>
inline void DataCopyPadGm2UBImpl(T* dst, T* src, const DataCopyExtParams& intriParams,
                                 const DataCopyPadExtParams<T>& padParams, uint8_t cacheMode = 0, AKGEN_LOC) {
    (void)cacheMode;  // an L2 cache hint: no effect on the data
    if (akgen_raw::on_cube_core()) return;
    DataCopyPad(::akgen_sim::raw_ub(dst, "DataCopyPadGm2UBImpl", "dst", loc), akgen_raw::gm_at(src, loc), intriParams,
                padParams, loc);
}

template <typename T>
inline void DataCopyPadGm2UBImpl(T* dst, T* src, const DataCopyParams& intriParams, const DataCopyPadParams& padParams,
                                 AKGEN_LOC) {
    if (akgen_raw::on_cube_core()) return;
    DataCopyPad(::akgen_sim::raw_ub(dst, "DataCopyPadGm2UBImpl", "dst", loc), akgen_raw::gm_at(src, loc), intriParams,
                padParams, loc);
}

template <typename T>
inline void DataCopyPadUB2GMImpl(T* dst, T* src, const DataCopyExtParams& intriParams, AKGEN_LOC) {
    if (akgen_raw::on_cube_core()) return;
    DataCopyPad(akgen_raw::gm_at(dst, loc), ::akgen_sim::raw_ub(src, "DataCopyPadUB2GMImpl", "src", loc), intriParams,
                loc);
}

template <typename T>
inline void DataCopyPadUB2GMImpl(T* dst, T* src, const DataCopyParams& intriParams, AKGEN_LOC) {
    if (akgen_raw::on_cube_core()) return;
    DataCopyPad(akgen_raw::gm_at(dst, loc), ::akgen_sim::raw_ub(src, "DataCopyPadUB2GMImpl", "src", loc), intriParams,
                loc);
}
}  // namespace AscendC
