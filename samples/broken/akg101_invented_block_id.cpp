// AKG101: a made-up name for a real function.
//
// The core index is `AscendC::GetBlockIdx()`; `GetBlockId` does not exist ("no member named 'GetBlockId' in
// namespace 'AscendC'"). Everything else in this ReLU kernel is right.
#include "kernel_operator.h"

constexpr int32_t BLOCK_LENGTH = 16384;
constexpr int32_t TILE_LENGTH = 2048;                      // halves: 4 KiB
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;

class KernelRelu {
public:
    __aicore__ inline KernelRelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        const int64_t blockIdx = AscendC::GetBlockId();  // expect: AKG101
        xGm.SetGlobalBuffer((__gm__ half *)x + BLOCK_LENGTH * blockIdx, BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y + BLOCK_LENGTH * blockIdx, BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < TILE_NUM; i++) {
            AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
            AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
            inQueueX.EnQue(xLocal);

            xLocal = inQueueX.DeQue<half>();
            AscendC::LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
            AscendC::Relu(yLocal, xLocal, TILE_LENGTH);
            outQueueY.EnQue(yLocal);
            inQueueX.FreeTensor(xLocal);

            yLocal = outQueueY.DeQue<half>();
            AscendC::DataCopy(yGm[i * TILE_LENGTH], yLocal, TILE_LENGTH);
            outQueueY.FreeTensor(yLocal);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueueY;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> yGm;
};

extern "C" __global__ __aicore__ void relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelRelu op;
    op.Init(x, y);
    op.Process();
}
