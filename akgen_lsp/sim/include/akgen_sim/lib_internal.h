// akgen sim: entry points of the device library's implementation layer that some kernels call directly (they are
// declared by CANN's kernel_operator.h through its impl headers): PopStackBuffer, DuplicateImpl, DataCopyUB2GMImpl.
// - PopStackBuffer<T, pos>(tensor): the library's stack buffer, i.e. the UB after every InitBuffer allocation (32-byte
//   aligned start), as a tensor over it; false when no UB is left.
// - DuplicateImpl<T>(ubPtr, value, count): Duplicate on a raw UB pointer.
// - DataCopyUB2GMImpl(gmPtr, ubPtr, DataCopyParams): DataCopy UB -> GM on raw pointers (GM checked against the
//   kernel's GM buffers).
#pragma once

#include "data_copy.h"
#include "intrinsics.h"

namespace AscendC {

template <typename T, TPosition pos = TPosition::LCM> inline bool PopStackBuffer(LocalTensor<T>& popBuffer, AKGEN_LOC) {
    namespace s = ::akgen_sim;
    s::touch("PopStackBuffer", loc);
    s::BlockCtx& c = s::ctx();
    uint64_t start = (c.ub_used + 31) / 32 * 32;
    if (c.ub == nullptr || start >= s::cfg().ub_bytes) return false;
    s::Slot& slot = s::new_slot(c);
    slot.base = c.ub + start;
    slot.bytes = static_cast<uint32_t>(s::cfg().ub_bytes - start);
    slot.state = s::SlotState::TBUF;
    slot.pos = TPosition::VECCALC;
    slot.alloc_loc = loc;
    slot.owner = "PopStackBuffer";
    popBuffer = LocalTensor<T>(reinterpret_cast<T*>(slot.base), slot.bytes / static_cast<uint32_t>(sizeof(T)), &slot,
                               TPosition::VECCALC);
    return true;
}

template <typename T> inline void DuplicateImpl(T* dstLocal, const T& scalarValue, const int32_t& count, AKGEN_LOC) {
    LocalTensor<T> d = ::akgen_sim::raw_ub(dstLocal, "DuplicateImpl", "dst", loc);
    Duplicate(d, scalarValue, count, loc);
}

template <typename T> inline void DataCopyUB2GMImpl(T* dst, T* src, const DataCopyParams& intriParams, AKGEN_LOC) {
    LocalTensor<T> s = ::akgen_sim::raw_ub(src, "DataCopyUB2GMImpl", "src", loc);
    GlobalTensor<T> g;
    g.SetGlobalBuffer(dst, loc);
    DataCopy(g, s, intriParams, loc);
}

}  // namespace AscendC
