// Test kernel for Scale: one tile per block, tiling key 2 adds one.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const ScaleTilingData* raw = reinterpret_cast<const ScaleTilingData*>(tiling);
    (void)raw;
    GM_ADDR user = GetUserWorkspace(workspace);
    (void)user;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.blockLength * sizeof(float));
    GlobalTensor<DTYPE_X> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + t.blockLength * GetBlockIdx(), t.blockLength);
    yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + t.blockLength * GetBlockIdx(), t.blockLength);
    LocalTensor<float> v = buf.Get<float>();
    DataCopy(v, xGm, t.blockLength);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Muls(v, v, t.alpha, t.blockLength);
    if (TILING_KEY_IS(2)) {
        Adds(v, v, 1.0f, t.blockLength);
    }
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(yGm, v, t.blockLength);
}
