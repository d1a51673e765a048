// Test kernel for tests/sim/test_l2_gather.py. x: N elements of DTYPE_X, off: N uint32 byte offsets, pat: 64 uint32
// words of pattern bits; z gets N elements of dst, cnt[0] the GatherMask count. mode 0: Gather count form (count = n);
// 1: Gather mask form (mask = n, repeat = rep, dstRepStride = 8); 2: GatherMask with the tensor pattern, normal mode
// (repeatTimes = rep, src1RepeatStride = stride); 3: GatherMask counter mode (mask = n, 1 repeat); 4: built-in pattern
// `n` (normal mode, rep repeats); 5: Gather with dst == src (warns); 6: Gather with an offset past UB (checked).
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;
using U = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
constexpr int32_t N = 2048;

extern "C" __global__ __aicore__ void l2_gather(GM_ADDR x, GM_ADDR off, GM_ADDR pat, GM_ADDR z, GM_ADDR cnt,
                                                int32_t mode, int32_t n, int32_t rep, int32_t stride)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufS, bufD, bufO, bufP, bufC;
    pipe.InitBuffer(bufS, N * sizeof(T));
    pipe.InitBuffer(bufD, N * sizeof(T));
    pipe.InitBuffer(bufO, N * sizeof(uint32_t));
    pipe.InitBuffer(bufP, 64 * sizeof(uint32_t));
    pipe.InitBuffer(bufC, 8 * sizeof(int32_t));
    LocalTensor<T> s = bufS.Get<T>(), d = bufD.Get<T>();
    LocalTensor<uint32_t> o = bufO.Get<uint32_t>(), p = bufP.Get<uint32_t>();
    LocalTensor<int32_t> c = bufC.Get<int32_t>();
    GlobalTensor<T> xGm, zGm;
    GlobalTensor<uint32_t> offGm, patGm;
    GlobalTensor<int32_t> cntGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, N);
    zGm.SetGlobalBuffer((__gm__ T*)z, N);
    offGm.SetGlobalBuffer((__gm__ uint32_t*)off, N);
    patGm.SetGlobalBuffer((__gm__ uint32_t*)pat, 64);
    cntGm.SetGlobalBuffer((__gm__ int32_t*)cnt, 8);
    DataCopy(s, xGm, N);
    DataCopy(o, offGm, N);
    DataCopy(p, patGm, 64);
    Duplicate(d, T(0), N);
    Duplicate(c, 0, 8);
    PipeBarrier<PIPE_ALL>();
    uint64_t rsvd = 0;
    if (mode == 0) {
        Gather(d, s, o, 0, static_cast<uint32_t>(n));
    } else if (mode == 1) {
        Gather(d, s, o, 0, static_cast<uint64_t>(n), static_cast<uint8_t>(rep), 8);
    } else if (mode == 2) {
        GatherMask(d, s, p.ReinterpretCast<U>(), false, 0,
                   {1, static_cast<uint16_t>(rep), 8, static_cast<uint8_t>(stride)}, rsvd);
    } else if (mode == 3) {
        GatherMask(d, s, p.ReinterpretCast<U>(), true, static_cast<uint32_t>(n), {1, 1, 8, 0}, rsvd);
    } else if (mode == 4) {
        GatherMask(d, s, static_cast<uint8_t>(n), false, 0, {1, static_cast<uint16_t>(rep), 8, 0}, rsvd);
    } else if (mode == 5) {
        DataCopy(d, s, N);
        PipeBarrier<PIPE_V>();
        Gather(d, d, o, 0, static_cast<uint32_t>(n));  // EXPECT SIM-GATHER-SAME
    } else if (mode == 6) {
        Gather(d, s, o, 200000, static_cast<uint32_t>(n));  // EXPECT SIM-UB-OOB
    }
    c.SetValue(0, static_cast<int32_t>(rsvd));
    c.SetValue(1, static_cast<int32_t>(GetGatherMaskRemainCount()));
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, d, N);
    DataCopy(cntGm, c, 8);
}
