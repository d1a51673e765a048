// Test kernel for the cube path: GM -> L1 (DataCopy with Nd2NzParams), L1 -> L0A / L0B (LoadData2D), Mmad,
// Fixpipe L0C -> GM. DTYPE_X is the input type, DTYPE_C the L0C type; `mode` picks the case (tests/sim/test_cube.py).
// a: M x K, b: K x N, bt: N x K (B transposed), bias: N floats; outputs c (M x N, DTYPE_C), ch (M x N half),
// cz (the NZ image of C: ceil(N/16) blocks of Malign x 16).
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;
using TC = DTYPE_C;

extern "C" __global__ __aicore__ void cube(GM_ADDR a, GM_ADDR b, GM_ADDR bt, GM_ADDR bias, GM_ADDR c, GM_ADDR ch,
                                           GM_ADDR cz, GM_ADDR c2, int32_t mode, int32_t M, int32_t N, int32_t K)
{
    constexpr int32_t C0 = 32 / sizeof(T);
    constexpr int32_t FE = 512 / sizeof(T);  // elements of one fractal
    const int32_t Mb = (M + 15) / 16, Nb = (N + 15) / 16, Kb = (K + C0 - 1) / C0;
    const int32_t Mal = Mb * 16;
    TPipe pipe;
    TBuf<TPosition::A1> bufA1;
    TBuf<TPosition::B1> bufB1;
    TBuf<TPosition::C1> bufBias;
    TBuf<TPosition::C2> bufBt;
    TBuf<TPosition::A2> bufA2;
    TBuf<TPosition::B2> bufB2;
    TBuf<TPosition::CO1> bufC;
    pipe.InitBuffer(bufA1, Mb * Kb * 512);
    pipe.InitBuffer(bufB1, Nb * Kb * 512 + 512 * Nb);
    pipe.InitBuffer(bufBias, 2 * N * sizeof(float));
    pipe.InitBuffer(bufBt, N * sizeof(float));
    pipe.InitBuffer(bufA2, Mb * (Kb + 1) * 512);
    pipe.InitBuffer(bufB2, Nb * Kb * 512);
    pipe.InitBuffer(bufC, 2 * Mb * Nb * 256 * sizeof(TC));
    LocalTensor<T> a1 = bufA1.Get<T>(), b1 = bufB1.Get<T>(), a2 = bufA2.Get<T>(), b2 = bufB2.Get<T>();
    LocalTensor<float> bias1 = bufBias.Get<float>(), bias2 = bufBt.Get<float>();
    LocalTensor<TC> c1 = bufC.Get<TC>();
    GlobalTensor<T> aGm, bGm, btGm;
    GlobalTensor<float> biasGm;
    GlobalTensor<TC> cGm, czGm;
    GlobalTensor<half> chGm;
    aGm.SetGlobalBuffer((__gm__ T*)a, M * K);
    bGm.SetGlobalBuffer((__gm__ T*)b, K * N);
    btGm.SetGlobalBuffer((__gm__ T*)bt, N * K);
    biasGm.SetGlobalBuffer((__gm__ float*)bias, N);
    cGm.SetGlobalBuffer((__gm__ TC*)c, M * N);
    chGm.SetGlobalBuffer((__gm__ half*)ch, M * N);
    czGm.SetGlobalBuffer((__gm__ TC*)cz, Nb * Mal * 16);

    // A: ND (M x K) -> NZ in L1 (K blocks of Mal x C0), then one LoadData per row of fractals -> zZ in L0A
    if (mode == 13) {  // into a tensor of one fractal over the same buffer: CANN's CPU debug checks the size
        LocalTensor<T> small = bufA1.Get<T>(FE);
        DataCopy(small, aGm, Nd2NzParams(1, M, K, 0, K, Mal, 1, 0));  // EXPECT SIM-CUBE-SIZE (DataCopy)
    } else {
        DataCopy(a1, aGm, Nd2NzParams(1, M, K, 0, K, Mal, 1, 0));
    }
    // kDirectionAlign (mode 16, float): each row of fractals in L0A holds K rounded up to 16
    const int32_t rowKb = mode == 16 && sizeof(T) == 4 ? (K + 15) / 16 * 2 : Kb;
    for (int32_t i = 0; i < Mb; ++i) {
        LoadData(a2[i * rowKb * FE], a1, LoadData2DParams(i, Kb, Mb, 0, 0, false, 0));
    }
    if (mode == 0 || mode == 2 || mode == 8 || mode == 11 || mode == 12) {
        // B: ND (K x N) -> NZ in L1 (N blocks of Kal x 16), fractals transposed on the way into L0B (16-bit types)
        const int32_t Kal = Kb * 16;
        DataCopy(b1, bGm, Nd2NzParams(1, K, N, 0, N, Kal, 1, 0));
        for (int32_t i = 0; i < Kb; ++i) {
            LoadData(b2[i * Nb * FE], b1, LoadData2DParams(i, Nb, Kb, 0, 0, true, 0));
        }
    } else {
        // B^T: ND (N x K) -> NZ in L1 (K blocks of Nal x C0) is already the zN image of B: one contiguous LoadData
        DataCopy(b1, btGm, Nd2NzParams(1, N, K, 0, K, Nb * 16, 1, 0));
        LoadData(b2, b1, LoadData2DParams(0, Kb * Nb, 1, 0, 0, false, 0));
    }
    PipeBarrier<PIPE_ALL>();
    MmadParams mp;
    mp.m = M;
    mp.n = N;
    mp.k = K;
    FixpipeParamsV220 fp(N, M, Mal, N, false);
    switch (mode) {
        case 0:
        case 1:
        case 13:
            Mmad(c1, a2, b2, mp);
            break;
        case 18:  // unit flags (the last fractal 3) and the FPC reset after the move: no effect on C
            mp.unitFlag = 3;
            Mmad(c1, a2, b2, mp);
            fp.unitFlag = 3;
            break;
        case 17:  // two results in L0C, one after the other: C and 2C (C + C), moved out by one Fixpipe (ndNum 2)
            Mmad(c1, a2, b2, mp);
            Mmad(c1[Mb * Nb * 256], a2, b2, mp);
            mp.cmatrixInitVal = false;
            Mmad(c1[Mb * Nb * 256], a2, b2, mp);
            break;
        case 16:
            mp.kDirectionAlign = true;
            Mmad(c1, a2, b2, mp);
            break;
        case 12: {  // into a dst tensor of half the L0C buffer: the cube writes past it, CANN checks nothing
            LocalTensor<TC> small = bufC.Get<TC>(Mb * Nb * 128);
            Mmad(small, a2, b2, mp);  // EXPECT SIM-CUBE-SIZE (Mmad)
            break;
        }
        case 2:  // C = A x B, then C += A x B from L0C
            Mmad(c1, a2, b2, mp);
            mp.cmatrixInitVal = false;
            Mmad(c1, a2, b2, mp);
            break;
        case 3:  // C = bias + A x B
            DataCopy(bias1, biasGm, N);
            Mmad(c1, a2, b2, bias1, mp);
            break;
        case 9:  // C = bias + A x B with the bias GM -> L1 (64 B pieces, 64 B holes) -> bias table (C2). N * 4 % 64 == 0.
            // GM -> L1: blockLen and dstGap in 32 B units; L1 -> C2: blockLen in 64 B units, srcGap in 32 B units.
            DataCopy(bias1, biasGm, DataCopyParams(N * sizeof(float) / 64, 2, 0, 2));
            PipeBarrier<PIPE_ALL>();
            DataCopy(bias2, bias1, DataCopyParams(N * sizeof(float) / 64, 1, 2, 0));
            PipeBarrier<PIPE_ALL>();
            Mmad(c1, a2, b2, bias2, mp);
            break;
        case 10:  // the same bias as one C2 block: blockLen = N * 4 / 64
            DataCopy(bias1, biasGm, N);
            PipeBarrier<PIPE_ALL>();
            DataCopy(bias2, bias1, DataCopyParams(1, N * sizeof(float) / 64, 0, 0));
            PipeBarrier<PIPE_ALL>();
            Mmad(c1, a2, b2, bias2, mp);
            break;
        case 14:  // C's initial value from the bias table without a bias operand (cmatrixSource)
            DataCopy(bias1, biasGm, N);
            PipeBarrier<PIPE_ALL>();
            DataCopy(bias2, bias1, DataCopyParams(1, N * sizeof(float) / 64, 0, 0));
            PipeBarrier<PIPE_ALL>();
            mp.cmatrixInitVal = false;
            mp.cmatrixSource = true;
            Mmad(c1, a2, b2, mp);
            break;
        case 15:  // the deprecated isBias: C += A x B
            Mmad(c1, a2, b2, mp);
            mp.isBias = true;
            Mmad(c1, a2, b2, mp);
            break;
        case 4:  // half output through F322F16
            Mmad(c1, a2, b2, mp);
            break;
        case 5:  // NZ output
            Mmad(c1, a2, b2, mp);
            break;
        case 6:
            mp.k = 5000;
            Mmad(c1, a2, b2, mp);  // EXPECT SIM-MMAD-RANGE
            break;
        case 7:
            Mmad(c1, b2, b2, mp);  // EXPECT SIM-POSITION
            break;
        case 8:  // ReLU on the way out
            Mmad(c1, a2, b2, mp);
            fp.reluEn = true;
            break;
        case 11: {  // GEMV: m = 1 reads A's row as K contiguous elements (ND) from L0A
            DataCopy(a1, aGm, (K + C0 - 1) / C0 * C0);
            PipeBarrier<PIPE_ALL>();
            LoadData(a2, a1, LoadData2DParams(0, (K * sizeof(T) + 511) / 512, 1, 0, 0, false, 0));
            PipeBarrier<PIPE_ALL>();
            mp.m = 1;
            Mmad(c1, a2, b2, mp);
            fp = FixpipeParamsV220(N, 1, 16, N, false);
            break;
        }
        default:
            break;
    }
    PipeBarrier<PIPE_ALL>();
    if constexpr (std::is_same_v<TC, float>) {
        if (mode == 4) {
            fp.quantPre = QuantMode_t::F322F16;
            Fixpipe(chGm, c1, fp);
            return;
        }
    }
    if (mode == 17) {
        GlobalTensor<TC> c2Gm;
        c2Gm.SetGlobalBuffer((__gm__ TC*)c2, 2 * M * N);
        fp.ndNum = 2;
        fp.srcNdStride = Mb * Nb;  // in 16 x 16 fractals of L0C
        fp.dstNdStride = M * N;
        Fixpipe(c2Gm, c1, fp);
        return;
    }
    if (mode == 5) {
        FixpipeParamsV220 nz(N, M, Mal, Mal * 16 * sizeof(TC) / 32, false);
        Fixpipe<TC, TC, CFG_NZ>(czGm, c1, nz);
        return;
    }
    Fixpipe(cGm, c1, fp);
    if (mode == 18) {
        SetFixPipeConfig<TC>(c1, true);
        SetFixPipeConfig<T>(a2, true);  // EXPECT SIM-POSITION (SetFixPipeConfig)
    }
}
