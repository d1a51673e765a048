// Test kernel for split launches (tests/sim/test_split_launch.py): cube and cross-core calls make the build compile it
// once per core type. Per AI Core b: the AIC computes C = I x S (the 16x16 half square `sq`, through
// LoadDataWithTranspose and Mmad), writes it to its workspace slice and signals both AIV (mode 2, flag 0); each AIV
// waits, adds 1000 * GetBlockIdx() + GetSubBlockIdx() to its 8 rows and writes them to y, then signals the AIC (mode 2,
// flag 1: the AIC goes on once both AIV have); the AIC then writes z[b] = 7. With `broken`, the AIV wait for flag 3,
// which nobody sets.
#include "kernel_operator.h"

using namespace AscendC;

template <int32_t CORE_TYPE = g_coreType>
struct Part {
    static void Run(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, int32_t) {}
};

template <>
struct Part<AscendC::AIC> {
    static void Run(GM_ADDR sq, GM_ADDR eye, GM_ADDR ws, GM_ADDR, GM_ADDR z, int32_t)
    {
        TPipe pipe;
        TBuf<TPosition::A1> bufL1;
        TBuf<TPosition::B1> bufEye;
        TBuf<TPosition::A2> bufA2;
        TBuf<TPosition::B2> bufB2;
        TBuf<TPosition::CO1> bufC;
        pipe.InitBuffer(bufL1, 512);
        pipe.InitBuffer(bufEye, 512);
        pipe.InitBuffer(bufA2, 512);
        pipe.InitBuffer(bufB2, 512);
        pipe.InitBuffer(bufC, 1024);
        LocalTensor<half> l1 = bufL1.Get<half>(), e1 = bufEye.Get<half>(), a2 = bufA2.Get<half>(), b2 = bufB2.Get<half>();
        LocalTensor<float> c1 = bufC.Get<float>();
        GlobalTensor<half> sqGm, eyeGm;
        GlobalTensor<float> wsGm;
        GlobalTensor<int32_t> zGm;
        sqGm.SetGlobalBuffer((__gm__ half*)sq, 256);
        eyeGm.SetGlobalBuffer((__gm__ half*)eye, 256);
        wsGm.SetGlobalBuffer((__gm__ float*)ws + GetBlockIdx() * 256, 256);
        zGm.SetGlobalBuffer((__gm__ int32_t*)z, 8 * GetBlockNum());
        DataCopy(l1, sqGm, 256);
        DataCopy(e1, eyeGm, 256);
        PipeBarrier<PIPE_ALL>();
        LoadData(a2, e1, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
        LoadDataWithTranspose(b2, l1, LoadData2dTransposeParams(0, 1, 0, 0, 0));
        PipeBarrier<PIPE_ALL>();
        Mmad(c1, a2, b2, MmadParams(16, 16, 16, 0, false, true));
        PipeBarrier<PIPE_ALL>();
        Fixpipe<float, float, CFG_ROW_MAJOR>(wsGm, c1, FixpipeParamsV220(16, 16, 16, 16, false));
        CrossCoreSetFlag<2, PIPE_FIX>(0);
        CrossCoreWaitFlag(1);
        zGm.SetValue(GetBlockIdx() * 8, 7);
    }
};

template <>
struct Part<AscendC::AIV> {
    static void Run(GM_ADDR, GM_ADDR, GM_ADDR ws, GM_ADDR y, GM_ADDR, int32_t broken)
    {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 512);
        LocalTensor<float> t = buf.Get<float>();
        const int64_t core = GetBlockIdx() / GetSubBlockNum();
        GlobalTensor<float> wsGm, yGm;
        wsGm.SetGlobalBuffer((__gm__ float*)ws + core * 256 + GetSubBlockIdx() * 128, 128);
        yGm.SetGlobalBuffer((__gm__ float*)y + core * 256 + GetSubBlockIdx() * 128, 128);
        if (broken) {
            CrossCoreWaitFlag(3);  // EXPECT SIM-CROSSCORE-DEADLOCK
        }
        CrossCoreWaitFlag(0);
        DataCopy(t, wsGm, 128);
        PipeBarrier<PIPE_ALL>();
        Adds(t, t, static_cast<float>(1000 * GetBlockIdx() + GetSubBlockIdx()), 128);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, t, 128);
        CrossCoreSetFlag<2, PIPE_MTE3>(1);
    }
};

extern "C" __global__ __aicore__ void split_launch(GM_ADDR sq, GM_ADDR eye, GM_ADDR ws, GM_ADDR y, GM_ADDR z,
                                                    int32_t broken)
{
    Part<>::Run(sq, eye, ws, y, z, broken);
}
