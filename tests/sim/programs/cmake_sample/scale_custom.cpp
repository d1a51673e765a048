// z = 3 * x on 8 blocks of 256 floats, with queues (tests/sim/test_toolkit.py). With OOB defined, the last block reads
// past x: a finding at the marked line.
#include "kernel_operator.h"

constexpr int32_t BLOCK_LENGTH = 256;

class KernelScale {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z)
    {
        xGm.SetGlobalBuffer((__gm__ float*)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        zGm.SetGlobalBuffer((__gm__ float*)z + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(inQueue, 1, BLOCK_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueue, 1, BLOCK_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> a = inQueue.AllocTensor<float>();
#ifdef OOB
        if (AscendC::GetBlockIdx() == 7) AscendC::DataCopy(a, xGm[BLOCK_LENGTH], BLOCK_LENGTH);  // EXPECT SIM-GM-OOB-READ
#endif
        AscendC::DataCopy(a, xGm, BLOCK_LENGTH);
        inQueue.EnQue(a);
        AscendC::LocalTensor<float> b = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> c = outQueue.AllocTensor<float>();
        AscendC::Muls(c, b, 3.0f, BLOCK_LENGTH);
        outQueue.EnQue(c);
        inQueue.FreeTensor(b);
        AscendC::LocalTensor<float> d = outQueue.DeQue<float>();
        AscendC::DataCopy(zGm, d, BLOCK_LENGTH);
        outQueue.FreeTensor(d);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<float> xGm, zGm;
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR z)
{
    KernelScale op;
    op.Init(x, z);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void scale_custom_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* z)
{
    scale_custom<<<blockDim, nullptr, stream>>>(x, z);
}
#endif
