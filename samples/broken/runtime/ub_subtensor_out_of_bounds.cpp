// Runtime-only mistake: a vector operation that reads and writes past the end of its UB tensors.
//
// z[i] = x[i] + x[i + HALF_TILE] folds each tile of x in half. The count should be HALF_TILE; TILE_LENGTH reads
// x[HALF_TILE .. HALF_TILE + TILE_LENGTH), half a tile past the end of xLocal, and writes a whole tile into zLocal,
// which holds half of one. Nothing here is wrong to a static checker (every name, argument count and size is
// fine); CANN's CPU mode stops with "tensor size needs to be at least ... bytes" and the NPU with AICore error
// 507015 or silently wrong numbers. The simulator reports SIM-UB-SIZE at the marked line: a warning in its default
// npu check mode (the NPU checks no operand sizes; every byte touched here is still inside UB, so the kernel goes on
// and z comes out wrong), an error that stops the block with sim.checks = "cpu-debug". The bytes read past xLocal
// were never written either: the simulator's initcheck says so too (SIM-INIT-UB).
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BLOCK_LENGTH = 32768;
constexpr int32_t TILE_LENGTH = 4096;                      // floats of x per tile: 16 KiB
constexpr int32_t HALF_TILE = TILE_LENGTH / 2;             // floats of z per tile: 8 KiB
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;

class KernelFold {
public:
    __aicore__ inline KernelFold() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        zGm.SetGlobalBuffer((__gm__ float *)z + BLOCK_LENGTH / 2 * GetBlockIdx(), BLOCK_LENGTH / 2);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, HALF_TILE * sizeof(float));
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
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        Add(zLocal, xLocal, xLocal[HALF_TILE], TILE_LENGTH);  // expect-run: SIM-UB-SIZE, SIM-INIT-UB
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        DataCopy(zGm[progress * HALF_TILE], zLocal, HALF_TILE);
        outQueueZ.FreeTensor(zLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueZ;
    GlobalTensor<float> xGm;
    GlobalTensor<float> zGm;
};

extern "C" __global__ __aicore__ void fold_add(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelFold op;
    op.Init(x, z);
    op.Process();
}
