// akgen sim host side: platform_ascendc::PlatformAscendC, answering from the arch profile of the run (core counts,
// memory sizes), which the host runner sets before calling the TilingFunc.
#pragma once

#include <cstdint>

#include "../../akgen_sim/host/tiling_context.h"

// The NPU architecture (CANN 9's NpuArch, the __NPU_ARCH__ numbers; global, as host tiling code names it).
#ifndef AKGEN_SIM_NPU_ARCH_ENUM
#define AKGEN_SIM_NPU_ARCH_ENUM
enum class NpuArch : uint32_t {
    DAV_1001 = 1001, DAV_2002 = 2002, DAV_2201 = 2201, DAV_3002 = 3002, DAV_3003 = 3003, DAV_3102 = 3102,
    DAV_3113 = 3113, DAV_3510 = 3510, DAV_5102 = 5102, DAV_RESV = 0xFFFFFFFFu
};
#endif

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND310P, ASCEND310B, ASCEND950, ASCEND350, RESERVED_VERSION = 99999 };

struct PlatformProfile {
    uint32_t aiv = 48, aic = 24;
    uint64_t ub = 196608, l1 = 524288, l0a = 65536, l0b = 65536, l0c = 131072, l2 = 201326592, hbm = 68719476736ull;
    SocVersion soc = SocVersion::ASCEND910B;
    uint32_t lib_workspace = 16 * 1024 * 1024;
};
inline PlatformProfile& platform_profile() { static PlatformProfile p; return p; }

class PlatformAscendC {
public:
    PlatformAscendC() = default;
    explicit PlatformAscendC(const fe::PlatFormInfos*) {}
    uint32_t GetCoreNum() const { return platform_profile().aiv; }
    uint32_t GetCoreNumAic() const { return platform_profile().aic; }
    uint32_t GetCoreNumAiv() const { return platform_profile().aiv; }
    uint32_t GetCoreNumVector() const { return platform_profile().aiv; }
    void GetCoreMemSize(CoreMemType t, uint64_t& size) const {
        const PlatformProfile& p = platform_profile();
        switch (t) {
            case CoreMemType::UB: size = p.ub; break;
            case CoreMemType::L1: size = p.l1; break;
            case CoreMemType::L0_A: size = p.l0a; break;
            case CoreMemType::L0_B: size = p.l0b; break;
            case CoreMemType::L0_C: size = p.l0c; break;
            case CoreMemType::L2: size = p.l2; break;
            case CoreMemType::HBM: size = p.hbm; break;
            default: size = 0;
        }
        // CANN keeps 256 bytes of UB and of L1 for KFC on Ascend910B (platform_ascendc.cpp, LOCAL_RESERV_SIZE):
        // GetCoreMemSize(UB) answers 196352 there, not 196608.
        if ((t == CoreMemType::UB || t == CoreMemType::L1) && p.soc == SocVersion::ASCEND910B && size >= 256) {
            size -= 256;
        }
    }
    void GetCoreMemBw(CoreMemType, uint64_t& bw) const { bw = 0; }
    SocVersion GetSocVersion() const { return platform_profile().soc; }
    // the profile's architecture: A2/A3 (ASCEND910B, whose A3 parts share it) DAV_2201
    NpuArch GetCurNpuArch() const {
        switch (platform_profile().soc) {
            case SocVersion::ASCEND910: return NpuArch::DAV_1001;
            case SocVersion::ASCEND310P: return NpuArch::DAV_2002;
            case SocVersion::ASCEND310B: return NpuArch::DAV_3002;
            case SocVersion::ASCEND950: return NpuArch::DAV_3510;
            default: return NpuArch::DAV_2201;
        }
    }
    uint32_t GetLibApiWorkSpaceSize() const { return platform_profile().lib_workspace; }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
        uint32_t ratio = aivCoreNum / aicCoreNum;
        return (sliceNum + ratio - 1) / ratio;
    }
    uint32_t ReserveLocalMemory(uint32_t, uint32_t) const { return 0; }
};

inline PlatformAscendC* PlatformAscendCManager_GetInstance() { static PlatformAscendC p; return &p; }
class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() { return PlatformAscendCManager_GetInstance(); }
    // GetInstance("Ascend910B1") (CPU-debug programs name the SoC): the run's arch profile answers either way.
    static PlatformAscendC* GetInstance(const char*) { return PlatformAscendCManager_GetInstance(); }
};

}  // namespace platform_ascendc
