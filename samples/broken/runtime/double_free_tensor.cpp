// Runtime-only mistake: the same tensor given back to its queue twice.
//
// Compute frees xLocal as soon as the Cast has read it, and a copied-and-pasted line at the end frees it again.
// The second FreeTensor returns a buffer the queue already holds as free: the next two AllocTensor calls hand out
// the same memory, and two tiles overwrite each other. CANN's CPU mode and the npu check tool report a double free.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BLOCK_LENGTH = 16384;
constexpr int32_t TILE_LENGTH = 2048;                      // halves in, floats out
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;

class KernelHalfToFloat {
public:
    __aicore__ inline KernelHalfToFloat() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
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
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        Cast(yLocal, xLocal, RoundMode::CAST_NONE, TILE_LENGTH);
        inQueueX.FreeTensor(xLocal);
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);  // expect-run: SIM-QUE-DOUBLE-FREE
    }

    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        DataCopy(yGm[progress * TILE_LENGTH], yLocal, TILE_LENGTH);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    GlobalTensor<half> xGm;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void half_to_float(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelHalfToFloat op;
    op.Init(x, y);
    op.Process();
}
