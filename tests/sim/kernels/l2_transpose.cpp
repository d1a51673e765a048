// Test kernel for tests/sim/test_l2_transpose.py: TransDataTo5HD on N elements of DTYPE_X.
// mode 0: 16 contiguous source blocks -> 16 contiguous destination blocks (uint64_t
// address lists); 1: NCHW -> NC1HWC0 style, sources `hw` elements apart, `rep` repeats (srcRepStride 1,
// dstRepStride 16), through the LocalTensor-array form; 2: in place (dst == src), one repeat, TransDataTo5HDImpl.
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;
constexpr int32_t N = 4096;

extern "C" __global__ __aicore__ void l2_transpose(GM_ADDR x, GM_ADDR z, int32_t mode, int32_t hw, int32_t rep)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufS, bufD;
    pipe.InitBuffer(bufS, N * sizeof(T));
    pipe.InitBuffer(bufD, N * sizeof(T));
    LocalTensor<T> s = bufS.Get<T>(), d = bufD.Get<T>();
    GlobalTensor<T> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, N);
    zGm.SetGlobalBuffer((__gm__ T*)z, N);
    DataCopy(s, xGm, N);
    Duplicate(d, T(0), N);
    PipeBarrier<PIPE_ALL>();
    constexpr int32_t blk = 32 / sizeof(T);
    if (mode == 0) {
        uint64_t dl[16], sl[16];
        for (int i = 0; i < 16; ++i) {
            dl[i] = d[blk * i].GetPhyAddr();
            sl[i] = s[blk * i].GetPhyAddr();
        }
        TransDataTo5HD<T>(dl, sl, TransDataTo5HDParams(false, false, 1, 0, 0));
    } else if (mode == 1) {
        LocalTensor<T> dl[16], sl[16];
        for (int i = 0; i < 16; ++i) {
            dl[i] = d[blk * i];
            sl[i] = s[hw * i];
        }
        TransDataTo5HDParams p;
        p.repeatTimes = static_cast<uint8_t>(rep);
        p.srcRepStride = 1;
        p.dstRepStride = 16;
        TransDataTo5HD<T>(dl, sl, p);
    } else if (mode == 2) {
        DataCopy(d, s, N);
        PipeBarrier<PIPE_V>();
        T* dl[16];
        T* sl[16];
        for (int i = 0; i < 16; ++i) {
            dl[i] = (T*)d[blk * i].GetPhyAddr();
            sl[i] = (T*)d[blk * i].GetPhyAddr();
        }
        TransDataTo5HDImpl(dl, sl, TransDataTo5HDParams(false, false, 1, 0, 0));
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, d, N);
}
