// C = A x B on the cube unit with the basic API: GM -> L1 (ND to Nz), L1 -> L0A/L0B (LoadData), Mmad into L0C,
// and Fixpipe from L0C back to GM (Nz to ND, float to half on the way).
//
// Static shape (NPUKernelBench BasicMatmul, case 8): A is half [M, K], B is half [K, N], C is half [M, N] with
// M = K = N = 512, all row-major. C is cut into 128 x 128 blocks; a cube core computes one block at a time, walking
// K in steps of 128 and accumulating in L0C (the first step initialises L0C, the later ones add to it). Blocks are
// dealt round-robin over GetBlockNum() cores, so any launch size is correct; 16 cores take one block each.
//
// Memory per cube core (Ascend 910B: L1 512 KiB, L0A 64 KiB, L0B 64 KiB, L0C 128 KiB):
//   L1 (A1, B1): 2 x 2 x 32 KiB = 128 KiB    L0A (A2): 2 x 32 KiB = 64 KiB
//   L0B (B2): 2 x 32 KiB = 64 KiB            L0C (CO1): 128 x 128 floats = 64 KiB
// The queues insert the MTE2 -> MTE1 -> M -> FIX synchronisation; no SetFlag/WaitFlag is needed.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t M = 512;
constexpr uint32_t K = 512;
constexpr uint32_t N = 512;
constexpr uint32_t BASE_M = 128;
constexpr uint32_t BASE_K = 128;
constexpr uint32_t BASE_N = 128;
constexpr uint32_t M_BLOCKS = M / BASE_M;
constexpr uint32_t N_BLOCKS = N / BASE_N;
constexpr uint32_t K_STEPS = K / BASE_K;
constexpr uint32_t CUBE_BLOCK = 16;                           // a fractal is 16 x 16 halves = 512 B
constexpr uint32_t FRACTAL_SIZE = CUBE_BLOCK * CUBE_BLOCK;    // elements in one fractal
constexpr int32_t BUFFER_NUM = 2;

