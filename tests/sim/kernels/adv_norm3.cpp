// Test kernels for RmsNorm, WelfordUpdate and WelfordFinalize (tests/sim/test_adv_norm3.py).
// rmsnorm: m rows of h columns of DTYPE_X (the first `valid` are the row's data), gamma of h; the tiling filled
// in-kernel for the whole input in one round; mode 0 with a shared buffer, 1 from the stack, 2 a buffer one float too
// small (reported), 3 h - 1 columns (not 32-byte aligned: reported).
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;

extern "C" __global__ __aicore__ void rmsnorm(GM_ADDR src, GM_ADDR gamma, GM_ADDR dst, int32_t mode, int32_t m,
                                              int32_t h, int32_t valid, float eps)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, gb, yb, tb;
    const uint32_t n = m * h;
    pipe.InitBuffer(xb, n * sizeof(T));
    pipe.InitBuffer(gb, h * sizeof(T));
    pipe.InitBuffer(yb, n * sizeof(T));
    const uint32_t alignBs = (m + 7) / 8 * 8;
    const uint32_t work = alignBs + n * (sizeof(T) == 2 ? 2 : 1);
    pipe.InitBuffer(tb, work * 4);
    LocalTensor<T> x = xb.Get<T>(), g = gb.Get<T>(), y = yb.Get<T>();
    GlobalTensor<T> xg, gg, yg;
    xg.SetGlobalBuffer((__gm__ T*)src, n);
    gg.SetGlobalBuffer((__gm__ T*)gamma, h);
    yg.SetGlobalBuffer((__gm__ T*)dst, n);
    DataCopy(x, xg, n);
    DataCopy(g, gg, h);
    PipeBarrier<PIPE_ALL>();
    RmsNormTiling t;
    t.bLength = 1;
    t.sLength = m;
    t.hLength = mode == 3 ? h - 1 : h;
    t.originalHLength = valid;
    t.reciprocalOfHLength = 1.0f / valid;
    t.mainBshLength = n;
    t.mainBsLength = m;
    t.mainBsLengthAlign = alignBs;
    t.loopRound = 1;
    if (mode == 0) {
        RmsNorm<T>(y, x, g, tb.Get<uint8_t>(), static_cast<T>(eps), t);
    } else if (mode == 1) {
        RmsNorm<T>(y, x, g, static_cast<T>(eps), t);
    } else if (mode == 2) {
        LocalTensor<uint8_t> small = tb.Get<uint8_t>(work * 4 - 32);
        RmsNorm<T>(y, x, g, small, static_cast<T>(eps), t);  // EXPECT SIM-UB-SIZE
    } else {
        RmsNorm<T>(y, x, g, tb.Get<uint8_t>(), static_cast<T>(eps), t);  // EXPECT SIM-RMSNORM-SHAPE
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, y, n);
}

