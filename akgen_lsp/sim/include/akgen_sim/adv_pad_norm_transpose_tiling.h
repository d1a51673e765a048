// akgen sim: the types of adv APIs that host and kernel code share: the tiling structs PadTiling, UnPadTiling
// (pad_tilingdata.h), DeepNormTiling (deepnorm_tilingdata.h) and ConfusionTransposeTiling (param0..param17), with CANN's field names and order, at global scope,
// in optiling and in AscendC::tiling; PadParams / UnPadParams. Included by adv_pad_quant_transpose.h / adv_normalization.h (kernel) and
// host/adv_host_pad_norm_quant.h (PadTilingFunc, GetDeepNormTilingInfo, ...).
#pragma once

#include "tiling.h"

BEGIN_TILING_DATA_DEF(PadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight)
TILING_DATA_FIELD_DEF(uint32_t, srcWidth)
TILING_DATA_FIELD_DEF(uint32_t, srcOriWidth)
TILING_DATA_FIELD_DEF(uint32_t, widthWithoutLastBlock)
TILING_DATA_FIELD_DEF(uint32_t, blocksPerRow)
TILING_DATA_FIELD_DEF(uint32_t, heightTiling)
TILING_DATA_FIELD_DEF(uint32_t, heightFractal)
TILING_DATA_FIELD_DEF(uint32_t, heightFractalTail)
TILING_DATA_FIELD_DEF(uint32_t, mainLoopOffset)
TILING_DATA_FIELD_DEF(uint32_t, tailBlockOffset)
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum)
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum)
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset)
TILING_DATA_FIELD_DEF(uint32_t, widthTiling)
TILING_DATA_FIELD_DEF(uint32_t, widthFractal)
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail)
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTailAlingned)
TILING_DATA_FIELD_DEF(uint32_t, brcbTiling)
TILING_DATA_FIELD_DEF(uint32_t, brcbFractal)
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTail)
TILING_DATA_FIELD_DEF(uint32_t, maxRepeatTimes)
TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimes)
TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimesTail)
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimes)
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimesTail)
TILING_DATA_FIELD_DEF(uint32_t, reserved)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(UnPadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight)
TILING_DATA_FIELD_DEF(uint32_t, srcWidth)
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum)
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum)
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset)
TILING_DATA_FIELD_DEF(uint32_t, widthTiling)
TILING_DATA_FIELD_DEF(uint32_t, widthFractal)
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(DeepNormTiling)
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

BEGIN_TILING_DATA_DEF(ConfusionTransposeTiling)
TILING_DATA_FIELD_DEF(uint32_t, param0)
TILING_DATA_FIELD_DEF(uint32_t, param1)
TILING_DATA_FIELD_DEF(uint32_t, param2)
TILING_DATA_FIELD_DEF(uint32_t, param3)
TILING_DATA_FIELD_DEF(uint32_t, param4)
TILING_DATA_FIELD_DEF(uint32_t, param5)
TILING_DATA_FIELD_DEF(uint32_t, param6)
TILING_DATA_FIELD_DEF(uint32_t, param7)
TILING_DATA_FIELD_DEF(uint32_t, param8)
TILING_DATA_FIELD_DEF(uint32_t, param9)
TILING_DATA_FIELD_DEF(uint32_t, param10)
TILING_DATA_FIELD_DEF(uint32_t, param11)
TILING_DATA_FIELD_DEF(uint32_t, param12)
TILING_DATA_FIELD_DEF(uint32_t, param13)
TILING_DATA_FIELD_DEF(uint32_t, param14)
TILING_DATA_FIELD_DEF(uint32_t, param15)
TILING_DATA_FIELD_DEF(uint32_t, param16)
TILING_DATA_FIELD_DEF(uint32_t, param17)
END_TILING_DATA_DEF;

namespace optiling {
using ConfusionTransposeTiling = ::ConfusionTransposeTiling;
using DeepNormTiling = ::DeepNormTiling;
using PadTiling = ::PadTiling;
using UnPadTiling = ::UnPadTiling;
}  // namespace optiling

namespace AscendC {
namespace tiling {
using ConfusionTransposeTiling = ::ConfusionTransposeTiling;
using DeepNormTiling = ::DeepNormTiling;
using PadTiling = ::PadTiling;
using UnPadTiling = ::UnPadTiling;
}  // namespace tiling

struct PadParams {
    PadParams() = default;
    PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
        : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};

struct UnPadParams {
    UnPadParams() = default;
    UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn) : leftPad(leftPadIn), rightPad(rightPadIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};

}  // namespace AscendC

