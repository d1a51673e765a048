// A bfloat16 copy kernel: fine on A2/A3, refused on a profile without bfloat16 (Ascend310P).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void bf16_copy(GM_ADDR x, GM_ADDR y, uint32_t n) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, n * sizeof(bfloat16_t));
    GlobalTensor<bfloat16_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ bfloat16_t*)x, n);
    yg.SetGlobalBuffer((__gm__ bfloat16_t*)y, n);
    LocalTensor<bfloat16_t> t = q.AllocTensor<bfloat16_t>();  // EXPECT SIM-DTYPE
    DataCopy(t, xg, n);
    q.EnQue(t);
    LocalTensor<bfloat16_t> u = q.DeQue<bfloat16_t>();
    DataCopy(yg, u, n);
    q.FreeTensor(u);
}
