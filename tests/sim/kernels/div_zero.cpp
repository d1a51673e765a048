// Test kernel for an integer division by zero in scalar code (tests/sim/test_div_zero.py): the NPU does not trap, so
// the block goes on (quotient and remainder 0 in the simulator) with a warning at the last API call before it.
// div_zero_long makes that last call inside a function whose name runs to thousands of characters (a catlass
// kernel's operator() names every template argument): the warning's record must still be one valid line.
#include "kernel_operator.h"

using namespace AscendC;

template <class T>
__aicore__ inline void copy_in(const LocalTensor<float>& t, const GlobalTensor<float>& g, uint32_t n, T) {
    DataCopy(t, g, n);  // the long-named call: SIM-DIV-ZERO here
}

template <bool LONG_NAME> __aicore__ inline void divide(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t d)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float*)x, n);
    gy.SetGlobalBuffer((__gm__ float*)y, n);
    if constexpr (LONG_NAME) {
        copy_in(t, gx, n, std::make_integer_sequence<int, 700>{});
    } else {
        DataCopy(t, gx, n);  // EXPECT SIM-DIV-ZERO
    }
    volatile uint32_t divisor = d;
    const uint32_t q = n / divisor;
    const int32_t r = static_cast<int32_t>(n) % static_cast<int32_t>(divisor);
    PipeBarrier<PIPE_ALL>();
    Adds(t, t, static_cast<float>(q + static_cast<uint32_t>(r)), n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, n);
}

extern "C" __global__ __aicore__ void div_zero(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t d)
{
    divide<false>(x, y, n, d);
}

extern "C" __global__ __aicore__ void div_zero_long(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t d)
{
    divide<true>(x, y, n, d);
}
