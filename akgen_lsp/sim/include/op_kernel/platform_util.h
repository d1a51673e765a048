// akgen sim kernel side: the platform helpers of CANN's operator base library as kernels include them
// ("op_kernel/platform_util.h"), for the A2/A3 parts: one Unified Buffer data block is 32 bytes, a vector register
// (one repeat) 256 bytes. constexpr. The host side (opbase/util/platform_util.h, with the platform-info forms) shares
// the include guard, and declares the same argument-less forms.
#ifndef AKGEN_SIM_OPBASE_PLATFORM_UTIL_H
#define AKGEN_SIM_OPBASE_PLATFORM_UTIL_H

#include <cstdint>

namespace Ops {
namespace Base {
template <typename C> inline uint32_t GetUbBlockSize(C*) { return 32; }
template <typename C> inline uint32_t GetVRegSize(C*) { return 256; }
template <typename C> inline uint32_t GetCacheLineSize(C*) { return 512; }
template <typename C> inline bool IsRegbaseSocVersion(C*) { return false; }
constexpr uint32_t GetUbBlockSize() { return 32; }
constexpr uint32_t GetVRegSize() { return 256; }
}  // namespace Base
}  // namespace Ops
#endif
