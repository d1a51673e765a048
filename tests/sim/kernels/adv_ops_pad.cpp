// Test kernel for SetPadValue with GM -> UB DataCopyPad (tests/sim/test_adv_ops.py): `rows` blocks of `cols` halves
// land in rows of 32 halves; mode 0: SetPadValue(7) and isPad false pads with 7; mode 1: after SetPadValue(7), isPad
// true pads with paddingValue 3.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void adv_ops_pad(GM_ADDR x, GM_ADDR y, int32_t mode, int32_t rows, int32_t cols)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, rows * 32 * sizeof(half));
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, rows * cols);
    yGm.SetGlobalBuffer((__gm__ half*)y, rows * 32);
    LocalTensor<half> t = q.AllocTensor<half>();
    DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(half)), 0, 0, 0};
    DataCopyPadExtParams<half> pad{mode == 1, 0, static_cast<uint8_t>(32 - cols), static_cast<half>(3.0f)};
    SetPadValue(static_cast<half>(7.0f));
    DataCopyPad(t, xGm, cp, pad);
    q.EnQue(t);
    t = q.DeQue<half>();
    DataCopy(yGm, t, rows * 32);
    q.FreeTensor(t);
}
