// The compute step of axpb, in a header of its own (a finding here is shown in this file).
#pragma once
#include "kernel_operator.h"

template <typename T>
__aicore__ inline void AxpbCompute(AscendC::LocalTensor<T>& y, const AscendC::LocalTensor<T>& x, T a, T b,
                                   uint32_t count)
{
    AscendC::Muls(y, x, a, count);
    AscendC::Adds(y, y, b, count);
}