// welford: ab elements; mode 0 WelfordUpdate (not in place) over `cnt` of them, 1 in place, 2 with no shared buffer,
// 3 rnLength 2 (reported). Then WelfordFinalize of the updated mean/var over ab with counts (all `count`), written to
// fm / fv (element 0 of each 8).
extern "C" __global__ __aicore__ void welford(GM_ADDR x, GM_ADDR mean, GM_ADDR var, GM_ADDR om, GM_ADDR ov,
                                              GM_ADDR fm, GM_ADDR fv, int32_t mode, int32_t ab, int32_t cnt,
                                              float nrec, int32_t count, float rrec)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, mb, vb, omb, ovb, tb, cb, fmb, fvb;
    pipe.InitBuffer(xb, ab * 4);
    pipe.InitBuffer(mb, ab * 4);
    pipe.InitBuffer(vb, ab * 4);
    pipe.InitBuffer(omb, ab * 4);
    pipe.InitBuffer(ovb, ab * 4);
    pipe.InitBuffer(tb, 512);
    pipe.InitBuffer(cb, ab * 4);
    pipe.InitBuffer(fmb, 32);
    pipe.InitBuffer(fvb, 32);
    LocalTensor<float> xl = xb.Get<float>(), ml = mb.Get<float>(), vl = vb.Get<float>();
    LocalTensor<float> oml = omb.Get<float>(), ovl = ovb.Get<float>(), fml = fmb.Get<float>(), fvl = fvb.Get<float>();
    LocalTensor<int32_t> counts = cb.Get<int32_t>();
    GlobalTensor<float> xg, mg, vg, omg, ovg, fmg, fvg;
    xg.SetGlobalBuffer((__gm__ float*)x, ab);
    mg.SetGlobalBuffer((__gm__ float*)mean, ab);
    vg.SetGlobalBuffer((__gm__ float*)var, ab);
    omg.SetGlobalBuffer((__gm__ float*)om, ab);
    ovg.SetGlobalBuffer((__gm__ float*)ov, ab);
    fmg.SetGlobalBuffer((__gm__ float*)fm, 8);
    fvg.SetGlobalBuffer((__gm__ float*)fv, 8);
    DataCopy(xl, xg, ab);
    DataCopy(ml, mg, ab);
    DataCopy(vl, vg, ab);
    DataCopy(oml, omg, ab);
    DataCopy(ovl, ovg, ab);
    PipeBarrier<PIPE_ALL>();
    static constexpr WelfordUpdateConfig INPLACE = {true};
    WelfordUpdateParam para = {1, static_cast<uint32_t>(ab), static_cast<uint32_t>(cnt), nrec};
    if (mode == 0) {
        WelfordUpdate<float, float, false>(oml, ovl, ml, vl, xl, tb.Get<uint8_t>(), para);
    } else if (mode == 1) {
        WelfordUpdate<float, float, false, INPLACE>(oml, ovl, ml, vl, xl, tb.Get<uint8_t>(), para);
    } else if (mode == 2) {
        WelfordUpdate<float, float, false>(oml, ovl, ml, vl, xl, para);
    } else {
        para.rnLength = 2;
        WelfordUpdate<float, float, false>(oml, ovl, ml, vl, xl, tb.Get<uint8_t>(), para);  // EXPECT SIM-WELFORD-PARA
    }
    Duplicate(counts, count, ab);
    Duplicate(fml, 0.0f, 8);
    Duplicate(fvl, 0.0f, 8);
    PipeBarrier<PIPE_ALL>();
    WelfordFinalizePara fp = {1, static_cast<uint32_t>(ab), 0, 0, 0, 0, 1.0f / ab, rrec};
    WelfordFinalize<false>(fml, fvl, oml, ovl, counts, tb.Get<uint8_t>(), fp);
    PipeBarrier<PIPE_ALL>();
    DataCopy(omg, oml, ab);
    DataCopy(ovg, ovl, ab);
    DataCopy(fmg, fml, 8);
    DataCopy(fvg, fvl, 8);
}

// normalize: a rows of rp (r valid) floats, mean / var of a, gamma / beta of rp; mode 0 full, 1 without beta
// (config), 2 rp not 32-byte aligned (reported).
extern "C" __global__ __aicore__ void normalize(GM_ADDR x, GM_ADDR mean, GM_ADDR var, GM_ADDR gamma, GM_ADDR beta,
                                                GM_ADDR y, GM_ADDR rstd, int32_t mode, int32_t a, int32_t r,
                                                int32_t rp, float eps)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, mb, vb, gb, bb, yb, rb;
    pipe.InitBuffer(xb, a * rp * 4);
    pipe.InitBuffer(mb, 64);
    pipe.InitBuffer(vb, 64);
    pipe.InitBuffer(gb, rp * 4);
    pipe.InitBuffer(bb, rp * 4);
    pipe.InitBuffer(yb, a * rp * 4);
    pipe.InitBuffer(rb, 64);
    LocalTensor<float> xl = xb.Get<float>(), ml = mb.Get<float>(), vl = vb.Get<float>(), gl = gb.Get<float>();
    LocalTensor<float> bl = bb.Get<float>(), yl = yb.Get<float>(), rl = rb.Get<float>();
    GlobalTensor<float> xg, mg, vg, gg, bg, yg, rg;
    xg.SetGlobalBuffer((__gm__ float*)x, a * rp);
    mg.SetGlobalBuffer((__gm__ float*)mean, 16);
    vg.SetGlobalBuffer((__gm__ float*)var, 16);
    gg.SetGlobalBuffer((__gm__ float*)gamma, rp);
    bg.SetGlobalBuffer((__gm__ float*)beta, rp);
    yg.SetGlobalBuffer((__gm__ float*)y, a * rp);
    rg.SetGlobalBuffer((__gm__ float*)rstd, 16);
    DataCopy(xl, xg, a * rp);
    DataCopy(ml, mg, 16);
    DataCopy(vl, vg, 16);
    DataCopy(gl, gg, rp);
    DataCopy(bl, bg, rp);
    DataCopy(yl, xg, a * rp);
    PipeBarrier<PIPE_ALL>();
    static constexpr NormalizeConfig NOBETA = {ReducePattern::AR, -1, true, false, false};
    NormalizePara para = {static_cast<uint32_t>(a), static_cast<uint32_t>(r), static_cast<uint32_t>(rp)};
    if (mode == 0) {
        Normalize<float, float>(yl, rl, ml, vl, xl, gl, bl, eps, para);
    } else if (mode == 1) {
        Normalize<float, float, false, NOBETA>(yl, rl, ml, vl, xl, gl, bl, eps, para);
    } else {
        para.rLengthWithPadding = rp - 1;
        Normalize<float, float>(yl, rl, ml, vl, xl, gl, bl, eps, para);  // EXPECT SIM-NORMALIZE-SHAPE
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, a * rp);
    DataCopy(rg, rl, 16);
}

