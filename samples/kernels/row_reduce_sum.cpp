// y[r] = sum over c of x[r, c]: a row reduction with ReduceSum and its shared temporary buffer.
//
// x is float [ROWS, COLS] = [3072, 1024], y is float [3072]. The launch uses 48 vector cores; each owns 64 rows and
// reads them 8 rows (32 KiB) at a time. The 8 sums of a tile fill exactly one 32-byte block of y, so both copies
// are whole 32-byte blocks.
//
// ReduceSum(dst, src, sharedTmpBuffer, count) writes the sum of `count` elements into dst[0]. Its destination needs
// only sizeof(float) alignment, not 32 bytes (Ascend C API docs, ReduceSum constraints and ReduceRepeat table 3:
// SUM on float, 4-byte aligned; CANN's CPU-mode check tests the destination against sizeof(T) and only the source
// against 32 bytes), so the sum of row r is written straight into yLocal[r]. The source (x rows at multiples of
// 4 KiB) and the temporary buffer are 32-byte aligned as required. The temporary buffer holds the
// first-round partial sums: one per 256-byte repeat, rounded up to whole 32-byte blocks.
//
// UB use per core: x 2 x 32 KiB + y 2 x 32 B + work 64 B = 64.1 KiB.
#include "kernel_operator.h"

constexpr int32_t ROWS = 3072;
constexpr int32_t COLS = 1024;
constexpr int32_t USE_CORE_NUM = 48;
constexpr int32_t ROWS_PER_CORE = ROWS / USE_CORE_NUM;                        // 64 rows per core
constexpr int32_t TILE_ROWS = 8;                                               // rows per tile: 8 sums = 32 B
constexpr int32_t TILE_NUM = ROWS_PER_CORE / TILE_ROWS;                        // 8 tiles per core
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t ELEMS_PER_REPEAT = 256 / sizeof(float);                     // 64 floats per vector repeat
constexpr int32_t ELEMS_PER_BLOCK = 32 / sizeof(float);                       // 8 floats per 32-byte block
constexpr int32_t FIRST_ROUND = (COLS + ELEMS_PER_REPEAT - 1) / ELEMS_PER_REPEAT;  // 16 partial sums per row
constexpr int32_t WORK_LENGTH =
    (FIRST_ROUND + ELEMS_PER_BLOCK - 1) / ELEMS_PER_BLOCK * ELEMS_PER_BLOCK;  // 16 floats = 64 B

class KernelRowReduceSum {
public:
    __aicore__ inline KernelRowReduceSum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        const int64_t firstRow = static_cast<int64_t>(ROWS_PER_CORE) * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + firstRow * COLS, ROWS_PER_CORE * COLS);
        yGm.SetGlobalBuffer((__gm__ float *)y + firstRow, ROWS_PER_CORE);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_ROWS * COLS * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_ROWS * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_LENGTH * sizeof(float));
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
        AscendC::LocalTensor<float> workLocal = workBuf.Get<float>();
        for (int32_t r = 0; r < TILE_ROWS; r++) {
            AscendC::ReduceSum<float>(yLocal[r], xLocal[r * COLS], workLocal, COLS);
        }
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
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void row_reduce_sum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelRowReduceSum op;
    op.Init(x, y);
    op.Process();
}
