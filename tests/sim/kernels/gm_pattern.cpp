// Test kernel for the cost model's GM side (tests/sim/test_cost_gm.py): each block reads its rows of the ND half
// matrix x [GetBlockNum() * rows, cols] (every block all of them with SHARED) in tiles of tileRows x tileCols with
// DataCopyPad, `passes` times over; flags: 1 bypasses the L2 (SetL2CacheHint), 2 every block reads the same rows,
// 4 block b starts at its own row tile (staggered order). y gets the first 16 elements of each block's last tile.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void gm_pattern(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols,
                                                 uint32_t tileRows, uint32_t tileCols, uint32_t passes, uint32_t flags)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, (tileRows * tileCols * sizeof(half) + 31) / 32 * 32 + 32);
    LocalTensor<half> t = buf.Get<half>();
    GlobalTensor<half> xGm, yGm;
    const uint32_t first = (flags & 2) ? 0 : GetBlockIdx() * rows;
    const uint32_t allRows = (flags & 2) ? GetBlockNum() * rows : rows;
    xGm.SetGlobalBuffer((__gm__ half*)x, uint64_t(GetBlockNum()) * rows * cols);
    yGm.SetGlobalBuffer((__gm__ half*)y, GetBlockNum() * 16);
    if (flags & 1) xGm.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);
    const uint32_t rowTiles = allRows / tileRows, colTiles = cols / tileCols;
    DataCopyExtParams p{static_cast<uint16_t>(tileRows), static_cast<uint32_t>(tileCols * sizeof(half)),
                        static_cast<uint32_t>((cols - tileCols) * sizeof(half)), 0, 0};
    DataCopyPadExtParams<half> pad{false, 0, 0, 0};
    for (uint32_t pass = 0; pass < passes; ++pass) {
        for (uint32_t i = 0; i < rowTiles; ++i) {
            uint32_t r = (flags & 4) ? (i + GetBlockIdx()) % rowTiles : i;
            for (uint32_t j = 0; j < colTiles; ++j) {
                DataCopyPad(t, xGm[uint64_t(first + r * tileRows) * cols + j * tileCols], p, pad);
            }
        }
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm[GetBlockIdx() * 16], t, 16);
}