// deepnorm: rows x h floats (x, gx), gamma / beta of h; the tiling words from the host GetDeepNormTilingInfo; mode 0
// with a shared buffer of tmp bytes, 1 from the stack, 2 an empty tiling (reported).
extern "C" __global__ __aicore__ void deepnorm(GM_ADDR x, GM_ADDR gx, GM_ADDR gamma, GM_ADDR beta, GM_ADDR tilingGm,
                                               GM_ADDR y, GM_ADDR mean, GM_ADDR var, int32_t mode, int32_t rows,
                                               int32_t h, float alpha, float eps, int32_t tmp)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, gxb, gb, bb, yb, mb, vb, tb;
    const uint32_t n = rows * h;
    pipe.InitBuffer(xb, n * 4);
    pipe.InitBuffer(gxb, n * 4);
    pipe.InitBuffer(gb, h * 4);
    pipe.InitBuffer(bb, h * 4);
    pipe.InitBuffer(yb, n * 4);
    pipe.InitBuffer(mb, 64);
    pipe.InitBuffer(vb, 64);
    pipe.InitBuffer(tb, tmp);
    LocalTensor<float> xl = xb.Get<float>(), gxl = gxb.Get<float>(), gl = gb.Get<float>(), bl = bb.Get<float>();
    LocalTensor<float> yl = yb.Get<float>(), ml = mb.Get<float>(), vl = vb.Get<float>();
    GlobalTensor<float> xg, gxg, gg, bg, yg, mg, vg;
    xg.SetGlobalBuffer((__gm__ float*)x, n);
    gxg.SetGlobalBuffer((__gm__ float*)gx, n);
    gg.SetGlobalBuffer((__gm__ float*)gamma, h);
    bg.SetGlobalBuffer((__gm__ float*)beta, h);
    yg.SetGlobalBuffer((__gm__ float*)y, n);
    mg.SetGlobalBuffer((__gm__ float*)mean, 16);
    vg.SetGlobalBuffer((__gm__ float*)var, 16);
    DataCopy(xl, xg, n);
    DataCopy(gxl, gxg, n);
    DataCopy(gl, gg, h);
    DataCopy(bl, bg, h);
    PipeBarrier<PIPE_ALL>();
    DeepNormTiling t;
    uint32_t* words = reinterpret_cast<uint32_t*>(&t);
    for (uint32_t i = 0; i < sizeof(DeepNormTiling) / 4; ++i) words[i] = reinterpret_cast<__gm__ uint32_t*>(tilingGm)[i];
    if (mode == 0) {
        DeepNorm<float>(yl, ml, vl, xl, gxl, bl, gl, tb.Get<uint8_t>(), alpha, eps, t);
    } else if (mode == 1) {
        DeepNorm<float>(yl, ml, vl, xl, gxl, bl, gl, alpha, eps, t);
    } else {
        t.oneTmpSize = 0;
        DeepNorm<float>(yl, ml, vl, xl, gxl, bl, gl, alpha, eps, t);  // EXPECT SIM-DEEPNORM-TILING
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, n);
    DataCopy(mg, ml, 16);
    DataCopy(vg, vl, 16);
}