class KernelMatmul {
public:
    __aicore__ inline KernelMatmul() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c)
    {
        aGm.SetGlobalBuffer((__gm__ half *)a, M * K);
        bGm.SetGlobalBuffer((__gm__ half *)b, K * N);
        cGm.SetGlobalBuffer((__gm__ half *)c, M * N);
        pipe.InitBuffer(inQueueA1, BUFFER_NUM, BASE_M * BASE_K * sizeof(half));
        pipe.InitBuffer(inQueueB1, BUFFER_NUM, BASE_K * BASE_N * sizeof(half));
        pipe.InitBuffer(inQueueA2, BUFFER_NUM, BASE_M * BASE_K * sizeof(half));
        pipe.InitBuffer(inQueueB2, BUFFER_NUM, BASE_K * BASE_N * sizeof(half));
        pipe.InitBuffer(outQueueCO1, 1, BASE_M * BASE_N * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t blockNum = static_cast<uint32_t>(GetBlockNum());
        for (uint32_t blk = static_cast<uint32_t>(GetBlockIdx()); blk < M_BLOCKS * N_BLOCKS; blk += blockNum) {
            const uint32_t mIdx = blk / N_BLOCKS;
            const uint32_t nIdx = blk % N_BLOCKS;
            LocalTensor<float> c1Local = outQueueCO1.AllocTensor<float>();
            for (uint32_t k = 0; k < K_STEPS; k++) {
                CopyIn(mIdx, nIdx, k);
                SplitA();
                SplitB();
                Compute(c1Local, k);
            }
            outQueueCO1.EnQue<float>(c1Local);
            CopyOut(mIdx, nIdx);
        }
    }

private:
    // GM (ND) -> L1 (Nz): each 16-column strip of the tile is stored as rows of 32 bytes, one strip after another.
    __aicore__ inline void CopyIn(uint32_t mIdx, uint32_t nIdx, uint32_t k)
    {
        LocalTensor<half> a1Local = inQueueA1.AllocTensor<half>();
        LocalTensor<half> b1Local = inQueueB1.AllocTensor<half>();

        Nd2NzParams aParams;
        aParams.ndNum = 1;
        aParams.nValue = BASE_M;          // rows of the A tile
        aParams.dValue = BASE_K;          // columns of the A tile
        aParams.srcNdMatrixStride = 0;
        aParams.srcDValue = K;            // row pitch of A in GM, in elements
        aParams.dstNzC0Stride = BASE_M;   // distance between 16-column strips in L1, in 32-byte units
        aParams.dstNzNStride = 1;
        aParams.dstNzMatrixStride = 0;
        DataCopy(a1Local, aGm[mIdx * BASE_M * K + k * BASE_K], aParams);

        Nd2NzParams bParams;
        bParams.ndNum = 1;
        bParams.nValue = BASE_K;
        bParams.dValue = BASE_N;
        bParams.srcNdMatrixStride = 0;
        bParams.srcDValue = N;
        bParams.dstNzC0Stride = BASE_K;
        bParams.dstNzNStride = 1;
        bParams.dstNzMatrixStride = 0;
        DataCopy(b1Local, bGm[k * BASE_K * N + nIdx * BASE_N], bParams);

        inQueueA1.EnQue(a1Local);
        inQueueB1.EnQue(b1Local);
    }

    // L1 (Nz) -> L0A (Zz): for each 16-row strip of A, gather its BASE_K / 16 fractals, which lie BASE_M / 16
    // fractals apart in L1, into consecutive fractals of L0A.
    __aicore__ inline void SplitA()
    {
        LocalTensor<half> a1Local = inQueueA1.DeQue<half>();
        LocalTensor<half> a2Local = inQueueA2.AllocTensor<half>();
        LoadData2DParams params;
        params.startIndex = 0;
        params.repeatTimes = BASE_K / CUBE_BLOCK;
        params.srcStride = BASE_M / CUBE_BLOCK;
        params.dstGap = 0;
        params.ifTranspose = false;
        for (uint32_t i = 0; i < BASE_M / CUBE_BLOCK; i++) {
            LoadData(a2Local[i * CUBE_BLOCK * BASE_K], a1Local[i * FRACTAL_SIZE], params);
        }
        inQueueA2.EnQue(a2Local);
        inQueueA1.FreeTensor(a1Local);
    }

    // L1 (Nz) -> L0B: for each 16-row strip of B (a K step of 16), gather its BASE_N / 16 fractals and transpose
    // each one, which is the layout Mmad expects for the right-hand matrix.
    __aicore__ inline void SplitB()
    {
        LocalTensor<half> b1Local = inQueueB1.DeQue<half>();
        LocalTensor<half> b2Local = inQueueB2.AllocTensor<half>();
        LoadData2DParams params;
        params.startIndex = 0;
        params.repeatTimes = BASE_N / CUBE_BLOCK;
        params.srcStride = BASE_K / CUBE_BLOCK;
        params.dstGap = 0;
        params.ifTranspose = true;
        for (uint32_t i = 0; i < BASE_K / CUBE_BLOCK; i++) {
            LoadData(b2Local[i * CUBE_BLOCK * BASE_N], b1Local[i * FRACTAL_SIZE], params);
        }
        inQueueB2.EnQue(b2Local);
        inQueueB1.FreeTensor(b1Local);
    }

    __aicore__ inline void Compute(const LocalTensor<float> &c1Local, uint32_t k)
    {
        LocalTensor<half> a2Local = inQueueA2.DeQue<half>();
        LocalTensor<half> b2Local = inQueueB2.DeQue<half>();
        MmadParams params;
        params.m = BASE_M;
        params.n = BASE_N;
        params.k = BASE_K;
        params.cmatrixSource = false;
        params.cmatrixInitVal = (k == 0);  // the first K step starts from zero, the others accumulate
        Mmad(c1Local, a2Local, b2Local, params);
        inQueueA2.FreeTensor(a2Local);
        inQueueB2.FreeTensor(b2Local);
    }

    // L0C (Nz, float) -> GM (ND, half): Fixpipe converts the layout and rounds float to half (F322F16, CAST_RINT).
    __aicore__ inline void CopyOut(uint32_t mIdx, uint32_t nIdx)
    {
        LocalTensor<float> c1Local = outQueueCO1.DeQue<float>();
        FixpipeParamsV220 params;
        params.nSize = BASE_N;
        params.mSize = BASE_M;
        params.srcStride = BASE_M;    // M extent of the L0C tile rounded up to 16
        params.dstStride = N;         // row pitch of C in GM, in elements
        params.quantPre = QuantMode_t::F322F16;
        params.ndNum = 1;
        params.srcNdStride = 0;
        params.dstNdStride = 0;
        Fixpipe(cGm[mIdx * BASE_M * N + nIdx * BASE_N], c1Local, params);
        outQueueCO1.FreeTensor(c1Local);
    }

private:
    TPipe pipe;
    TQue<TPosition::A1, 1> inQueueA1;
    TQue<TPosition::B1, 1> inQueueB1;
    TQue<TPosition::A2, 1> inQueueA2;
    TQue<TPosition::B2, 1> inQueueB2;
    TQue<TPosition::CO1, 1> outQueueCO1;
    GlobalTensor<half> aGm;
    GlobalTensor<half> bGm;
    GlobalTensor<half> cGm;
};

extern "C" __global__ __aicore__ void basic_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    KernelMatmul op;
    op.Init(a, b, c);
    op.Process();
}
