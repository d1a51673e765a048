// akgen sim: the tiling structs of the high-level APIs, with the field names and order of CANN's tiling data
// (TCubeTiling of Matmul, SoftMaxTiling, LayerNormTiling, LayerNormSeparateTiling). Each is one type, visible at
// global scope (kernel side, as kernel_tiling/kernel_tiling.h declares them), in optiling (op_host tiling headers:
// TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, ...)) and, for TCubeTiling, as AscendC::tiling::TCubeTiling. Host and
// kernel builds both include this header (tiling/tiling_api.h, kernel_operator.h).
#pragma once

#include "tiling.h"

BEGIN_TILING_DATA_DEF(TCubeTiling)
TILING_DATA_FIELD_DEF(int32_t, usedCoreNum)
TILING_DATA_FIELD_DEF(int32_t, M)
TILING_DATA_FIELD_DEF(int32_t, N)
TILING_DATA_FIELD_DEF(int32_t, Ka)
TILING_DATA_FIELD_DEF(int32_t, Kb)
TILING_DATA_FIELD_DEF(int32_t, singleCoreM)
TILING_DATA_FIELD_DEF(int32_t, singleCoreN)
TILING_DATA_FIELD_DEF(int32_t, singleCoreK)
TILING_DATA_FIELD_DEF(int32_t, baseM)
TILING_DATA_FIELD_DEF(int32_t, baseN)
TILING_DATA_FIELD_DEF(int32_t, baseK)
TILING_DATA_FIELD_DEF(int32_t, depthA1)
TILING_DATA_FIELD_DEF(int32_t, depthB1)
TILING_DATA_FIELD_DEF(int32_t, stepM)
TILING_DATA_FIELD_DEF(int32_t, stepN)
TILING_DATA_FIELD_DEF(int32_t, isBias)
TILING_DATA_FIELD_DEF(int32_t, transLength)
TILING_DATA_FIELD_DEF(int32_t, iterateOrder)
TILING_DATA_FIELD_DEF(int32_t, shareMode)
TILING_DATA_FIELD_DEF(int32_t, shareL1Size)
TILING_DATA_FIELD_DEF(int32_t, shareL0CSize)
TILING_DATA_FIELD_DEF(int32_t, shareUbSize)
TILING_DATA_FIELD_DEF(int32_t, batchM)
TILING_DATA_FIELD_DEF(int32_t, batchN)
TILING_DATA_FIELD_DEF(int32_t, singleBatchM)
TILING_DATA_FIELD_DEF(int32_t, singleBatchN)
TILING_DATA_FIELD_DEF(int32_t, stepKa)
TILING_DATA_FIELD_DEF(int32_t, stepKb)
TILING_DATA_FIELD_DEF(int32_t, depthAL1CacheUB)
TILING_DATA_FIELD_DEF(int32_t, depthBL1CacheUB)
TILING_DATA_FIELD_DEF(int32_t, dbL0A)
TILING_DATA_FIELD_DEF(int32_t, dbL0B)
TILING_DATA_FIELD_DEF(int32_t, dbL0C)
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoB)
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoS)
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoN)
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoG)
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoD)
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoB)
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoS)
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoN)
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoG)
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoD)
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoB)
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoS1)
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoN)
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoG)
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoS2)
TILING_DATA_FIELD_DEF(int32_t, BatchNum)
TILING_DATA_FIELD_DEF(int32_t, mxTypePara)
END_TILING_DATA_DEF;

namespace optiling {
using TCubeTiling = ::TCubeTiling;
}
namespace AscendC {
namespace tiling {
using TCubeTiling = ::TCubeTiling;
}
}  // namespace AscendC

BEGIN_TILING_DATA_DEF(SoftMaxTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcM)
TILING_DATA_FIELD_DEF(uint32_t, srcK)
TILING_DATA_FIELD_DEF(uint32_t, srcSize)
TILING_DATA_FIELD_DEF(uint32_t, outMaxM)
TILING_DATA_FIELD_DEF(uint32_t, outMaxK)
TILING_DATA_FIELD_DEF(uint32_t, outMaxSize)
TILING_DATA_FIELD_DEF(uint32_t, splitM)
TILING_DATA_FIELD_DEF(uint32_t, splitK)
TILING_DATA_FIELD_DEF(uint32_t, splitSize)
TILING_DATA_FIELD_DEF(uint32_t, reduceM)
TILING_DATA_FIELD_DEF(uint32_t, reduceK)
TILING_DATA_FIELD_DEF(uint32_t, reduceSize)
TILING_DATA_FIELD_DEF(uint32_t, rangeM)
TILING_DATA_FIELD_DEF(uint32_t, tailM)
TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize)
TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize)
END_TILING_DATA_DEF;

namespace optiling {
using SoftMaxTiling = ::SoftMaxTiling;
}

