// FasterGelu (tests/sim/test_cann_sample_apis.py): z = FasterGelu<T, HP, HPERF>(x) over n elements, with and without
// a sharedTmpBuffer (odd and even blocks of 256 elements).
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;

extern "C" __global__ __aicore__ void faster_gelu(GM_ADDR x, GM_ADDR z, int32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz, bt;
    pipe.InitBuffer(bx, n * sizeof(T));
    pipe.InitBuffer(bz, n * sizeof(T));
    pipe.InitBuffer(bt, 8192);
    GlobalTensor<T> gx, gz;
    gx.SetGlobalBuffer((__gm__ T*)x, n);
    gz.SetGlobalBuffer((__gm__ T*)z, n);
    LocalTensor<T> lx = bx.Get<T>(), lz = bz.Get<T>();
    LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
    DataCopy(lx, gx, n);
    PipeBarrier<PIPE_ALL>();
    FasterGelu<T, HP, HPERF>(lz, lx, tmp, n / 2);
    FasterGelu<T, HP, HPERF>(lz[n / 2], lx[n / 2], n / 2);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, lz, n);
}
