// Kernel code of the NPU path (GroupNormSwish keeps its DataCopyPad/Cast under `#ifndef __CCE_KT_TEST__`, a macro
// only CANN's CPU-debug build defines) and a host launch wrapper under the same guard (AddLayerNormGrad), which the
// sim compiles as a plain call. mode 1: Sigmoid with dst overlapping the second half of src (MulSigmoidMulAddCustom's
// GetWithOffset(n, n) with a byte offset), a SIM-OVERLAP warning.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void l2_fixes(GM_ADDR x, GM_ADDR y, int32_t n, int32_t mode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * n * sizeof(half));
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, n);
    yGm.SetGlobalBuffer((__gm__ half*)y, n);
    LocalTensor<half> a = buf.Get<half>(n);
    LocalTensor<half> b = buf.GetWithOffset<half>(n, mode == 1 ? n : 2 * n * sizeof(half));
    DataCopy(a, xGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Sigmoid(b, a, n);  // EXPECT SIM-OVERLAP
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
#ifndef __CCE_KT_TEST__
    DataCopy(yGm, b, n);
#endif
}

#ifndef __CCE_KT_TEST__
void l2_fixes_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* y, int32_t n, int32_t mode)
{
    l2_fixes<<<blockDim, l2ctrl, stream>>>(x, y, n, mode);
}
#endif
