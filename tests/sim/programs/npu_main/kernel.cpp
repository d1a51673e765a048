// The kernel of tests/sim/test_cann_sample_apis.py's NPU-mode main: z = x + 1 on the blocks given (8 floats a block).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void add_one(GM_ADDR x, GM_ADDR z, uint32_t n)
{
    AscendC::GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float*)x, n);
    gz.SetGlobalBuffer((__gm__ float*)z, n);
    for (uint32_t i = AscendC::GetBlockIdx() * 8; i < (AscendC::GetBlockIdx() + 1) * 8 && i < n; ++i) {
        gz.SetValue(i, gx.GetValue(i) + 1.0f);
    }
    uint32_t shape[2] = {2, 4};
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 32);
    AscendC::LocalTensor<float> t = b.Get<float>();
    AscendC::DataCopy(t, gz[AscendC::GetBlockIdx() * 8], 8);
    AscendC::PipeBarrier<PIPE_ALL>();
    if (AscendC::GetBlockIdx() == 0) {
        AscendC::DumpTensor(t, 7, 8, AscendC::ShapeInfo(2, shape));
        AscendC::DumpAccChkPoint(t, 3, 6, 4);
    }
}
