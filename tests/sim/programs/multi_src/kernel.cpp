// The kernel of tests/sim/test_program_sources.py: z = x * SCALE (inc/params.h) on 2 blocks of 128 floats.
#include "kernel_operator.h"
#include "params.h"

static float scale() { return static_cast<float>(SCALE); }

extern "C" __global__ __aicore__ void scale_kernel(GM_ADDR x, GM_ADDR z)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 128 * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float*)x + 128 * AscendC::GetBlockIdx(), 128);
    gz.SetGlobalBuffer((__gm__ float*)z + 128 * AscendC::GetBlockIdx(), 128);
    AscendC::DataCopy(t, gx, 128);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t, t, scale(), 128);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gz, t, 128);
}
