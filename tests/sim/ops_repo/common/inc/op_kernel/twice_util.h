// A repository-wide kernel header, included by twice's kernel as CANN's build lays it out: "../inc/twice_util.h".
#pragma once
#include "kernel_operator.h"

template <typename T>
__aicore__ inline void TwiceCompute(AscendC::LocalTensor<T>& y, const AscendC::LocalTensor<T>& x, uint32_t count)
{
    AscendC::Add(y, x, x, count);
}
