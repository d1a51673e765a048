// z = 3 * x on blocks of 256 floats (the kernel of the project, in both modes).
#include "kernel_operator.h"

constexpr int32_t BLOCK_LENGTH = 256;

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR z)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * BLOCK_LENGTH * sizeof(float));
    AscendC::GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    zGm.SetGlobalBuffer((__gm__ float*)z + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    AscendC::LocalTensor<float> a = buf.Get<float>();
    AscendC::LocalTensor<float> b = a[BLOCK_LENGTH];
    AscendC::DataCopy(a, xGm, BLOCK_LENGTH);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(b, a, 3.0f, BLOCK_LENGTH);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zGm, b, BLOCK_LENGTH);
}

#ifndef __CCE_KT_TEST__
void scale_custom_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* z)
{
    scale_custom<<<blockDim, l2ctrl, stream>>>(x, z);
}
#endif
