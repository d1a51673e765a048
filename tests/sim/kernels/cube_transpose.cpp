// Test kernel for LoadDataWithTranspose and the converting L1 -> bias table copy (tests/sim/test_cube_transpose.py).
// `sq` holds SQN square matrices in L1's fractal layout (DTYPE_X: 16x16 half, 16x16 float as two 16x8 fractals side
// by side, 32x32 int8_t as two 16x32 fractals stacked). Square `pick` goes through LoadDataWithTranspose into L0B; an
// identity A (`eye`, one zZ image) in L0A; C = I x B out through Fixpipe (ND) must be that square again. With
// `bias` (half, S elements) copied GM -> L1 -> C2 as float, C = bias + I x B.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void cube_transpose(GM_ADDR sq, GM_ADDR eye, GM_ADDR bias, GM_ADDR c, int32_t pick,
                                                      int32_t useBias)
{
    using T = DTYPE_X;
    using TC = DTYPE_C;
    constexpr uint32_t S = sizeof(T) == 1 ? 32 : 16;  // square side
    constexpr uint32_t SQE = S * S;                    // elements per square
    constexpr uint32_t SQN = 3;
    TPipe pipe;
    TBuf<TPosition::A1> bufL1;
    TBuf<TPosition::B1> bufEye;
    TBuf<TPosition::C1> bufBias;
    TBuf<TPosition::C2> bufBt;
    TBuf<TPosition::A2> bufA2;
    TBuf<TPosition::B2> bufB2;
    TBuf<TPosition::CO1> bufC;
    pipe.InitBuffer(bufL1, SQN * SQE * sizeof(T));
    pipe.InitBuffer(bufEye, SQE * sizeof(T));
    pipe.InitBuffer(bufBias, 64);
    pipe.InitBuffer(bufBt, 128);
    pipe.InitBuffer(bufA2, SQE * sizeof(T));
    pipe.InitBuffer(bufB2, SQE * sizeof(T));
    pipe.InitBuffer(bufC, S * S * sizeof(TC));
    LocalTensor<T> l1 = bufL1.Get<T>(), e1 = bufEye.Get<T>(), a2 = bufA2.Get<T>(), b2 = bufB2.Get<T>();
    LocalTensor<TC> c1 = bufC.Get<TC>();
    GlobalTensor<T> sqGm, eyeGm;
    GlobalTensor<TC> cGm;
    sqGm.SetGlobalBuffer((__gm__ T*)sq, SQN * SQE);
    eyeGm.SetGlobalBuffer((__gm__ T*)eye, SQE);
    cGm.SetGlobalBuffer((__gm__ TC*)c, SQE);
    DataCopy(l1, sqGm, SQN * SQE);
    DataCopy(e1, eyeGm, SQE);
    PipeBarrier<PIPE_ALL>();
    LoadData(a2, e1, LoadData2DParams(0, SQE * sizeof(T) / 512, 1, 0, 0, false, 0));
    // one repeat: square `pick` (startIndex counts squares) into the fractals of B
    LoadDataWithTranspose(b2, l1, LoadData2dTransposeParams(static_cast<uint16_t>(pick), 1, 0, 0, 0));
    PipeBarrier<PIPE_ALL>();
    MmadParams mp;
    mp.m = S;
    mp.n = S;
    mp.k = S;
    if (useBias) {
        LocalTensor<half> bias1 = bufBias.Get<half>();
        LocalTensor<float> bias2 = bufBt.Get<float>();
        GlobalTensor<half> biasGm;
        biasGm.SetGlobalBuffer((__gm__ half*)bias, 32);
        DataCopy(bias1, biasGm, 32);
        PipeBarrier<PIPE_ALL>();
        DataCopy(bias2, bias1, DataCopyParams(1, 1, 0, 0));  // 64 B of half = 32 values -> 32 floats
        PipeBarrier<PIPE_ALL>();
        mp.cmatrixInitVal = false;
        Mmad(c1, a2, b2, bias2, mp);
    } else {
        Mmad(c1, a2, b2, mp);
    }
    PipeBarrier<PIPE_ALL>();
    Fixpipe<TC, TC, CFG_ROW_MAJOR>(cGm, c1, FixpipeParamsV220(S, S, S, S, false));
}
