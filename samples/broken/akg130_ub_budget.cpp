// AKG130: the buffers of one TPipe add up to more than the Unified Buffer.
//
// SiLU, y = x / (1 + exp(-x)), on half data computed in float. The author raised TILE_LENGTH to 10240 for fewer,
// longer copies: x and y take 2 x 20 KiB each, and the three float temporaries 3 x 40 KiB, 200 KiB in all, more
// than the 192 KiB of UB on an Ascend 910B. The last InitBuffer is the one that does not fit.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BLOCK_LENGTH = 81920;
constexpr int32_t TILE_LENGTH = 10240;                     // halves per tile
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;

class KernelSilu {
public:
    __aicore__ inline KernelSilu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(tmpBuf, 3 * TILE_LENGTH * sizeof(float));  // expect: AKG130
    }

    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < TILE_NUM; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> xFloat = tmp;
        LocalTensor<float> denom = tmp[TILE_LENGTH];
        LocalTensor<float> result = tmp[2 * TILE_LENGTH];
        Cast(xFloat, xLocal, RoundMode::CAST_NONE, TILE_LENGTH);
        PipeBarrier<PIPE_V>();
        Muls(denom, xFloat, -1.0f, TILE_LENGTH);
        PipeBarrier<PIPE_V>();
        Exp(denom, denom, TILE_LENGTH);
        PipeBarrier<PIPE_V>();
        Adds(denom, denom, 1.0f, TILE_LENGTH);
        PipeBarrier<PIPE_V>();
        Div(result, xFloat, denom, TILE_LENGTH);
        PipeBarrier<PIPE_V>();
        Cast(yLocal, result, RoundMode::CAST_RINT, TILE_LENGTH);
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        DataCopy(yGm[progress * TILE_LENGTH], yLocal, TILE_LENGTH);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
};

extern "C" __global__ __aicore__ void silu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelSilu op;
    op.Init(x, y);
    op.Process();
}
