// z = alpha * x + y on float tensors whose length divides by nothing useful: big and small cores, and a tail.
//
// TOTAL_LENGTH = 100003 floats is not a multiple of the core count, of the tile length, nor even of the 8 floats in
// one 32-byte block. The work is split in whole 32-byte blocks: every core takes `blockCount / coreNum` blocks, the
// first `blockCount % coreNum` cores ("big cores") take one block more, and the last core also takes the 3 floats
// left after the last whole block. Core boundaries therefore fall on 32-byte boundaries of GM and no two cores
// write the same 32-byte sector.
//
// Inside a core, whole tiles of TILE_LENGTH floats move with DataCopy; the last, shorter tile moves with
// DataCopyPad, which takes its length in bytes and needs no 32-byte multiple. The split uses GetBlockNum(), so the
// kernel is correct for any launch size.
//
// UB use per core: 3 queues x 2 buffers x 8 KiB = 48 KiB.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 100003;                    // elements of x, y and z
constexpr float ALPHA = 0.5f;                                // the scale of x
constexpr uint32_t ALIGN_NUM = 32 / sizeof(float);           // floats in one 32-byte block
constexpr uint32_t TILE_LENGTH = 2048;                       // floats per whole tile: 8 KiB
constexpr int32_t BUFFER_NUM = 2;                            // two buffers per queue: double buffering

class KernelScaledAdd {
public:
    __aicore__ inline KernelScaledAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z)
    {
        const uint32_t coreNum = static_cast<uint32_t>(GetBlockNum());
        const uint32_t coreIdx = static_cast<uint32_t>(GetBlockIdx());
        const uint32_t blockCount = TOTAL_LENGTH / ALIGN_NUM;   // whole 32-byte blocks in the tensor
        const uint32_t restLength = TOTAL_LENGTH % ALIGN_NUM;   // elements after the last whole block
        const uint32_t smallBlocks = blockCount / coreNum;      // blocks of a small core
        const uint32_t bigCoreNum = blockCount % coreNum;       // cores that take one block more

        uint32_t myBlocks = smallBlocks;
        uint32_t startBlock = coreIdx * smallBlocks + bigCoreNum;
        if (coreIdx < bigCoreNum) {
            myBlocks = smallBlocks + 1;
            startBlock = coreIdx * (smallBlocks + 1);
        }
        coreLength = myBlocks * ALIGN_NUM;
        if (coreIdx == coreNum - 1) {
            coreLength += restLength;
        }
        const uint32_t coreOffset = startBlock * ALIGN_NUM;

        xGm.SetGlobalBuffer((__gm__ float *)x + coreOffset, coreLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + coreOffset, coreLength);
        zGm.SetGlobalBuffer((__gm__ float *)z + coreOffset, coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tileNum = coreLength / TILE_LENGTH;
        const uint32_t tailLength = coreLength % TILE_LENGTH;
        for (uint32_t i = 0; i < tileNum; i++) {
            CopyIn(i * TILE_LENGTH, TILE_LENGTH);
            Compute(TILE_LENGTH);
            CopyOut(i * TILE_LENGTH, TILE_LENGTH);
        }
        if (tailLength > 0) {
            CopyIn(tileNum * TILE_LENGTH, tailLength);
            Compute(tailLength);
            CopyOut(tileNum * TILE_LENGTH, tailLength);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t length)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        if (length == TILE_LENGTH) {
            DataCopy(xLocal, xGm[offset], TILE_LENGTH);
            DataCopy(yLocal, yGm[offset], TILE_LENGTH);
        } else {
            // One block of `length` floats; the UB side is padded up to 32 bytes and the padding is never read.
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
            DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
            DataCopyPad(yLocal, yGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute(uint32_t length)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        Muls(xLocal, xLocal, ALPHA, length);
        PipeBarrier<PIPE_V>();
        Add(zLocal, xLocal, yLocal, length);
        outQueueZ.EnQue<float>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t length)
    {
        LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        if (length == TILE_LENGTH) {
            DataCopy(zGm[offset], zLocal, TILE_LENGTH);
        } else {
            // Writes exactly `length` floats: the elements after the tail in GM are left alone.
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(float)), 0, 0, 0};
            DataCopyPad(zGm[offset], zLocal, copyParams);
        }
        outQueueZ.FreeTensor(zLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueX;
    TQue<TPosition::VECIN, 1> inQueueY;
    TQue<TPosition::VECOUT, 1> outQueueZ;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    GlobalTensor<float> zGm;
    uint32_t coreLength = 0;
};

extern "C" __global__ __aicore__ void scaled_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelScaledAdd op;
    op.Init(x, y, z);
    op.Process();
}
