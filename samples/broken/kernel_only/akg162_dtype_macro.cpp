// AKG162 (kernel-only mode): a DTYPE_<NAME> macro where the build does not define it.
//
// A custom-op build defines DTYPE_X, DTYPE_Y, ... from the op definition. In kernel-only mode nothing does, and
// the kernel fails with "unknown type name 'DTYPE_X'"; the case's dtype (float16 here, `half` in Ascend C) must be
// written out. The shape is hard-coded correctly: [48, 8192] on 48 cores.
#include "kernel_operator.h"

constexpr uint32_t BLOCK_LENGTH = 8192;                    // elements per core
constexpr uint32_t TILE_LENGTH = 2048;
constexpr uint32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;
constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelAbs {
public:
    __aicore__ inline KernelAbs() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ T *)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ T *)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(T));
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
        AscendC::LocalTensor<T> xLocal = inQueueX.template AllocTensor<T>();
        AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.template DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.template AllocTensor<T>();
        AscendC::Abs(yLocal, xLocal, TILE_LENGTH);
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.template DeQue<T>();
        AscendC::DataCopy(yGm[progress * TILE_LENGTH], yLocal, TILE_LENGTH);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueueY;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
};

extern "C" __global__ __aicore__ void abs_math(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelAbs<DTYPE_X> op;  // expect: AKG162
    op.Init(x, y);
    op.Process();
}
