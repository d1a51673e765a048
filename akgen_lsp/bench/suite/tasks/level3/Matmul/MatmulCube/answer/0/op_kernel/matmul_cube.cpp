// MatmulCube (akgen bundled suite): C = A x B on the cube unit with the basic API.
//
// GM -> L1 (ND to Nz with DataCopy + Nd2NzParams), L1 -> L0A / L0B (LoadData; B's fractals transposed), Mmad into
// L0C (float), Fixpipe L0C -> GM (Nz to ND, float rounded to the output dtype on the way). C is cut into
// 128 x 128 blocks dealt round-robin over the cube cores; each block walks K in steps of 128 and accumulates in
// L0C. M, K and N are multiples of 128 (the host refuses other shapes).
//
// Memory per cube core (910B: L1 512 KiB, L0A 64 KiB, L0B 64 KiB, L0C 128 KiB): L1 2 x 2 x 32 KiB, L0A 2 x 32 KiB,
// L0B 2 x 32 KiB, L0C 128 x 128 floats = 64 KiB.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t BASE_M = 128;
constexpr uint32_t BASE_K = 128;
constexpr uint32_t BASE_N = 128;
constexpr uint32_t CUBE_BLOCK = 16;
constexpr uint32_t FRACTAL_SIZE = CUBE_BLOCK * CUBE_BLOCK;
constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelMatmulCube {
public:
    __aicore__ inline KernelMatmulCube() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t k, uint32_t n)
    {
        this->m = m;
        this->k = k;
        this->n = n;
        aGm.SetGlobalBuffer((__gm__ T*)a, static_cast<uint64_t>(m) * k);
        bGm.SetGlobalBuffer((__gm__ T*)b, static_cast<uint64_t>(k) * n);
        cGm.SetGlobalBuffer((__gm__ T*)c, static_cast<uint64_t>(m) * n);
        pipe.InitBuffer(inQueueA1, BUFFER_NUM, BASE_M * BASE_K * sizeof(T));
        pipe.InitBuffer(inQueueB1, BUFFER_NUM, BASE_K * BASE_N * sizeof(T));
        pipe.InitBuffer(inQueueA2, BUFFER_NUM, BASE_M * BASE_K * sizeof(T));
        pipe.InitBuffer(inQueueB2, BUFFER_NUM, BASE_K * BASE_N * sizeof(T));
        pipe.InitBuffer(outQueueCO1, 1, BASE_M * BASE_N * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t mBlocks = m / BASE_M;
        const uint32_t nBlocks = n / BASE_N;
        const uint32_t kSteps = k / BASE_K;
        const uint32_t blockNum = static_cast<uint32_t>(GetBlockNum());
        for (uint32_t blk = static_cast<uint32_t>(GetBlockIdx()); blk < mBlocks * nBlocks; blk += blockNum) {
            const uint32_t mIdx = blk / nBlocks;
            const uint32_t nIdx = blk % nBlocks;
            LocalTensor<float> c1Local = outQueueCO1.AllocTensor<float>();
            for (uint32_t kIdx = 0; kIdx < kSteps; kIdx++) {
                CopyIn(mIdx, nIdx, kIdx);
                SplitA();
                SplitB();
                Compute(c1Local, kIdx);
            }
            outQueueCO1.EnQue<float>(c1Local);
            CopyOut(mIdx, nIdx);
        }
    }

private:
    // GM (ND) -> L1 (Nz): each 16-column strip of the tile is stored as rows of 32 bytes, one strip after another.
    __aicore__ inline void CopyIn(uint32_t mIdx, uint32_t nIdx, uint32_t kIdx)
    {
        LocalTensor<T> a1Local = inQueueA1.AllocTensor<T>();
        LocalTensor<T> b1Local = inQueueB1.AllocTensor<T>();
        Nd2NzParams aParams;
        aParams.ndNum = 1;
        aParams.nValue = BASE_M;
        aParams.dValue = BASE_K;
        aParams.srcNdMatrixStride = 0;
        aParams.srcDValue = k;
        aParams.dstNzC0Stride = BASE_M;
        aParams.dstNzNStride = 1;
        aParams.dstNzMatrixStride = 0;
        DataCopy(a1Local, aGm[static_cast<uint64_t>(mIdx) * BASE_M * k + kIdx * BASE_K], aParams);
        Nd2NzParams bParams;
        bParams.ndNum = 1;
        bParams.nValue = BASE_K;
        bParams.dValue = BASE_N;
        bParams.srcNdMatrixStride = 0;
        bParams.srcDValue = n;
        bParams.dstNzC0Stride = BASE_K;
        bParams.dstNzNStride = 1;
        bParams.dstNzMatrixStride = 0;
        DataCopy(b1Local, bGm[static_cast<uint64_t>(kIdx) * BASE_K * n + nIdx * BASE_N], bParams);
        inQueueA1.EnQue(a1Local);
        inQueueB1.EnQue(b1Local);
    }

    // L1 (Nz) -> L0A: for each 16-row strip of A, its BASE_K / 16 fractals (BASE_M / 16 fractals apart in L1) become
    // consecutive fractals of L0A.
    __aicore__ inline void SplitA()
    {
        LocalTensor<T> a1Local = inQueueA1.DeQue<T>();
        LocalTensor<T> a2Local = inQueueA2.AllocTensor<T>();
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

    // L1 (Nz) -> L0B: for each 16-row strip of B, its BASE_N / 16 fractals, each transposed (the layout Mmad
    // expects for the right-hand matrix).
    __aicore__ inline void SplitB()
    {
        LocalTensor<T> b1Local = inQueueB1.DeQue<T>();
        LocalTensor<T> b2Local = inQueueB2.AllocTensor<T>();
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

    __aicore__ inline void Compute(const LocalTensor<float>& c1Local, uint32_t k)
    {
        LocalTensor<T> a2Local = inQueueA2.DeQue<T>();
        LocalTensor<T> b2Local = inQueueB2.DeQue<T>();
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

    // L0C (Nz, float) -> GM (ND): Fixpipe converts the layout and rounds float to the output dtype.
    __aicore__ inline void CopyOut(uint32_t mIdx, uint32_t nIdx)
    {
        LocalTensor<float> c1Local = outQueueCO1.DeQue<float>();
        FixpipeParamsV220 params;
        params.nSize = BASE_N;
        params.mSize = BASE_M;
        params.srcStride = BASE_M;
        params.dstStride = n;
        params.quantPre = std::is_same_v<T, half> ? QuantMode_t::F322F16 : QuantMode_t::F322BF16;
        params.ndNum = 1;
        params.srcNdStride = 0;
        params.dstNdStride = 0;
        Fixpipe(cGm[static_cast<uint64_t>(mIdx) * BASE_M * n + nIdx * BASE_N], c1Local, params);
        outQueueCO1.FreeTensor(c1Local);
    }

private:
    TPipe pipe;
    TQue<TPosition::A1, BUFFER_NUM> inQueueA1;
    TQue<TPosition::B1, BUFFER_NUM> inQueueB1;
    TQue<TPosition::A2, BUFFER_NUM> inQueueA2;
    TQue<TPosition::B2, BUFFER_NUM> inQueueB2;
    TQue<TPosition::CO1, 1> outQueueCO1;
    GlobalTensor<T> aGm;
    GlobalTensor<T> bGm;
    GlobalTensor<T> cGm;
    uint32_t m = 0;
    uint32_t k = 0;
    uint32_t n = 0;
};

extern "C" __global__ __aicore__ void matmul_cube(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    KernelMatmulCube<DTYPE_A> op;
    op.Init(a, b, c, tilingData.m, tilingData.k, tilingData.n);
    op.Process();
}
