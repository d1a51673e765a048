// A kernel header of another operator that clamp_scale's kernel includes as "../op_kernel/arch22/blk_helper.h":
// the scale step on one tile.
#pragma once
#include "kernel_operator.h"

template <typename T>
__aicore__ inline void ScaleTile(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, T scale,
                                 uint32_t count)
{
    AscendC::Muls(dst, src, scale, count);
}
