// akgen bench: platform_ascendc on the CPU; the core counts and memory sizes come from the arch profile (macros set
// by akgen_lsp/bench/host_tiling.py).
#pragma once
#include "../../akgen_bench_host.h"

#ifndef AKGEN_AIV_CORES
#define AKGEN_AIV_CORES 48
#endif
#ifndef AKGEN_AIC_CORES
#define AKGEN_AIC_CORES 24
#endif
#ifndef AKGEN_UB_BYTES
#define AKGEN_UB_BYTES 196608
#endif
#ifndef AKGEN_L1_BYTES
#define AKGEN_L1_BYTES 524288
#endif
#ifndef AKGEN_L0A_BYTES
#define AKGEN_L0A_BYTES 65536
#endif
#ifndef AKGEN_L0B_BYTES
#define AKGEN_L0B_BYTES 65536
#endif
#ifndef AKGEN_L0C_BYTES
#define AKGEN_L0C_BYTES 131072
#endif

namespace platform_ascendc {
enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND310P, ASCEND310B, RESERVED_VERSION };
class PlatformAscendC {
public:
    PlatformAscendC() = default;
    explicit PlatformAscendC(const fe::PlatFormInfos*) {}
    uint32_t GetCoreNum() const { return AKGEN_AIV_CORES; }
    uint32_t GetCoreNumAic() const { return AKGEN_AIC_CORES; }
    uint32_t GetCoreNumAiv() const { return AKGEN_AIV_CORES; }
    void GetCoreMemSize(CoreMemType t, uint64_t& size) const {
        switch (t) {
            case CoreMemType::UB: size = AKGEN_UB_BYTES; break;
            case CoreMemType::L1: size = AKGEN_L1_BYTES; break;
            case CoreMemType::L0_A: size = AKGEN_L0A_BYTES; break;
            case CoreMemType::L0_B: size = AKGEN_L0B_BYTES; break;
            case CoreMemType::L0_C: size = AKGEN_L0C_BYTES; break;
            case CoreMemType::L2: size = 192ull << 20; break;
            default: size = 64ull << 30; break;
        }
    }
    SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
    uint32_t GetLibApiWorkSpaceSize() const { return 16u * 1024u * 1024u; }
    uint32_t CalcTschBlockDim(uint32_t n, uint32_t, uint32_t) const { return n; }
};
class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() { static PlatformAscendC p; return &p; }
};
}  // namespace platform_ascendc
