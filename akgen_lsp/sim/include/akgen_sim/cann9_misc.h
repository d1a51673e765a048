// akgen sim: small CANN 9 kernel APIs of the single-source examples: DataSyncBarrier<MemDsbT>, WaitPreTaskEnd /
// SetNextTaskStart, DisableDmaAtomic, WriteGmByPassDCache / ReadGmByPassDCache, Conditional, the AscendC::Std type
// traits, and the device build's empty ASCENDC_ASSERT / KERNEL_LOG.
#pragma once

#include <type_traits>
#include <utility>

#include "data_copy.h"
#include "tensor.h"

// Device builds (__NPU_DEVICE__) compile CANN's logging assertions to nothing.
#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, behavior)
#endif
#ifndef KERNEL_LOG
#define KERNEL_LOG(level, format, ...)
#endif

namespace AscendC {

template <bool cond, typename T1, typename T2> struct Conditional { using type = T1; };
template <typename T1, typename T2> struct Conditional<false, T1, T2> { using type = T2; };

// AscendC::Std: the device library's copy of the standard type traits and utilities.
namespace Std {
using namespace ::std;
}  // namespace Std

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
