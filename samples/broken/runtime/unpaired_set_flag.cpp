// A SetFlag without its WaitFlag: the run finds it, and so does the static synchronisation audit (AKG170).
//
// This kernel manages its own synchronisation over TBufs instead of queues: MTE2 copies a tile in, the vector unit
// takes its absolute value, MTE3 copies it out. The WaitFlag that should follow the MTE2 -> V SetFlag was lost, so
// Abs may read the tile before the copy lands, and the next tile sets the same event again while it is still set:
// two sets without a wait, which can hang the core. Every call is valid on its own: the run sees the pairing, and
// AKG170 sees a set in a loop that never waits on it.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BLOCK_LENGTH = 16384;
constexpr int32_t TILE_LENGTH = 4096;                      // halves: 8 KiB
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;

class KernelAbsManualSync {
public:
    __aicore__ inline KernelAbsManualSync() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(xBuf, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(yBuf, TILE_LENGTH * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<half> xLocal = xBuf.Get<half>();
        LocalTensor<half> yLocal = yBuf.Get<half>();
        const event_t mte2ToV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        const event_t vToMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        const event_t mte3ToV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_V));
        const event_t vToMte2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
        for (int32_t i = 0; i < TILE_NUM; i++) {
            if (i > 0) {
                WaitFlag<HardEvent::V_MTE2>(vToMte2);  // Abs of the previous tile has finished reading xLocal
            }
            DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
            SetFlag<HardEvent::MTE2_V>(mte2ToV);  // expect: AKG170 // expect-run: SIM-SYNC-DOUBLE-SET, SIM-SYNC-UNPAIRED
            if (i > 0) {
                WaitFlag<HardEvent::MTE3_V>(mte3ToV);  // the previous tile has left yLocal
            }
            Abs(yLocal, xLocal, TILE_LENGTH);
            SetFlag<HardEvent::V_MTE2>(vToMte2);
            SetFlag<HardEvent::V_MTE3>(vToMte3);
            WaitFlag<HardEvent::V_MTE3>(vToMte3);
            DataCopy(yGm[i * TILE_LENGTH], yLocal, TILE_LENGTH);
            SetFlag<HardEvent::MTE3_V>(mte3ToV);
        }
        WaitFlag<HardEvent::V_MTE2>(vToMte2);
        WaitFlag<HardEvent::MTE3_V>(mte3ToV);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf;
    TBuf<TPosition::VECCALC> yBuf;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
};

extern "C" __global__ __aicore__ void abs_manual_sync(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelAbsManualSync op;
    op.Init(x, y);
    op.Process();
}
