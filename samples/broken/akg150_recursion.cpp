// AKG150: recursion in device code.
//
// The tile length is chosen as the largest power of two not above a cap, with a recursive helper. AI Core code
// may not recurse (the compiler needs every call stack bounded); a loop, or a constexpr computation, does the same.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t BLOCK_LENGTH = 24576;
constexpr uint32_t MAX_TILE_LENGTH = 6000;                 // floats: the cap, not itself a power of two
constexpr int32_t BUFFER_NUM = 2;

__aicore__ inline uint32_t FloorPow2(uint32_t n)
{
    return n < 2 ? n : 2 * FloorPow2(n / 2);  // expect: AKG150
}

class KernelSquare {
public:
    __aicore__ inline KernelSquare() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        tileLength = FloorPow2(MAX_TILE_LENGTH);  // 4096 floats: 16 KiB, divides BLOCK_LENGTH
        xGm.SetGlobalBuffer((__gm__ float *)x + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tileNum = BLOCK_LENGTH / tileLength;
        for (uint32_t i = 0; i < tileNum; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[progress * tileLength], tileLength);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        Mul(yLocal, xLocal, xLocal, tileLength);
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress)
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        DataCopy(yGm[progress * tileLength], yLocal, tileLength);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void square_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelSquare op;
    op.Init(x, y);
    op.Process();
}
