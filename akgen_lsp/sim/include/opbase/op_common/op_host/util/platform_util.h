// akgen sim host side: the platform helpers of CANN's operator base library (util/platform_util.h) for the A2/A3
// parts the simulator's host runs model: the UB block (32 bytes), the vector register width (256 bytes, one repeat),
// the cache line (512 bytes, the L2 line of the arch profile), and no register-based (Ascend 950) SoC.
#ifndef AKGEN_SIM_OPBASE_PLATFORM_UTIL_H
#define AKGEN_SIM_OPBASE_PLATFORM_UTIL_H

#include <cstdint>

namespace Ops {
namespace Base {
template <typename C> inline uint32_t GetUbBlockSize(C*) { return 32; }
template <typename C> inline uint32_t GetVRegSize(C*) { return 256; }
template <typename C> inline uint32_t GetCacheLineSize(C*) { return 512; }
template <typename C> inline bool IsRegbaseSocVersion(C*) { return false; }
inline uint32_t GetUbBlockSize() { return 32; }
inline uint32_t GetVRegSize() { return 256; }
}  // namespace Base
}  // namespace Ops
#endif
