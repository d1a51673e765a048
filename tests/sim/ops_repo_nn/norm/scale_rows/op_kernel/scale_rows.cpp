// y = x * alpha on the first rowsToScale rows, a copy of x on the others; one block, one row a step.
#include "kernel_operator.h"
#include "scale_rows_tiling_data.h"

extern "C" __global__ __aicore__ void scale_rows(GM_ADDR x, GM_ADDR rows, GM_ADDR y, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<DTYPE_X> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x, t.rows * t.cols);
    yGm.SetGlobalBuffer((__gm__ DTYPE_X*)y, t.rows * t.cols);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.cols * sizeof(DTYPE_X));
    AscendC::LocalTensor<DTYPE_X> row = buf.Get<DTYPE_X>();
    for (uint32_t r = 0; r < t.rows; ++r) {
        AscendC::DataCopy(row, xGm[r * t.cols], t.cols);
        AscendC::PipeBarrier<PIPE_ALL>();
        if (r < t.rowsToScale) {
            AscendC::Muls(row, row, static_cast<DTYPE_X>(t.alpha), t.cols);
            AscendC::PipeBarrier<PIPE_ALL>();
        }
        AscendC::DataCopy(yGm[r * t.cols], row, t.cols);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}
