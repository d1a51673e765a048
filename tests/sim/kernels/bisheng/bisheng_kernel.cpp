// bisheng syntax: `[aicore]` attribute lists, `[host, aicore]`, and an explicit specialization of a member function
// template written inside its class (core-type dispatch as in catlass kernels).
#include "kernel_operator.h"
#include "tile_copy.h"

struct Kernel {
    template <int32_t CORE_TYPE = g_coreType>
    __forceinline__ [aicore] void operator()(GM_ADDR x, GM_ADDR y, uint32_t n);

    template <>
    __forceinline__ [aicore]
    void operator()<AscendC::AIV>(GM_ADDR x, GM_ADDR y, uint32_t n) {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * n * sizeof(float));
        AscendC::LocalTensor<float> a = buf.Get<float>();
        AscendC::LocalTensor<float> b = a[n];
        AscendC::GlobalTensor<float> gx, gy;
        gx.SetGlobalBuffer((__gm__ float*)x, n);
        gy.SetGlobalBuffer((__gm__ float*)y, n);
        AscendC::DataCopy(a, gx, n);
        AscendC::PipeBarrier<PIPE_ALL>();
        scale_copy(b, a, n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(gy, b, n);
    }

    template <>
    __forceinline__ [aicore]
    void operator()<AscendC::AIC>(GM_ADDR x, GM_ADDR y, uint32_t n) {}
};

[host, aicore] inline uint32_t twice(uint32_t v) { return 2 * v; }

extern "C" __global__ __aicore__ void bisheng_kernel(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    Kernel k;
    k(x, y, twice(n) / 2);
}
