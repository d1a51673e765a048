// Test kernel for LoadData with LoadData3DParamsV2 (tests/sim/test_load3d.py): an NC1HWC0 feature map in L1 expanded
// by im2col into L0A or L0B, then multiplied on the cube with an ND operand loaded the usual way (ND2NZ + LoadData2D),
// so that the result shows what Mmad sees. DTYPE_X is the input type, DTYPE_C the L0C type.
// mode 0: A = the taken block (mExt x kExt) in L0A, C = A x B with B^T (N x kExt) in `other`;
// mode 1: A = its transpose (kExt x mExt, enTranspose), C = A x B with B^T (N x mExt) in `other`;
// mode 2: B = the block (mExt x kExt) in L0B, C = A x B with A (M x mExt) in `other`;
// mode 3: as mode 0 with the feature map and padding from SetFmatrix / SetLoadDataPaddingValue.
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;
using TC = DTYPE_C;

constexpr IsResetLoad3dConfig FROM_REGISTERS = {false, false};

extern "C" __global__ __aicore__ void load3d(GM_ADDR fmap, GM_ADDR other, GM_ADDR c, GM_ADDR geo, int32_t mode,
                                             int32_t M, int32_t N)
{
    constexpr int32_t C0 = 32 / sizeof(T);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)geo, 16);
    // geo: H, W, C1, fh, fw, strideH, strideW, dilH, dilW, padL, padR, padT, padB, kStart, mStart, kExt | mExt << 16
    const int32_t H = g.GetValue(0), W = g.GetValue(1), C1 = g.GetValue(2);
    const int32_t kExt = g.GetValue(15) & 0xFFFF, mExt = g.GetValue(15) >> 16;
    TPipe pipe;
    TBuf<TPosition::A1> bufF;
    TBuf<TPosition::B1> bufO;
    TBuf<TPosition::A2> bufA2;
    TBuf<TPosition::B2> bufB2;
    TBuf<TPosition::CO1> bufC;
    pipe.InitBuffer(bufF, C1 * H * W * C0 * sizeof(T));
    pipe.InitBuffer(bufO, 64 * 1024);
    pipe.InitBuffer(bufA2, 64 * 1024);
    pipe.InitBuffer(bufB2, 64 * 1024);
    pipe.InitBuffer(bufC, 64 * 1024);
    LocalTensor<T> f1 = bufF.Get<T>(), o1 = bufO.Get<T>(), a2 = bufA2.Get<T>(), b2 = bufB2.Get<T>();
    LocalTensor<TC> c1 = bufC.Get<TC>();
    GlobalTensor<T> fGm, oGm;
    GlobalTensor<TC> cGm;
    fGm.SetGlobalBuffer((__gm__ T*)fmap, C1 * H * W * C0);
    const int32_t rows = mode == 2 ? M : N, cols = mode == 1 || mode == 2 ? mExt : kExt;
    oGm.SetGlobalBuffer((__gm__ T*)other, rows * cols);
    const int32_t m = mode == 1 ? kExt : mode == 2 ? M : mExt;
    const int32_t n = mode == 2 ? kExt : N;
    cGm.SetGlobalBuffer((__gm__ TC*)c, m * n);
    DataCopy(f1, fGm, C1 * H * W * C0);

    // the ND operand: rows x cols -> NZ in L1, then zZ (A, per row block) or the zN image of B (one load)
    const int32_t Rb = (rows + 15) / 16, Cb = (cols + C0 - 1) / C0;
    DataCopy(o1, oGm, Nd2NzParams(1, rows, cols, 0, cols, Rb * 16, 1, 0));
    PipeBarrier<PIPE_ALL>();
    if (mode == 2) {
        for (int32_t i = 0; i < Rb; ++i) LoadData(a2[i * Cb * 16 * C0], o1, LoadData2DParams(i, Cb, Rb, 0, 0, false, 0));
    } else {
        LoadData(b2, o1, LoadData2DParams(0, Cb * Rb, 1, 0, 0, false, 0));
    }

    LoadData3DParamsV2<T> p;
    p.l1H = H;
    p.l1W = W;
    p.channelSize = C1 * C0;
    p.filterH = g.GetValue(3);
    p.filterW = g.GetValue(4);
    p.strideH = g.GetValue(5);
    p.strideW = g.GetValue(6);
    p.dilationFilterH = g.GetValue(7);
    p.dilationFilterW = g.GetValue(8);
    for (int i = 0; i < 4; ++i) p.padList[i] = g.GetValue(9 + i);
    p.kStartPt = g.GetValue(13);
    p.mStartPt = g.GetValue(14);
    p.kExtension = kExt;
    p.mExtension = mExt;
    p.padValue = T(3);
    p.enTranspose = mode == 1;
    if (mode == 3) {
        SetFmatrix(H, W, p.padList, FmatrixMode::FMATRIX_LEFT);
        SetLoadDataPaddingValue(T(3));
        p.l1H = 1;  // ignored: the registers decide
        p.l1W = 1;
        p.padValue = T(0);
        LoadData<T, FROM_REGISTERS>(a2, f1, p);
    } else {
        LoadData(mode == 2 ? b2 : a2, f1, p);
    }
    PipeBarrier<PIPE_ALL>();
    MmadParams mp;
    mp.m = m;
    mp.n = n;
    mp.k = mode == 1 || mode == 2 ? mExt : kExt;
    Mmad(c1, a2, b2, mp);
    PipeBarrier<PIPE_ALL>();
    Fixpipe(cGm, c1, FixpipeParamsV220(n, m, (m + 15) / 16 * 16, n, false));
}
