// akgen sim: small CANN 9 kernel APIs of the single-source examples: DataSyncBarrier<MemDsbT>, WaitPreTaskEnd /
// SetNextTaskStart, DisableDmaAtomic, WriteGmByPassDCache / ReadGmByPassDCache.
#pragma once

#include "data_copy.h"
#include "tensor.h"

namespace AscendC {

enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };

// Waits until the memory accesses issued before it are complete: the scalar unit continues once every pipe is idle.
template <MemDsbT arg0> inline void DataSyncBarrier(AKGEN_LOC) {
    akgen_sim::touch("DataSyncBarrier", loc);
    akgen_sim::BlockCtx& c = akgen_sim::ctx();
    double t = std::max(c.now_s, c.done);
    for (double p : c.pipe_free) t = std::max(t, p);
    c.now_s = t;
}

// Overlap with the previous / next kernel of the stream (super-kernel task scheduling). Launches run one after the
// other here, so there is nothing to wait for and nothing to release.
inline void WaitPreTaskEnd() {}
inline void SetNextTaskStart() {}

inline void DisableDmaAtomic() { ::akgen_sim::ctx().atomic = 0; }

// Scalar GM access that skips the data cache: the same checks (bounds of the GM buffer) as GlobalTensor
// GetValue / SetValue at the caller's line.
template <typename T> inline void WriteGmByPassDCache(T* addr, T value, AKGEN_LOC) {
    GlobalTensor<T> g;
    g.addr_ = addr;
    g.region_ = GlobalTensor<T>::find_region(reinterpret_cast<const uint8_t*>(addr));
    g.SetValue(0, value, loc);
}
template <typename T> inline T ReadGmByPassDCache(T* addr, AKGEN_LOC) {
    GlobalTensor<T> g;
    g.addr_ = addr;
    g.region_ = GlobalTensor<T>::find_region(reinterpret_cast<const uint8_t*>(addr));
    return g.GetValue(0, loc);
}

}  // namespace AscendC
