// Test kernel for akgen_sim/vec_transpose_gatherb.h (tests/sim/test_adv_ops.py): x holds n halves, off 16 uint32 byte offsets,
// y n halves. mode 0: Transpose 16 x 16; 1: Transpose NCHW -> NHWC of [2, 3, 4, 8]; 2: NHWC -> NCHW of the same;
// 3: Gatherb of x as uint16_t, 2 repeats, dstBlkStride 2, dstRepStride 16; 4: Gatherb with offset 16 (rejected).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void adv_ops_basic(GM_ADDR x, GM_ADDR off, GM_ADDR y, int32_t mode, int32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bo, by, btmp;
    pipe.InitBuffer(bx, n * sizeof(half));
    pipe.InitBuffer(bo, 16 * sizeof(uint32_t));
    pipe.InitBuffer(by, n * sizeof(half));
    pipe.InitBuffer(btmp, 4096);
    LocalTensor<half> lx = bx.Get<half>(), ly = by.Get<half>();
    LocalTensor<uint32_t> lo = bo.Get<uint32_t>();
    GlobalTensor<half> xGm, yGm;
    GlobalTensor<uint32_t> oGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, n);
    oGm.SetGlobalBuffer((__gm__ uint32_t*)off, 16);
    yGm.SetGlobalBuffer((__gm__ half*)y, n);
    DataCopy(lx, xGm, n);
    DataCopy(lo, oGm, 16);
    Duplicate(ly, static_cast<half>(0), n);
    PipeBarrier<PIPE_ALL>();
    if (mode == 0) Transpose<half>(ly, lx);
    TransposeParamsExt p{2, 3, 4, 8, mode == 1 ? TransposeType::TRANSPOSE_NCHW2NHWC : TransposeType::TRANSPOSE_NHWC2NCHW};
    if (mode == 1 || mode == 2) Transpose(ly, lx, btmp.Get<uint8_t>(), p);
    GatherRepeatParams gp{2, 16};
    LocalTensor<uint16_t> ux = lx.ReinterpretCast<uint16_t>(), uy = ly.ReinterpretCast<uint16_t>();
    if (mode == 3) Gatherb<uint16_t>(uy, ux, lo, 2, gp);
    if (mode == 4) {
        lo.SetValue(3, 16);
        Gatherb<uint16_t>(uy, ux, lo, 2, gp);  // EXPECT SIM-GATHERB-OFFSET
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, ly, n);
}
