// akgen sim: the advanced BroadCast / Broadcast API of A2/A3 (adv_api/pad/broadcast.h): dim 1 or 2, the source's
// size-1 axes repeated up to dstShape (axis names the broadcast axis: 0 for [1, n] -> [m, n], 1 for [m, 1] -> [m, n]).
// b8/b16/b32 types. Every dst element is a copy of a src element, so the result is exact. src may be dst (the
// library's in-place use `BroadCast(x, x, ...)` on [1, n] -> [m, n]): the source is read before dst is written.
// Checked: dim and axis in range, shapes (each dst extent <= 65535; src extent 1 or equal), operand sizes.
// Not checked: the size of sharedTmpBuffer (the simulator needs none).
#pragma once

#include <vector>

#include "vec_engine.h"

namespace akgen_sim {

template <typename T, int32_t dim, int32_t axis>
inline void broadcast_impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                           const uint32_t* dstShape, const uint32_t* srcShape, const loc_t& loc) {
    const char* api = "BroadCast";
    touch(api, loc);
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "Broadcast only supports type b8/b16/b32 on current device");
    static_assert(dim == 1 || dim == 2, "Broadcast: now only support dim = 1 or dim = 2");
    static_assert(axis == 0 || axis == 1, "Broadcast: now only support axis = 0 or axis = 1");
    uint64_t src_n = 1, dst_n = 1;
    for (int32_t i = 0; i < dim; ++i) {
        if (dstShape[i] > 65535) {
            fail("SIM-ADV-PARAMS", fmt("%s: dstShape[%d] is %u; shape should be less than uint16 max", api, i,
                                       dstShape[i]), loc, "api_mismatch", api);
        }
        if (srcShape[i] != 1 && srcShape[i] != dstShape[i]) {
            fail("SIM-ADV-PARAMS", fmt("%s: srcShape[%d] is %u but dstShape[%d] is %u; a source extent is 1 (broadcast) "
                                       "or equal to the destination's", api, i, srcShape[i], i, dstShape[i]),
                 loc, "api_mismatch", api);
        }
        src_n *= srcShape[i];
        dst_n *= dstShape[i];
    }
    if (dst_n == 0) return;
    check_local(src, "src", api, src_n * sizeof(T), loc);
    check_local(dst, "dst", api, dst_n * sizeof(T), loc);
    std::vector<T> s(src.addr_, src.addr_ + src_n);
    uint32_t rows = dim == 2 ? dstShape[0] : 1, cols = dstShape[dim - 1];
    uint32_t src_cols = srcShape[dim - 1];
    for (uint32_t r = 0; r < rows; ++r) {
        uint32_t sr = dim == 2 && srcShape[0] == 1 ? 0 : r;
        for (uint32_t c = 0; c < cols; ++c) {
            uint32_t sc = src_cols == 1 ? 0 : c;
            dst.addr_[uint64_t(r) * cols + c] = s[uint64_t(sr) * src_cols + sc];
        }
    }
    vec_charge("duplicate", api, double((dst_n * sizeof(T) + 255) / 256), dst.slot_, {src.slot_}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    ::akgen_sim::broadcast_impl<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], AKGEN_LOC) {
    ::akgen_sim::broadcast_impl<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    ::akgen_sim::broadcast_impl<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], AKGEN_LOC) {
    ::akgen_sim::broadcast_impl<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, loc);
}

}  // namespace AscendC
