// Test kernel for the runtime checks: the scalar `mode` picks one mistake. Each mistake's line carries a marker
// comment `EXPECT <code>` that the tests look up, so findings must point exactly there.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 256;  // floats: 1 KiB

extern "C" __global__ __aicore__ void checks(GM_ADDR x, GM_ADDR z, int32_t mode)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, TILE);
    zGm.SetGlobalBuffer((__gm__ float*)z, TILE);
    if (mode == 1) {
        pipe.InitBuffer(inQ, 2, 100 * 1024);  // EXPECT SIM-UB-LIMIT
        return;
    }
    if (mode == 16) {
        // nine VECIN buffers alive at once: the hardware tracks at most 8 per position
        TQue<QuePosition::VECIN, 1> qs[9];
        for (int i = 0; i < 9; ++i) {
            pipe.InitBuffer(qs[i], 1, 20);  // rounded up to 32 B
            LocalTensor<float> t = qs[i].AllocTensor<float>();  // EXPECT SIM-QUE-LIVE
            if (t.GetSize() != 8) return;  // 20 B -> 32 B = 8 floats
        }
        return;
    }
    pipe.InitBuffer(inQ, 1, TILE * sizeof(float));
    pipe.InitBuffer(outQ, 1, TILE * sizeof(float));
    if (mode == 2) {
        LocalTensor<float> t = inQ.DeQue<float>();  // EXPECT SIM-QUE-EMPTY
        inQ.FreeTensor(t);
        return;
    }
    if (mode == 3) {
        LocalTensor<float> a = inQ.AllocTensor<float>();
        LocalTensor<float> b = inQ.AllocTensor<float>();  // EXPECT SIM-QUE-ALLOC
        inQ.FreeTensor(a);
        inQ.FreeTensor(b);
        return;
    }
    if (mode == 4) {
        LocalTensor<float> a = inQ.AllocTensor<float>();
        inQ.FreeTensor(a);
        inQ.FreeTensor(a);  // EXPECT SIM-QUE-DOUBLE-FREE
        return;
    }
    if (mode == 5) {
        LocalTensor<float> a = inQ.AllocTensor<float>();  // EXPECT SIM-QUE-LEAK
        DataCopy(a, xGm, TILE);
        return;
    }
    LocalTensor<float> a = inQ.AllocTensor<float>();
    LocalTensor<float> c = outQ.AllocTensor<float>();
    if (mode == 6) {
        DataCopy(a, xGm, 100);  // EXPECT SIM-DC-ROUNDDOWN
    } else if (mode == 7) {
        DataCopy(a, xGm[TILE * 4], TILE);  // EXPECT SIM-GM-OOB-READ
    } else if (mode == 8) {
        DataCopy(a, xGm, TILE);
        Add(c[3], a, a, 16);  // EXPECT SIM-UB-ALIGN
    } else if (mode == 9) {
        DataCopy(a, xGm, TILE);
        Add(c, a, a, 64, 256, BinaryRepeatParams(1, 1, 1, 8, 8, 8));  // EXPECT SIM-REPEAT
    } else if (mode == 10) {
        WaitFlag<HardEvent::MTE2_V>(0);  // EXPECT SIM-SYNC-WAIT-UNSET
    } else if (mode == 11) {
        DataCopy(a, xGm, TILE);
        Adds(a, a, 1.0f, TILE);
        // Every block writes the whole of z: overlapping GM writes across blocks.
        DataCopy(zGm, a, TILE);  // EXPECT SIM-GM-OVERLAP
    } else if (mode == 12) {
        DataCopy(a, xGm, TILE);
        Add(c, a, a, TILE + 8);  // EXPECT SIM-UB-SIZE
    } else if (mode == 13) {
        SetFlag<HardEvent::MTE2_V>(1);  // EXPECT SIM-SYNC-UNPAIRED
    } else if (mode == 14) {
        DataCopy(a, xGm, TILE);
        Add(c, a, a, 65, 1, BinaryRepeatParams());  // EXPECT SIM-MASK
    } else if (mode == 15) {
        inQ.FreeTensor(a);
        Add(c, a, a, TILE);  // EXPECT SIM-TENSOR-FREED
        outQ.FreeTensor(c);
        return;
    } else {
        // mode 0: correct: z = x + 1 for block 0 only.
        DataCopy(a, xGm, TILE);
        Adds(c, a, 1.0f, TILE);
        if (GetBlockIdx() == 0) DataCopy(zGm, c, TILE);
    }
    inQ.FreeTensor(a);
    outQ.FreeTensor(c);
}
