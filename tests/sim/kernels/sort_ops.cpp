// Sort APIs of both generations: Region Proposals (Ascend310P) and (score, index) pairs (A2/A3).
#include "kernel_operator.h"
using namespace AscendC;

// 64 half scores -> proposals (score, label = index) -> RpSort16 x4 -> MrgSort4 of the four groups -> extract
// score and label (y: 64 sorted scores, lab: their indices as half).
extern "C" __global__ __aicore__ void proposal_sort(GM_ADDR x, GM_ADDR idx, GM_ADDR y, GM_ADDR lab) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, ib, pb, mb, ob;
    pipe.InitBuffer(xb, 64 * sizeof(half));
    pipe.InitBuffer(ib, 64 * sizeof(half));
    pipe.InitBuffer(pb, 64 * 8 * sizeof(half));
    pipe.InitBuffer(mb, 64 * 8 * sizeof(half));
    pipe.InitBuffer(ob, 64 * sizeof(half));
    GlobalTensor<half> xg, ig, yg, lg;
    xg.SetGlobalBuffer((__gm__ half*)x, 64);
    ig.SetGlobalBuffer((__gm__ half*)idx, 64);
    yg.SetGlobalBuffer((__gm__ half*)y, 64);
    lg.SetGlobalBuffer((__gm__ half*)lab, 64);
    LocalTensor<half> xl = xb.Get<half>(), il = ib.Get<half>(), pl = pb.Get<half>(), ml = mb.Get<half>();
    LocalTensor<half> ol = ob.Get<half>();
    DataCopy(xl, xg, 64);
    DataCopy(il, ig, 64);
    pipe_barrier(PIPE_ALL);
    Duplicate(pl, (half)0, 64 * 8);
    ProposalConcat(pl, xl, 4, 4);  // EXPECT SIM-ARCH-API
    ProposalConcat(pl, il, 4, 5);
    RpSort16(pl, pl, 4);
    uint16_t lens[4] = {16, 16, 16, 16};
    MrgSortSrcList<half> list(pl[0], pl[128], pl[256], pl[384]);
    MrgSort4(ml, list, MrgSort4Info(lens, false, 15, 1));
    ProposalExtract(ol, ml, 4, 4);
    pipe_barrier(PIPE_ALL);
    DataCopy(yg, ol, 64);
    pipe_barrier(PIPE_ALL);
    ProposalExtract(ol, ml, 4, 5);
    pipe_barrier(PIPE_ALL);
    DataCopy(lg, ol, 64);
}

// 128 float scores with uint32 indices -> Sort32 x4 -> MrgSort of the four groups -> 128 (score, index) pairs.
extern "C" __global__ __aicore__ void pair_sort(GM_ADDR x, GM_ADDR idx, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, ib, sb, mb;
    pipe.InitBuffer(xb, 128 * sizeof(float));
    pipe.InitBuffer(ib, 128 * sizeof(uint32_t));
    pipe.InitBuffer(sb, 256 * sizeof(float));
    pipe.InitBuffer(mb, 256 * sizeof(float));
    GlobalTensor<float> xg, yg;
    GlobalTensor<uint32_t> ig;
    xg.SetGlobalBuffer((__gm__ float*)x, 128);
    ig.SetGlobalBuffer((__gm__ uint32_t*)idx, 128);
    yg.SetGlobalBuffer((__gm__ float*)y, 256);
    LocalTensor<float> xl = xb.Get<float>(), sl = sb.Get<float>(), ml = mb.Get<float>();
    LocalTensor<uint32_t> il = ib.Get<uint32_t>();
    DataCopy(xl, xg, 128);
    DataCopy(il, ig, 128);
    pipe_barrier(PIPE_ALL);
    Sort32(sl, xl, il, 4);  // EXPECT SORT32-ARCH
    uint16_t lens[4] = {32, 32, 32, 32};
    MrgSortSrcList<float> list(sl[0], sl[64], sl[128], sl[192]);
    MrgSort(ml, list, MrgSort4Info(lens, false, 15, 1));
    pipe_barrier(PIPE_ALL);
    DataCopy(yg, ml, 256);
}

