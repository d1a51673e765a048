// int4b_t (tests/sim/test_int4.py): the type exists (value conversions sign-extend the low 4 bits), a branch that
// names it builds, and a tensor of it stops the block (SIM-UNSUPPORTED) instead of computing on the wrong bytes.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T> __aicore__ inline void Fill(GlobalTensor<float>& out, LocalTensor<half>& buf)
{
    if constexpr (IsSameType<T, int4b_t>::value) {
        LocalTensor<int4b_t> q = buf.ReinterpretCast<int4b_t>();  // EXPECT SIM-UNSUPPORTED
        (void)q;
    } else {
        constexpr int4b_t a(7), b(9), c(-1);  // 9 wraps to -7
        out.SetValue(0, static_cast<float>(static_cast<int8_t>(a)));
        out.SetValue(1, static_cast<float>(static_cast<int8_t>(b)));
        out.SetValue(2, static_cast<float>(static_cast<int8_t>(c)));
        out.SetValue(3, static_cast<float>(sizeof(int4b_t)));
    }
}

extern "C" __global__ __aicore__ void int4(GM_ADDR y, int32_t mode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, 256);
    LocalTensor<half> buf = tb.Get<half>();
    GlobalTensor<float> out;
    out.SetGlobalBuffer((__gm__ float*)y, 8);
    if (mode == 1) {
        Fill<int4b_t>(out, buf);
    } else {
        Fill<int8_t>(out, buf);
    }
}
