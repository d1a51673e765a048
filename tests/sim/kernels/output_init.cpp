// Test kernel for an output with initial content (tests/sim/test_output_init.py): writes x[0:8] * 2 into y[8:16] and
// leaves the rest of y (64 floats) alone, as a strided-slice assignment into a ref output does.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void output_init(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8 * sizeof(float));
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float*)x, 8);
    gy.SetGlobalBuffer((__gm__ float*)y, 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, 8);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 2.0f, 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy[8], t, 8);
}
