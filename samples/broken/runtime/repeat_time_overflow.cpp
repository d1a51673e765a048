// Runtime-only mistake: a repeat count that does not fit in the uint8_t repeatTime parameter.
//
// The mask/repeat form of Muls processes `repeatTime` repeats of 256 bytes (64 floats). A tile of 16384 floats
// needs 256 repeats, but repeatTime is a uint8_t: 256 becomes 0, and a repeat count of 0 is a no-op. y is written
// with whatever its buffer held. The count comes from the launch (GetBlockNum), so only a run knows it is 256;
// the fix is the count form, Muls(yLocal, xLocal, SCALE, tileLength), or a loop of at most 255 repeats.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 48 * 65536;
constexpr uint32_t TILE_NUM = 4;
constexpr uint32_t ELEMS_PER_REPEAT = 256 / sizeof(float);   // 64 floats per repeat
constexpr float SCALE = 2.0f;

class KernelScaleRepeat {
public:
    __aicore__ inline KernelScaleRepeat() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        blockLength = TOTAL_LENGTH / static_cast<uint32_t>(GetBlockNum());
        tileLength = blockLength / TILE_NUM;                   // 16384 floats on 48 cores
        xGm.SetGlobalBuffer((__gm__ float *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueueX, 1, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, 1, tileLength * sizeof(float));
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
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[progress * tileLength], tileLength);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        const uint32_t repeatTime = tileLength / ELEMS_PER_REPEAT;
        Muls(yLocal, xLocal, SCALE, ELEMS_PER_REPEAT, repeatTime, UnaryRepeatParams(1, 1, 8, 8));  // expect-run: SIM-REPEAT
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
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void scale_repeat(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelScaleRepeat op;
    op.Init(x, y);
    op.Process();
}
