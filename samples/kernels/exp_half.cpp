// y = exp(x) on half tensors, computed in float: Cast up, Exp, Cast back with an explicit rounding mode.
//
// Exp evaluated in half adds its own error to the rounding of the result; evaluated in float, its error is far below
// half's precision and the one rounding that matters is the final Cast, as in a float reference followed by
// .half(). Half to float is exact, so that Cast takes CAST_NONE; float to half loses precision, so that Cast
// names its rounding: CAST_RINT, round to nearest with ties to even, as PyTorch rounds.
//
// x and y have shape [48, 8192] (393216 halves); the launch uses 48 vector cores, 8192 elements each, moved in
// 8 tiles of 1024 halves (2 KiB). The float scratch lives in a TBuf: it needs no queue because only the vector
// unit touches it.
//
// UB use per core: x 2 x 2 KiB + y 2 x 2 KiB + scratch 4 KiB = 12 KiB.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 48 * 8192;
constexpr uint32_t USE_CORE_NUM = 48;
constexpr uint32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;  // 8192 halves per core
constexpr uint32_t TILE_LENGTH = 1024;                          // halves per tile: 2 KiB
constexpr uint32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;       // 8 tiles per core
constexpr int32_t BUFFER_NUM = 2;

class KernelExpHalf {
public:
    __aicore__ inline KernelExpHalf() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(floatBuf, TILE_LENGTH * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < TILE_NUM; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        LocalTensor<float> xFloat = floatBuf.Get<float>();
        Cast(xFloat, xLocal, RoundMode::CAST_NONE, TILE_LENGTH);
        PipeBarrier<PIPE_V>();
        Exp(xFloat, xFloat, TILE_LENGTH);
        PipeBarrier<PIPE_V>();
        Cast(yLocal, xFloat, RoundMode::CAST_RINT, TILE_LENGTH);
        outQueueY.EnQue<half>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress)
    {
        LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        DataCopy(yGm[progress * TILE_LENGTH], yLocal, TILE_LENGTH);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    TBuf<TPosition::VECCALC> floatBuf;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
};

extern "C" __global__ __aicore__ void exp_half(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelExpHalf op;
    op.Init(x, y);
    op.Process();
}
