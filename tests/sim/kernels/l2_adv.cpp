// Test kernel for tests/sim/test_l2_adv.py: x (N elements of DTYPE_X) is copied to UB, one API runs, and N elements
// of UB go back to z. mode 0: Sum (rows x inner, first n of each row) -> z[0..rows); 1: Mean; 2: Mean<half, float>
// (DTYPE_X half only); 3: BroadCast<T, 2, 0> in place, row 0 (cols elements) -> rows x cols; 4: BroadCast<T, 2, 1>,
// x[0..rows) -> rows x cols; 5: vcadd mode 0 with a mask of `n` (repeat = rows) -> z[r]; 6: vcadd mode 1 (repeat =
// rows, mask `n`) then get_acc_val -> z[0]; 7: Sum with n > inner (checked); 8/9: adv Exp with Taylor level 15 / 3
// on the first n elements.
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;
constexpr int32_t N = 4096;

extern "C" __global__ __aicore__ void l2_adv(GM_ADDR x, GM_ADDR z, int32_t mode, int32_t rows, int32_t cols, int32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufS, bufD, bufT;
    pipe.InitBuffer(bufS, N * sizeof(T));
    pipe.InitBuffer(bufD, N * sizeof(T));
    pipe.InitBuffer(bufT, 8192);
    LocalTensor<T> s = bufS.Get<T>(), d = bufD.Get<T>();
    LocalTensor<uint8_t> tmp = bufT.Get<uint8_t>();
    GlobalTensor<T> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, N);
    zGm.SetGlobalBuffer((__gm__ T*)z, N);
    DataCopy(s, xGm, N);
    Duplicate(d, T(0), N);
    PipeBarrier<PIPE_ALL>();
    uint32_t r = rows, c = cols, k = n;
    if (mode == 0) {
        Sum(d, s, tmp, SumParams{r, c, k});
    } else if (mode == 1) {
        Mean(d, s, tmp, MeanParams{r, c, k});
    } else if (mode == 2) {
        if constexpr (std::is_same_v<T, half>) Mean<T, float>(d, s, tmp, MeanParams{r, c, k});
    } else if (mode == 3) {
        const uint32_t dstShape[2] = {r, c}, srcShape[2] = {1, c};
        BroadCast<T, 2, 0>(s, s, dstShape, srcShape, tmp);
        PipeBarrier<PIPE_V>();
        DataCopy(d, s, N);
    } else if (mode == 4) {
        const uint32_t dstShape[2] = {r, c}, srcShape[2] = {r, 1};
        BroadCast<T, 2, 1>(d, s, dstShape, srcShape);
    } else if (mode == 5 || mode == 6) {
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half>) {
            AscendCUtils::SetMask<T>(k);
            vcadd((__ubuf__ T*)(mode == 5 ? d.GetPhyAddr() : 0), (__ubuf__ T*)s.GetPhyAddr(), rows, 1, 1, 8, mode == 6);
            ResetMask();
            if (mode == 6) {
                uint64_t acc = get_acc_val();
                T v;
                memcpy(&v, &acc, sizeof(T));
                d.SetValue(0, v);
            }
        }
    } else if (mode == 8) {
        Exp<T, 15, false>(d, s, static_cast<uint32_t>(n));
    } else if (mode == 9) {
        Exp<T, 3>(d, s, tmp, static_cast<uint32_t>(n));
    } else if (mode == 7) {
        Sum(d, s, tmp, SumParams{r, c, c + 8});  // EXPECT SIM-ADV-PARAMS
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, d, N);
}
