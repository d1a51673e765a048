// AKG174: a double-buffer index of the previous iteration on the first iteration.
//
// A pipelined loop copies tile i into one UB buffer while the vector unit works on tile i - 1 in the other. The
// loop starts at 0 and nothing keeps the first iteration from the "previous tile" work: (i - 1) % 2 is the other
// buffer, which no copy has filled (the vector unit reads garbage), and the wait on the previous tile's event id
// waits for a set that never came. Guard the previous-tile work with `if (i > 0)` and finish the last tile after
// the loop.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t TILE_LENGTH = 1024;                      // halves: 2 KiB per buffer

class KernelAbsPipelined {
public:
    __aicore__ inline KernelAbsPipelined() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, int32_t tiles)
    {
        tileNum = tiles;
        xGm.SetGlobalBuffer((__gm__ half*)x, TILE_LENGTH * tiles);
        yGm.SetGlobalBuffer((__gm__ half*)y, TILE_LENGTH * tiles);
        pipe.InitBuffer(ping, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(pong, TILE_LENGTH * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<half> bufs[2] = {ping.Get<half>(), pong.Get<half>()};
        for (uint32_t i = 0; i < tileNum; i++) {
            DataCopy(bufs[i % 2], xGm[i * TILE_LENGTH], TILE_LENGTH);
            SetFlag<HardEvent::MTE2_V>(i % 2);
            WaitFlag<HardEvent::MTE2_V>((i - 1) % 2);  // expect: AKG174
            Abs(bufs[(i - 1) % 2], bufs[(i - 1) % 2], TILE_LENGTH);  // expect: AKG174
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            DataCopy(yGm[(i - 1) * TILE_LENGTH], bufs[(i - 1) % 2], TILE_LENGTH);  // expect: AKG174
            SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
            WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> ping;
    TBuf<TPosition::VECCALC> pong;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    uint32_t tileNum = 0;
};

extern "C" __global__ __aicore__ void abs_pipelined(GM_ADDR x, GM_ADDR y, int32_t tiles)
{
    KernelAbsPipelined op;
    op.Init(x, y, tiles);
    op.Process();
}