// LogSoftMaxTiling (logsoftmax_tilingdata.h): the same fields as SoftMaxTiling, a type of its own.
BEGIN_TILING_DATA_DEF(LogSoftMaxTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcM)
TILING_DATA_FIELD_DEF(uint32_t, srcK)
TILING_DATA_FIELD_DEF(uint32_t, srcSize)
TILING_DATA_FIELD_DEF(uint32_t, outMaxM)
TILING_DATA_FIELD_DEF(uint32_t, outMaxK)
TILING_DATA_FIELD_DEF(uint32_t, outMaxSize)
TILING_DATA_FIELD_DEF(uint32_t, splitM)
TILING_DATA_FIELD_DEF(uint32_t, splitK)
TILING_DATA_FIELD_DEF(uint32_t, splitSize)
TILING_DATA_FIELD_DEF(uint32_t, reduceM)
TILING_DATA_FIELD_DEF(uint32_t, reduceK)
TILING_DATA_FIELD_DEF(uint32_t, reduceSize)
TILING_DATA_FIELD_DEF(uint32_t, rangeM)
TILING_DATA_FIELD_DEF(uint32_t, tailM)
TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize)
TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize)
END_TILING_DATA_DEF;

namespace optiling {
using LogSoftMaxTiling = ::LogSoftMaxTiling;
}
namespace AscendC {
namespace tiling {
using LogSoftMaxTiling = ::LogSoftMaxTiling;
}
}  // namespace AscendC

BEGIN_TILING_DATA_DEF(LayerNormTiling)
TILING_DATA_FIELD_DEF(uint32_t, bLength)
TILING_DATA_FIELD_DEF(uint32_t, sLength)
TILING_DATA_FIELD_DEF(uint32_t, hLength)
TILING_DATA_FIELD_DEF(uint32_t, originalHLength)
TILING_DATA_FIELD_DEF(uint32_t, inputXSize)
TILING_DATA_FIELD_DEF(uint32_t, meanVarSize)
TILING_DATA_FIELD_DEF(uint32_t, numberOfTmpBuf)
TILING_DATA_FIELD_DEF(uint32_t, meanTmpTensorPos)
TILING_DATA_FIELD_DEF(uint32_t, meanTmpTensorSize)
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorPos)
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorSize)
TILING_DATA_FIELD_DEF(uint32_t, tmpBufSize)
TILING_DATA_FIELD_DEF(uint32_t, oneTmpSize)
TILING_DATA_FIELD_DEF(uint32_t, firstTmpStartPos)
TILING_DATA_FIELD_DEF(uint32_t, secondTmpStartPos)
TILING_DATA_FIELD_DEF(uint32_t, thirdTmpStartPos)
TILING_DATA_FIELD_DEF(uint32_t, loopRound)
TILING_DATA_FIELD_DEF(uint32_t, inputRoundSize)
TILING_DATA_FIELD_DEF(uint32_t, inputTailSize)
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos)
TILING_DATA_FIELD_DEF(uint32_t, meanVarRoundSize)
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailSize)
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailPos)
TILING_DATA_FIELD_DEF(uint32_t, bshCurLength)
TILING_DATA_FIELD_DEF(uint32_t, bsCurLength)
TILING_DATA_FIELD_DEF(float, lastDimValueBack)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(LayerNormSeparateTiling)
TILING_DATA_FIELD_DEF(uint32_t, aLength)
TILING_DATA_FIELD_DEF(uint32_t, rLength)
TILING_DATA_FIELD_DEF(uint32_t, halfAddRepeatTimes)
TILING_DATA_FIELD_DEF(uint32_t, rHeadLength)
TILING_DATA_FIELD_DEF(float, k2Rec)
TILING_DATA_FIELD_DEF(float, k2RRec)
TILING_DATA_FIELD_DEF(uint32_t, inputXSize)
TILING_DATA_FIELD_DEF(uint32_t, meanVarSize)
TILING_DATA_FIELD_DEF(uint32_t, numberOfTmpBuf)
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorPos)
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorSize)
TILING_DATA_FIELD_DEF(uint32_t, tmpBufSize)
TILING_DATA_FIELD_DEF(uint32_t, oneTmpSize)
TILING_DATA_FIELD_DEF(uint32_t, firstTmpStartPos)
TILING_DATA_FIELD_DEF(uint32_t, secondTmpStartPos)
TILING_DATA_FIELD_DEF(uint32_t, thirdTmpStartPos)
TILING_DATA_FIELD_DEF(uint32_t, loopRound)
TILING_DATA_FIELD_DEF(uint32_t, inputRoundSize)
TILING_DATA_FIELD_DEF(uint32_t, inputTailSize)
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos)
TILING_DATA_FIELD_DEF(uint32_t, meanVarRoundSize)
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailSize)
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailPos)
TILING_DATA_FIELD_DEF(uint32_t, arCurLength)
TILING_DATA_FIELD_DEF(uint32_t, aCurLength)
TILING_DATA_FIELD_DEF(float, rValueBack)
END_TILING_DATA_DEF;

namespace optiling {
using LayerNormTiling = ::LayerNormTiling;
using LayerNormSeparateTiling = ::LayerNormSeparateTiling;
}

