// y = x * scale on the first min(total, limit) elements of x, zero after them; one block, tiles of tileLength.
// The count it scaled goes to the first int of the user workspace.
#include "kernel_operator.h"
#include "clamp_scale_tiling_data.h"
#include "../op_kernel/arch22/blk_helper.h"

extern "C" __global__ __aicore__ void clamp_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<DTYPE_X> xGm;
    AscendC::GlobalTensor<DTYPE_Y> yGm;  // a type the UT does not define: the op definition gives it
    xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x, t.total);
    yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y, t.total);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.tileLength * sizeof(DTYPE_X));
    AscendC::LocalTensor<DTYPE_X> tile = buf.Get<DTYPE_X>();
    int used = min(static_cast<int>(t.total), static_cast<int>(t.limit));  // the UT's own scalar min
    AscendC::GlobalTensor<int32_t> ws;  // the count used, in the user workspace
    ws.SetGlobalBuffer((__gm__ int32_t*)AscendC::GetUserWorkspace(workspace), 8);
    ws.SetValue(0, used);
    for (uint32_t off = 0; off < t.total; off += t.tileLength) {
        AscendC::DataCopy(tile, xGm[off], t.tileLength);
        AscendC::PipeBarrier<PIPE_ALL>();
        ScaleTile<DTYPE_X>(tile, tile, off < static_cast<uint32_t>(used) ? t.scale : 0.0f, t.tileLength);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(yGm[off], tile, t.tileLength);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}
