// AKG160: `bfloat16` is not an Ascend C type.
//
// The 16-bit brain float of Ascend C is `bfloat16_t` (and the IEEE half is `half`, also spelled `float16_t`).
// The kernel is generic over T and right for bfloat16_t; only its instantiation misspells the type.
#include "kernel_operator.h"

constexpr int32_t BLOCK_LENGTH = 16384;
constexpr int32_t TILE_LENGTH = 2048;                      // elements per tile
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;
constexpr float SCALE = 1.5f;

// y = x * SCALE, computed in float: bfloat16_t has no vector multiply of its own on Atlas A2.
template <typename T>
class KernelScale {
public:
    __aicore__ inline KernelScale() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ T *)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ T *)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(T));
        pipe.InitBuffer(floatBuf, TILE_LENGTH * sizeof(float));
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
        AscendC::LocalTensor<T> xLocal = inQueueX.template AllocTensor<T>();
        AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.template DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.template AllocTensor<T>();
        AscendC::LocalTensor<float> work = floatBuf.Get<float>();
        AscendC::Cast(work, xLocal, AscendC::RoundMode::CAST_NONE, TILE_LENGTH);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(work, work, SCALE, TILE_LENGTH);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Cast(yLocal, work, AscendC::RoundMode::CAST_RINT, TILE_LENGTH);
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(int32_t progress)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.template DeQue<T>();
        AscendC::DataCopy(yGm[progress * TILE_LENGTH], yLocal, TILE_LENGTH);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> floatBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
};

extern "C" __global__ __aicore__ void scale_bf16(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelScale<bfloat16> op;  // expect: AKG160
    op.Init(x, y);
    op.Process();
}
