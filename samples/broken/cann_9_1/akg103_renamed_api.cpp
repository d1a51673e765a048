// AKG103: an API name that the configured CANN version has renamed.
//
// This folder's akgen.toml targets CANN 9.1, which renamed WholeReduceSum/Max/Min to ReduceRepeat<ReduceType::...>
// (same arguments); the old name survives only as a deprecated wrapper ("WholeReduceSum has been updated, please
// use ReduceRepeat instead"). The kernel sums each row of 64 floats with one repeat per row: right for CANN 8.x,
// out of date for 9.1, where the call reads AscendC::ReduceRepeat<AscendC::ReduceType::SUM, float>(...).
//
#include "kernel_operator.h"

constexpr int32_t COLS = 64;                               // one 256-byte repeat per row
constexpr int32_t ROWS_PER_CORE = 1024;
constexpr int32_t TILE_ROWS = 64;                          // 64 rows = 16 KiB in, 64 sums = 256 B out
constexpr int32_t TILE_NUM = ROWS_PER_CORE / TILE_ROWS;
constexpr int32_t BUFFER_NUM = 2;

class KernelRowSum {
public:
    __aicore__ inline KernelRowSum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x + ROWS_PER_CORE * COLS * AscendC::GetBlockIdx(), ROWS_PER_CORE * COLS);
        yGm.SetGlobalBuffer((__gm__ float *)y + ROWS_PER_CORE * AscendC::GetBlockIdx(), ROWS_PER_CORE);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_ROWS * COLS * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_ROWS * sizeof(float));
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
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm[progress * TILE_ROWS * COLS], TILE_ROWS * COLS);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        // mask 64: the whole repeat; one repeat per row; results 1 float apart; rows 8 blocks (256 B) apart.
        AscendC::WholeReduceSum<float>(yLocal, xLocal, COLS, TILE_ROWS, 1, 1, 8);  // expect: AKG103
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(int32_t progress)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopy(yGm[progress * TILE_ROWS], yLocal, TILE_ROWS);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueueY;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void row_sum64(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelRowSum op;
    op.Init(x, y);
    op.Process();
}
