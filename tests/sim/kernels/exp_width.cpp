// One Exp over a UB tile, for the cost model's width-specific rows (fp32 Exp costs about half of fp16 per repeat).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void exp_width(GM_ADDR x, GM_ADDR y, uint32_t n) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(DTYPE_X));
    GlobalTensor<DTYPE_X> xg, yg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X*)x, n);
    yg.SetGlobalBuffer((__gm__ DTYPE_X*)y, n);
    LocalTensor<DTYPE_X> t = buf.Get<DTYPE_X>();
    DataCopy(t, xg, n);
    PipeBarrier<PIPE_ALL>();
    Exp(t, t, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, t, n);
}
