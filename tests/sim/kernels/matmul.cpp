// Test kernel for the high-level Matmul (lib/matmul_intf.h). DTYPE_X is the A/B type, DTYPE_C the C type; the
// TCubeTiling is filled here from scalars; `mode` picks the case (tests/sim/test_matmul.py). a: M x K (K x M when
// transA), b: K x N (N x K when transB), bias: N floats, c: M x N (in and out, for the atomic case).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using T = DTYPE_X;
using TC = DTYPE_C;

using AT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
using BT = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, TC>;
using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, int32_t mode, int32_t M,
                                             int32_t N, int32_t K, int32_t baseM, int32_t baseN, int32_t transA,
                                             int32_t transB, int32_t order)
{
    TPipe pipe;
    TCubeTiling tiling;
    tiling.usedCoreNum = GetBlockNum();
    tiling.M = M;
    tiling.N = N;
    tiling.Ka = K;
    tiling.Kb = K;
    const int32_t blocks = GetBlockNum();
    const int32_t rowsPerBlock = (M + blocks - 1) / blocks;
    tiling.singleCoreM = rowsPerBlock;
    tiling.singleCoreN = N;
    tiling.singleCoreK = K;
    tiling.baseM = baseM;
    tiling.baseN = baseN;
    tiling.baseK = 16;
    tiling.iterateOrder = order;
    tiling.isBias = mode == 1;
#ifdef MM_POLICY  // a MATMUL_POLICY (template) from the test
    matmul::Matmul<AT, BT, CT, BiasT, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, nullptr>, MM_POLICY> mm;
#else
    matmul::Matmul<AT, BT, CT, BiasT, CFG_NORM> mm;
#endif
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);

    GlobalTensor<T> aGm, bGm;
    GlobalTensor<float> biasGm;
    GlobalTensor<TC> cGm;
    aGm.SetGlobalBuffer((__gm__ T*)a, M * K);
    bGm.SetGlobalBuffer((__gm__ T*)b, K * N);
    biasGm.SetGlobalBuffer((__gm__ float*)bias, N);
    cGm.SetGlobalBuffer((__gm__ TC*)c, M * N);

    // this block's rows (the samples' CalcOffset): A rows, C rows, and SetTail for a short last block
    const int32_t m0 = GetBlockIdx() * rowsPerBlock;
    const int32_t rows = M - m0 < rowsPerBlock ? M - m0 : rowsPerBlock;
    if (rows <= 0) return;
    mm.SetTensorA(aGm[transA ? m0 : m0 * K], transA != 0);
    if (mode != 7) mm.SetTensorB(bGm, transB != 0);
    if (rows < rowsPerBlock) mm.SetTail(rows, N);
    GlobalTensor<TC> cBlk = cGm[m0 * N];
    switch (mode) {
        case 0:  // the whole single-core C at once
        case 1:  // ... plus bias
            if (mode == 1) mm.SetBias(biasGm);
            mm.IterateAll(cBlk);
            break;
        case 2:  // base blocks to GM, in iterateOrder
            while (mm.Iterate()) {
                mm.GetTensorC(cBlk);
            }
            break;
        case 3: {  // base blocks to UB, then copied out row by row
            TBuf<TPosition::VECCALC> ub;
            pipe.InitBuffer(ub, baseM * baseN * sizeof(TC) + 64);
            LocalTensor<TC> blk = ub.Get<TC>();
            constexpr int32_t per = 32 / sizeof(TC);
            while (mm.Iterate()) {
                mm.GetTensorC(blk);
                MatrixOffset o = mm.GetOffsetC();
                const int32_t stride = (o.width + per - 1) / per * per;
                PipeBarrier<PIPE_ALL>();
                for (int32_t r = 0; r < o.height; ++r) {
                    for (int32_t j = 0; j < o.width; ++j) cBlk.SetValue((o.row + r) * N + o.col + j, blk.GetValue(r * stride + j));
                }
            }
            break;
        }
        case 4:  // enAtomic: C += A x B
            mm.IterateAll(cBlk, 1);
            break;
        case 5:    // asynchronous: one Iterate<false>, then one GetTensorC<false> per base block
        case 6: {  // ... and one call too many
            mm.template Iterate<false>();
            const int32_t calls = ((rows + baseM - 1) / baseM) * ((N + baseN - 1) / baseN) + (mode == 6 ? 1 : 0);
            for (int32_t i = 0; i < calls; ++i) {
                mm.template GetTensorC<false>(cBlk);  // async GetTensorC
            }
            break;
        }
        case 9: {  // int8 sums dequantised by a scalar (the float 0.1 in the low 32 bits)
            float q = 0.1f;
            uint32_t bits;
            memcpy(&bits, &q, sizeof(bits));
            mm.SetQuantScalar(static_cast<uint64_t>(bits));
            mm.IterateAll(cBlk);
            break;
        }
        case 7:
            mm.IterateAll(cBlk);  // EXPECT SIM-MM-INPUT
            break;
        case 8:
            mm.GetTensorC(cBlk);  // EXPECT SIM-MM-ITERATE
            break;
        default:
            break;
    }
    mm.End();
}
