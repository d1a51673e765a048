// y = x + x on float tensors: each block takes blockLength elements in tiles of tileLength (from the TilingFunc).
#include "kernel_operator.h"
#include "twice_tiling_data.h"
#include "../inc/twice_util.h"

class KernelTwice {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TwiceTilingData& t)
    {
        tiling = t;
        xGm.SetGlobalBuffer((__gm__ float*)x + t.blockLength * AscendC::GetBlockIdx(), t.blockLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + t.blockLength * AscendC::GetBlockIdx(), t.blockLength);
        pipe.InitBuffer(inQueue, 1, t.tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, 1, t.tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tiling.blockLength / tiling.tileLength; ++i) {
            AscendC::LocalTensor<float> xl = inQueue.AllocTensor<float>();
            AscendC::DataCopy(xl, xGm[i * tiling.tileLength], tiling.tileLength);
            inQueue.EnQue(xl);
            AscendC::LocalTensor<float> xin = inQueue.DeQue<float>();
            AscendC::LocalTensor<float> yl = outQueue.AllocTensor<float>();
            TwiceCompute(yl, xin, tiling.tileLength);
            outQueue.EnQue(yl);
            inQueue.FreeTensor(xin);
            AscendC::LocalTensor<float> yout = outQueue.DeQue<float>();
            AscendC::DataCopy(yGm[i * tiling.tileLength], yout, tiling.tileLength);
            outQueue.FreeTensor(yout);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<float> xGm, yGm;
    TwiceTilingData tiling;
};

extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelTwice op;
    op.Init(x, y, t);
    op.Process();
}
