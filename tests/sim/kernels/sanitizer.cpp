// The compute-sanitizer-style checks (tests/sim/test_sanitizer.py): `mode` picks the case; 2 blocks of 256 floats,
// x the input, z the output, w a workspace of 512 floats. Mode 5 leaves the last 128 floats of z unwritten, mode 8
// too but writes the very last one through a raw pointer.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t N = 256;

extern "C" __global__ __aicore__ void sanitizer(GM_ADDR x, GM_ADDR z, GM_ADDR w, int32_t mode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    pipe.InitBuffer(ba, N * sizeof(float));
    pipe.InitBuffer(bb, N * sizeof(float));
    LocalTensor<float> a = ba.Get<float>();
    LocalTensor<float> b = bb.Get<float>();
    const int64_t blk = GetBlockIdx();
    GlobalTensor<float> gx, gz, gw, gzAll;
    gx.SetGlobalBuffer((__gm__ float*)x + N * blk, N);
    gz.SetGlobalBuffer((__gm__ float*)z + N * blk, N);
    gzAll.SetGlobalBuffer((__gm__ float*)z, 2 * N);
    gw.SetGlobalBuffer((__gm__ float*)w, 2 * N);
    DataCopy(a, gx, N);
    PipeBarrier<PIPE_ALL>();
    Adds(a, a, 1.0f, N);  // in place: reads what DataCopy wrote
    if (mode == 1) {
        Add(a, a, b, N);  // EXPECT SIM-INIT-UB
    }
    if (mode == 2) {
        DataCopy(b, gw[N * blk], N);  // EXPECT SIM-INIT-GM
    }
    if (mode == 7) {  // the workspace written first: no initcheck finding
        DataCopy(gw[N * blk], a, N);
        PipeBarrier<PIPE_ALL>();
        DataCopy(b, gw[N * blk], N);
    }
    PipeBarrier<PIPE_ALL>();
    if (mode == 3 || mode == 4) {
        if (mode == 4 && blk == 1) SyncAll();
        DataCopy(gzAll, a, N);  // EXPECT SIM-GM-OVERLAP
        if (mode == 4 && blk == 0) SyncAll();
        if (blk == 1) DataCopy(gzAll[N], a, N);
    } else if (mode == 5 || mode == 8) {
        DataCopy(gz, a, blk == 1 ? N / 2 : N);  // EXPECT SIM-GM-UNWRITTEN
        // mode 8: the last element written through a raw pointer (invisible to the API checks)
        if (mode == 8 && blk == 1) *((__gm__ float*)z + 2 * N - 1) = 1.1f;  // no zero byte in it
    } else {
        DataCopy(gz, a, N);
    }
    if (mode == 6) {
        SetFlag<HardEvent::MTE3_V>(EVENT_ID1);  // EXPECT SIM-SYNC-UNPAIRED
    }
}
