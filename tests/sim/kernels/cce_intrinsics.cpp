// Test kernels for the raw CCE intrinsics of akgen_sim/cce_intrinsics.h (tests/sim/test_cce_intrinsics.py).
// cce: a, b are N int16 sources, z (N int16) starts as `init`; mode 0 runs each intrinsic on its own slice of z:
//   [0, 256)      vor(z, a, b), full mask, 2 repeats
//   [256, 512)    vector_dup(z + 256, 7), mask of 16 elements, 2 repeats of 8 blocks
//   [512, 768)    copy_ubuf_to_ubuf(z + 512, a): 2 bursts of 1 block, source gap 1, destination gap 2
//   [768, 1024)   vtranspose(z + 768, a)
//   [1024, 1536)  scatter_vnchwconv_b16(VA0, VA2, 2 repeats, strides 16): 16 x 16 transposes of a[0:256], a[256:512]
//   [1536, 1792)  vadd(z + 1536, a, b) in counter mode, 100 elements
// mode 1 calls scatter_vnchwconv_b16 with no VA register set; mode 2 passes vor a pointer outside UB.
#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t N = 2048;

extern "C" __global__ __aicore__ void cce(GM_ADDR a, GM_ADDR b, GM_ADDR init, GM_ADDR z, int32_t mode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufA, bufB, bufZ;
    pipe.InitBuffer(bufA, N * sizeof(int16_t));
    pipe.InitBuffer(bufB, N * sizeof(int16_t));
    pipe.InitBuffer(bufZ, N * sizeof(int16_t));
    LocalTensor<int16_t> ta = bufA.Get<int16_t>(), tb = bufB.Get<int16_t>(), tz = bufZ.Get<int16_t>();
    GlobalTensor<int16_t> aGm, bGm, initGm, zGm;
    aGm.SetGlobalBuffer((__gm__ int16_t*)a, N);
    bGm.SetGlobalBuffer((__gm__ int16_t*)b, N);
    initGm.SetGlobalBuffer((__gm__ int16_t*)init, N);
    zGm.SetGlobalBuffer((__gm__ int16_t*)z, N);
    DataCopy(ta, aGm, N);
    DataCopy(tb, bGm, N);
    DataCopy(tz, initGm, N);
    pipe_barrier(PIPE_ALL);
    __ubuf__ int16_t* pa = (__ubuf__ int16_t*)ta.GetPhyAddr();
    __ubuf__ int16_t* pb = (__ubuf__ int16_t*)tb.GetPhyAddr();
    __ubuf__ int16_t* pz = (__ubuf__ int16_t*)tz.GetPhyAddr();
    if (mode == 1) {
        scatter_vnchwconv_b16(VA0, VA2, 1, 0, 0);  // EXPECT SIM-VA-UNSET
    } else if (mode == 2) {
        int16_t outside[128] = {};
        set_vector_mask((uint64_t)-1, (uint64_t)-1);
        vor(pz, outside, pb, 1, 1, 1, 1, 8, 8, 8);  // EXPECT SIM-UB-OOB
    } else {
        set_vector_mask((uint64_t)-1, (uint64_t)-1);
        vor(pz, pa, pb, 2, 1, 1, 1, 8, 8, 8);
        set_vector_mask(0x0, 0xffff);
        vector_dup(pz + 256, (int16_t)7, 2, 1, 1, (uint8_t)8, (uint8_t)0);
        copy_ubuf_to_ubuf(pz + 512, pa, 0, 2, 1, 1, 2);
        pipe_barrier(PIPE_V);
        vtranspose((__ubuf__ uint16_t*)(pz + 768), (__ubuf__ uint16_t*)pa);
        uint64_t dst0[8], dst1[8], src0[8], src1[8];
        for (int i = 0; i < 8; ++i) {
            dst0[i] = (uint64_t)(pz + 1024 + 16 * i);
            dst1[i] = (uint64_t)(pz + 1024 + 16 * (i + 8));
            src0[i] = (uint64_t)(pa + 16 * i);
            src1[i] = (uint64_t)(pa + 16 * (i + 8));
        }
        set_va_reg_sb(VA0, dst0);
        set_va_reg_sb(VA1, dst1);
        set_va_reg_sb(VA2, src0);
        set_va_reg_sb(VA3, src1);
        scatter_vnchwconv_b16(VA0, VA2, 2, 16, 16);
        set_mask_count();
        set_vector_mask(0, 100);
        vadd(pz + 1536, pa, pb, 1, 1, 1, 1, 8, 8, 8);
        set_mask_norm();
        set_vector_mask((uint64_t)-1, (uint64_t)-1);
    }
    pipe_barrier(PIPE_ALL);
    DataCopy(zGm, tz, N);
}

// fused_mul_add: z = x * z0 + y with FusedMulAdd on DTYPE_X; mode 0 the count form over `count` elements, mode 1 the
// mask form (mask 40 elements, 2 repeats, repeat strides 8 blocks), mode 2 the count form reading past the buffer.
extern "C" __global__ __aicore__ void fused_mul_add(GM_ADDR x, GM_ADDR y, GM_ADDR z0, GM_ADDR z, int32_t mode,
                                                    int32_t count)
{
    using T = DTYPE_X;
    constexpr int32_t M = 1024;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufX, bufY, bufZ;
    pipe.InitBuffer(bufX, M * sizeof(T));
    pipe.InitBuffer(bufY, M * sizeof(T));
    pipe.InitBuffer(bufZ, M * sizeof(T));
    LocalTensor<T> tx = bufX.Get<T>(), ty = bufY.Get<T>(), tz = bufZ.Get<T>();
    GlobalTensor<T> xGm, yGm, z0Gm, zGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, M);
    yGm.SetGlobalBuffer((__gm__ T*)y, M);
    z0Gm.SetGlobalBuffer((__gm__ T*)z0, M);
    zGm.SetGlobalBuffer((__gm__ T*)z, M);
    DataCopy(tx, xGm, M);
    DataCopy(ty, yGm, M);
    DataCopy(tz, z0Gm, M);
    PipeBarrier<PIPE_ALL>();
    if (mode == 1) {
        FusedMulAdd(tz, tx, ty, 40, 2, {1, 1, 1, 8, 8, 8});
    } else if (mode == 2) {
        FusedMulAdd(tz, tx, ty, M + 64);  // EXPECT FMA-OOB
    } else {
        FusedMulAdd(tz, tx, ty, count);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, tz, M);
}