// Merge with ifExhaustedSuspension: three queues of pairs (lengths from `lens`), stop when one runs out; cnt gets
// GetMrgSortResult's four counts, y the merged pairs (64 floats, the rest zero).
extern "C" __global__ __aicore__ void pair_merge_suspend(GM_ADDR x, GM_ADDR y, GM_ADDR cnt, uint32_t l0, uint32_t l1,
                                                        uint32_t l2) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, mb;
    TBuf<TPosition::VECCALC> cb;
    pipe.InitBuffer(xb, 192 * sizeof(float));
    pipe.InitBuffer(mb, 192 * sizeof(float));
    pipe.InitBuffer(cb, 8 * sizeof(int32_t));
    GlobalTensor<float> xg, yg;
    GlobalTensor<int32_t> cg;
    xg.SetGlobalBuffer((__gm__ float*)x, 192);
    yg.SetGlobalBuffer((__gm__ float*)y, 192);
    cg.SetGlobalBuffer((__gm__ int32_t*)cnt, 8);
    LocalTensor<float> xl = xb.Get<float>(), ml = mb.Get<float>();
    LocalTensor<int32_t> cl = cb.Get<int32_t>();
    DataCopy(xl, xg, 192);
    Duplicate(ml, 0.0f, 192);
    pipe_barrier(PIPE_ALL);
    uint16_t lens[4] = {static_cast<uint16_t>(l0), static_cast<uint16_t>(l1), static_cast<uint16_t>(l2), 0};
    MrgSortSrcList<float> list(xl[0], xl[64], xl[128], xl[0]);
    MrgSort(ml, list, MrgSort4Info(lens, true, 7, 1));
    uint16_t a = 0, b = 0, c = 0, d = 0;
    GetMrgSortResult(a, b, c, d);
    pipe_barrier(PIPE_ALL);
    cl.SetValue(0, a);
    cl.SetValue(1, b);
    cl.SetValue(2, c);
    cl.SetValue(3, d);
    pipe_barrier(PIPE_ALL);
    DataCopy(yg, ml, 192);
    DataCopy(cg, cl, 8);
}

// MrgSort with the destination overlapping a source queue: refused.
extern "C" __global__ __aicore__ void pair_merge_overlap(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb;
    pipe.InitBuffer(xb, 256 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, 256);
    yg.SetGlobalBuffer((__gm__ float*)y, 256);
    LocalTensor<float> xl = xb.Get<float>();
    DataCopy(xl, xg, 256);
    pipe_barrier(PIPE_ALL);
    uint16_t lens[4] = {32, 32, 0, 0};
    MrgSortSrcList<float> list(xl[0], xl[64], xl[0], xl[0]);
    MrgSort(xl[64], list, MrgSort4Info(lens, false, 3, 1));  // EXPECT SIM-OVERLAP
    pipe_barrier(PIPE_ALL);
    DataCopy(yg, xl, 256);
}

// Concat + Sort<T, true> + Extract of 128 scores with uint32_t indices, on whichever generation the profile is: the
// group size (32 pairs on A2/A3, 16 proposals on 310P) and GetSortLen size the buffers. y: sorted scores, yi: indices.
template <typename T>
__aicore__ inline void full_sort(GM_ADDR x, GM_ADDR idx, GM_ADDR y, GM_ADDR yi) {
    constexpr uint32_t n = 128;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, ib, cb, sb, tb, vb, ob;
    pipe.InitBuffer(xb, n * sizeof(T));
    pipe.InitBuffer(ib, n * sizeof(uint32_t));
    pipe.InitBuffer(cb, GetSortLen<T>(n) * sizeof(T));
    pipe.InitBuffer(sb, GetSortLen<T>(n) * sizeof(T));
    pipe.InitBuffer(tb, GetSortLen<T>(n) * sizeof(T));
    pipe.InitBuffer(vb, n * sizeof(T));
    pipe.InitBuffer(ob, 2 * n * sizeof(uint32_t));  // half on A2/A3: the index pass writes 2 x
    GlobalTensor<T> xg, yg;
    GlobalTensor<uint32_t> ig, yig;
    xg.SetGlobalBuffer((__gm__ T*)x, n);
    ig.SetGlobalBuffer((__gm__ uint32_t*)idx, n);
    yg.SetGlobalBuffer((__gm__ T*)y, n);
    yig.SetGlobalBuffer((__gm__ uint32_t*)yi, n);
    LocalTensor<T> xl = xb.Get<T>(), cl = cb.Get<T>(), sl = sb.Get<T>(), tl = tb.Get<T>(), vl = vb.Get<T>();
    LocalTensor<uint32_t> il = ib.Get<uint32_t>(), ol = ob.Get<uint32_t>();
    DataCopy(xl, xg, n);
    DataCopy(il, ig, n);
    pipe_barrier(PIPE_ALL);
    const int32_t group = GetSortLen<T>(1) == 8 ? 16 : 32;
    Concat(cl, xl, tl, n / 16);
    Sort<T, true>(sl, cl, il, tl, n / group);
    Extract(vl, ol, sl, n / group);
    pipe_barrier(PIPE_ALL);
    DataCopy(yg, vl, n);
    DataCopy(yig, ol, n);
}

extern "C" __global__ __aicore__ void full_sort_float(GM_ADDR x, GM_ADDR idx, GM_ADDR y, GM_ADDR yi) {
    full_sort<float>(x, idx, y, yi);
}
extern "C" __global__ __aicore__ void full_sort_half(GM_ADDR x, GM_ADDR idx, GM_ADDR y, GM_ADDR yi) {
    full_sort<half>(x, idx, y, yi);
}
