// akgen sim: lib/matmul_config.h, the configuration side of the high-level Matmul API (lib/matmul_intf.h).
//
// MatmulConfig and its constructors (GetNormalConfig, GetMDLConfig, GetMMConfig<MODE>(...), ...), the CFG_* constants,
// the enums a config names (CubeFormat, IterateOrder, ScheduleType, BatchMode, ...) and MatmulApiStaticTiling, the
// constant tiling a config carries. Data only: what the Matmul does with them is in matmul_intf.h.
#pragma once

#include "../kernel_operator.h"
#include "../akgen_sim/adv_tiling.h"

// The bisheng attribute of a mixed kernel's workspace parameter (the KFC message area); nothing to do here.
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif

enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0, basicN = 0, basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
    uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
    uint32_t stepM = 0, stepN = 0;
    uint32_t baseMN = 0, singleCoreMN = 0;
    bool enUnitFlag = true;
    bool isPerTensor = false;
    bool hasAntiQuantOffset = false;
    bool doIBShareNorm = false;
    bool doSpecialMDL = false;
    bool enableInit = true;
    BatchMode batchMode = BatchMode::NONE;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetOrgShape = true;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    uint8_t iterateMode = 0;
    bool enableReuse = true;
    bool enableUBReuse = false;
    bool enableL1CacheUB = false;
    bool intraBlockPartSum = false;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableDoubleCache = false;
    bool isBiasBatch = true;
    bool enableStaticPadZeros = false;
    bool isPartialOutput = false;
    bool enableMixDualMaster = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
};

// The real builders take optional tuning arguments; they do not change the result of a matmul.
template <typename... A> constexpr MatmulConfig GetNormalConfig(A...) { return MatmulConfig{}; }
template <typename... A> constexpr MatmulConfig GetMDLConfig(A...) {
    MatmulConfig c{};
    c.doNorm = false;
    c.doMultiDataLoad = true;
    return c;
}
template <typename... A> constexpr MatmulConfig GetSpecialMDLConfig(A...) { return GetMDLConfig(); }
template <typename... A> constexpr MatmulConfig GetIBShareNormConfig(A...) {
    MatmulConfig c{};
    c.doIBShareNorm = true;
    return c;
}
template <typename... A> constexpr MatmulConfig GetBasicConfig(A...) { return MatmulConfig{}; }
enum class BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
struct MatmulShapeParams {
    uint32_t singleCoreM, singleCoreN, singleCoreK;
    uint32_t basicM, basicN, basicK;
};
struct MatmulQuantParams {
    bool isPerTensor;
    bool hasAntiQuantOffset;
};
struct MatmulBatchParams {
    bool isNBatch;
    BatchMode batchMode;
    bool isBiasBatch = true;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};
struct MatmulFuncParams {
    bool intrinsicsCheck;
    bool enVecND2NZ;
    bool enableDoubleCache;
    bool enableL1CacheUB;
    uint32_t doMTE2Preload;
    IterateOrder iterateOrder;
    ScheduleType scheduleType;
    bool enableReuse = true;
    bool enableUBReuse;
    bool isPartialOutput = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
};
namespace akgen_mm_cfg {
constexpr void apply(MatmulConfig& c, const MatmulShapeParams& p) {
    c.singleCoreM = p.singleCoreM;
    c.singleCoreN = p.singleCoreN;
    c.singleCoreK = p.singleCoreK;
    c.basicM = p.basicM;
    c.basicN = p.basicN;
    c.basicK = p.basicK;
}
constexpr void apply(MatmulConfig& c, const MatmulQuantParams& p) {
    c.isPerTensor = p.isPerTensor;
    c.hasAntiQuantOffset = p.hasAntiQuantOffset;
}
constexpr void apply(MatmulConfig& c, const MatmulBatchParams& p) {
    c.isNBatch = p.isNBatch;
    c.batchMode = p.batchMode;
    c.isBiasBatch = p.isBiasBatch;
}
constexpr void apply(MatmulConfig& c, const MatmulFuncParams& p) {
    c.intrinsicsCheck = p.intrinsicsCheck;
    c.enVecND2NZ = p.enVecND2NZ;
    c.enableDoubleCache = p.enableDoubleCache;
    c.enableL1CacheUB = p.enableL1CacheUB;
    c.doMTE2Preload = p.doMTE2Preload;
    c.iterateOrder = p.iterateOrder;
    c.scheduleType = p.scheduleType;
    c.enableReuse = p.enableReuse;
    c.enableUBReuse = p.enableUBReuse;
    c.isPartialOutput = p.isPartialOutput;
    c.isA2B2Shared = p.isA2B2Shared;
    c.isEnableChannelSplit = p.isEnableChannelSplit;
    c.enableKdimReorderLoad = p.enableKdimReorderLoad;
}
}  // namespace akgen_mm_cfg
// GetMMConfig<mode>(shape, quant, batch, func params in any order): the mode's config with those fields set.
template <MatmulConfigMode MODE, typename... A> constexpr MatmulConfig GetMMConfig(A... args) {
    MatmulConfig c = MODE == MatmulConfigMode::CONFIG_NORM ? GetNormalConfig()
                     : MODE == MatmulConfigMode::CONFIG_IBSHARE ? GetIBShareNormConfig()
                                                                : GetMDLConfig();
    if (MODE == MatmulConfigMode::CONFIG_SPECIALMDL) c.doSpecialMDL = true;
    (akgen_mm_cfg::apply(c, args), ...);
    return c;
}
constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig();

// The constant (compile-time) tiling of a Matmul: the TCubeTiling fields (-1: not set) and the config.
struct MatmulApiStaticTiling {
    int32_t usedCoreNum = -1, M = -1, N = -1, Ka = -1, Kb = -1, singleCoreM = -1, singleCoreN = -1, singleCoreK = -1;
    int32_t baseM = -1, baseN = -1, baseK = -1, depthA1 = -1, depthB1 = -1, stepM = -1, stepN = -1, isBias = -1;
    int32_t transLength = -1, iterateOrder = -1, shareMode = -1, shareL1Size = -1, shareL0CSize = -1, shareUbSize = -1;
    int32_t stepKa = -1, stepKb = -1, depthAL1CacheUB = -1, depthBL1CacheUB = -1, dbL0A = -1, dbL0B = -1, dbL0C = -1;
    int32_t ALayoutInfoB = -1, ALayoutInfoS = -1, ALayoutInfoN = -1, ALayoutInfoG = -1, ALayoutInfoD = -1;
    int32_t BLayoutInfoB = -1, BLayoutInfoS = -1, BLayoutInfoN = -1, BLayoutInfoG = -1, BLayoutInfoD = -1;
    int32_t CLayoutInfoB = -1, CLayoutInfoS1 = -1, CLayoutInfoN = -1, CLayoutInfoG = -1, CLayoutInfoS2 = -1;
    int32_t BatchNum = -1, mxTypePara = -1;
    MatmulConfig cfg = CFG_NORM;
};
