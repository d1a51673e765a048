// Test kernel for ReduceSum/Max/Min, WholeReduce*, BlockReduce*, PairReduceSum and the CANN 9.1 names. One binary
// per DTYPE_X; `mode` picks the case (see tests/sim/test_reduce.py). Input a holds n elements; z (n elements) starts
// as a copy of input b, so results that must leave dst alone are visible. `cnt` is the count of the count forms.
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;

extern "C" __global__ __aicore__ void reduce(GM_ADDR a, GM_ADDR b, GM_ADDR z, int32_t mode, int32_t n, int32_t cnt)
{
    constexpr int32_t PER = 256 / sizeof(T);
    constexpr int32_t BLK = 32 / sizeof(T);
    const int32_t R = n / PER;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufA, bufZ, bufTmp;
    GlobalTensor<T> aGm, bGm, zGm;
    aGm.SetGlobalBuffer((__gm__ T*)a, n);
    bGm.SetGlobalBuffer((__gm__ T*)b, n);
    zGm.SetGlobalBuffer((__gm__ T*)z, n);
    pipe.InitBuffer(bufA, n * sizeof(T));
    pipe.InitBuffer(bufZ, n * sizeof(T));
    pipe.InitBuffer(bufTmp, n * sizeof(T));
    LocalTensor<T> la = bufA.Get<T>();
    LocalTensor<T> lz = bufZ.Get<T>();
    LocalTensor<T> tmp = bufTmp.Get<T>();
    DataCopy(la, aGm, n);
    DataCopy(lz, bGm, n);
    PipeBarrier<PIPE_ALL>();
    uint64_t bits[2] = {0xF0F00000F00F00FFull, PER == 128 ? 0x0123456789ABCDEFull : 0ull};
    switch (mode) {
        case 0:  // count forms: z[0] = sum, z[BLK..] = [max, index], z[2 BLK..] = [min, index]
            ReduceSum(lz, la, tmp, cnt);
            ReduceMax(lz[BLK], la, tmp, cnt, true);
            ReduceMin(lz[2 * BLK], la, tmp, cnt, true);
            ReduceMax(lz[3 * BLK], la, tmp, cnt);
            break;
        case 1:  // mask + repeat forms over R repeats
            ReduceSum(lz, la, tmp, PER, R, 8);
            ReduceMax(lz[BLK], la, tmp, bits, R, 8, true);
            ReduceMin(lz[2 * BLK], la, tmp, PER / 2, R, 8, true);
            ReduceSum(lz[3 * BLK], la, tmp, bits, R, 8);
            break;
        case 2:  // per-repeat reductions with each order; partial continuous mask for the sum
            WholeReduceSum(lz, la, PER - 3, R, 1, 1, 8);
            WholeReduceMax(lz[256], la, PER, R, 1, 1, 8);
            WholeReduceMin(lz[512], la, bits, R, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
            WholeReduceMax(lz[768], la, PER, R, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
            WholeReduceMin(lz[1024], la, PER, R, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX);
            WholeReduceSum(lz[1280], la, PER, R / 2, 2, 1, 16);  // every other repeat, results two apart
            break;
        case 3:  // per-block reductions; the bit mask leaves whole blocks disabled (those keep dst)
            BlockReduceSum(lz, la, R, bits, 1, 1, 8);
            BlockReduceMax(lz[1024], la, R, PER, 1, 1, 8);
            BlockReduceMin(lz[2048], la, R, bits, 1, 1, 8);
            break;
        case 4:  // pair sums and the CANN 9.1 names (same semantics, mask before repeatTime)
            PairReduceSum(lz, la, R, PER, 1, 1, 8);
            ReduceRepeat<ReduceType::SUM, T>(lz[2048], la, PER, R, 1, 1, 8);
            ReduceRepeat<ReduceType::MAX, T>(lz[2304], la, bits, R, 1, 1, 8, ReduceOrder::ORDER_VALUE_INDEX);
            ReduceDataBlock<ReduceType::SUM, T>(lz[2560], la, bits, R, 1, 1, 8);
            ReducePairElem<ReduceType::SUM, T>(lz[n / 2 + 1024], la, bits, R / 4, 1, 1, 8);
            break;
        case 5:  // repeatTime 0, mask 0 and count 0: no-ops, dst untouched
            WholeReduceSum(lz, la, PER, 0, 1, 1, 8);
            WholeReduceMax(lz, la, 0, R, 1, 1, 8);
            BlockReduceSum(lz, la, 0, PER, 1, 1, 8);
            PairReduceSum(lz, la, R, 0, 1, 1, 8);
            ReduceSum(lz, la, tmp, 0);
            ReduceMax(lz, la, tmp, PER, 0, 8, true);
            break;
        case 6:
            WholeReduceSum(lz, la, PER, 256, 1, 1, 8);  // EXPECT SIM-REPEAT
            break;
        case 7:
            ReduceMax(lz, la, tmp[n - 2 * BLK], cnt, true);  // EXPECT SIM-UB-SIZE
            break;
        case 8:
            WholeReduceMax(lz[1], la, PER, R, 1, 1, 8);  // EXPECT SIM-UB-ALIGN
            break;
        case 9: {  // the reduction registers: MAX_MIN_CNT after WholeReduceMax, ACC_VAL after ReduceSum (count form)
            WholeReduceMax(tmp, la, PER, R, 1, 1, 8);
            T v, idx;
            GetReduceRepeatMaxMinSpr<T>(v, idx);
            ReduceSum(tmp, la, tmp[256], cnt);
            T s = GetAccVal<T>();
            lz.SetValue(0, v);
            lz.SetValue(1, idx);
            lz.SetValue(2, s);
            break;
        }
        case 10: {  // an unsupported dtype is reported when the call runs (the kernel still compiles)
            LocalTensor<int32_t> li = la.template ReinterpretCast<int32_t>();
            ReduceSum(li, li, li, 64);  // EXPECT SIM-DTYPE
            break;
        }
        default:
            break;
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, lz, n);
}
