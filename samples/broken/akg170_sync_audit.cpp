// AKG170-AKG173: hand-written synchronisation over TBufs with four mistakes the static audit sees.
//
// MTE2 copies a tile into UB, the vector unit takes its absolute value, MTE3 copies it out, with SetFlag/WaitFlag
// pairs instead of queues. An empty tile returns between a set and its wait (the wait never comes: the next kernel
// on the core inherits a set event), the flag that should guard the vector read is written backwards (V -> MTE2,
// where the vector unit waits on MTE2's copy: MTE2_V), one event id is past the eight the hardware has, and the
// last copy out sets a flag that nothing waits for.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t TILE_LENGTH = 2048;                      // halves: 4 KiB

class KernelAbsSync {
public:
    __aicore__ inline KernelAbsSync() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, int32_t length)
    {
        len = length;
        xGm.SetGlobalBuffer((__gm__ half *)x, TILE_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y, TILE_LENGTH);
        pipe.InitBuffer(xBuf, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(yBuf, TILE_LENGTH * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<half> xLocal = xBuf.Get<half>();
        LocalTensor<half> yLocal = yBuf.Get<half>();
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID1);  // expect: AKG171
        if (len == 0) {
            return;
        }
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID1);
        DataCopy(xLocal, xGm, TILE_LENGTH);
        SetFlag<HardEvent::V_MTE2>(EVENT_ID0);  // expect: AKG172
        WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
        Abs(yLocal, xLocal, TILE_LENGTH);
        SetFlag<HardEvent::V_MTE3>(8);  // expect: AKG173
        WaitFlag<HardEvent::V_MTE3>(8);  // expect: AKG173
        DataCopy(yGm, yLocal, TILE_LENGTH);
        SetFlag<HardEvent::MTE3_S>(EVENT_ID2);  // expect: AKG170
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf;
    TBuf<TPosition::VECCALC> yBuf;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    int32_t len = 0;
};

extern "C" __global__ __aicore__ void abs_sync(GM_ADDR x, GM_ADDR y, int32_t length)
{
    KernelAbsSync op;
    op.Init(x, y, length);
    op.Process();
}
