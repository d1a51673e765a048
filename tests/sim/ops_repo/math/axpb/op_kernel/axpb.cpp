// y = a * x + b on float tensors: each block takes blockLength elements in tiles of tileLength.
#include "kernel_operator.h"
#include "axpb_tiling_data.h"
#include "axpb_common.h"

class KernelAxpb {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AxpbTilingData& t)
    {
        tiling = t;
        xGm.SetGlobalBuffer((__gm__ float*)x + t.blockLength * AscendC::GetBlockIdx(), t.blockLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + t.blockLength * AscendC::GetBlockIdx(), t.blockLength);
        pipe.InitBuffer(inQueue, 2, t.tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, 2, t.tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        uint32_t tiles = tiling.blockLength / tiling.tileLength;
        for (uint32_t i = 0; i < tiles; ++i) {
            AscendC::LocalTensor<float> xl = inQueue.AllocTensor<float>();
            AscendC::DataCopy(xl, xGm[i * tiling.tileLength], tiling.tileLength);
            inQueue.EnQue(xl);
            AscendC::LocalTensor<float> xin = inQueue.DeQue<float>();
            AscendC::LocalTensor<float> yl = outQueue.AllocTensor<float>();
            AxpbCompute(yl, xin, tiling.a, tiling.b, tiling.tileLength);
            outQueue.EnQue(yl);
            inQueue.FreeTensor(xin);
            AscendC::LocalTensor<float> yout = outQueue.DeQue<float>();
            AscendC::DataCopy(yGm[i * tiling.tileLength], yout, tiling.tileLength);
            outQueue.FreeTensor(yout);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQueue;
    AscendC::GlobalTensor<float> xGm, yGm;
    AxpbTilingData tiling;
};

extern "C" __global__ __aicore__ void axpb(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    AxpbTilingData t = *reinterpret_cast<__gm__ AxpbTilingData*>(tiling);
    KernelAxpb op;
    op.Init(x, y, t);
    op.Process();
}
