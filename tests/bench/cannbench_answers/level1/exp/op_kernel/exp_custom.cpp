// Exp for cann-bench's level1/exp (akgen's own reference answer, tests/bench/cannbench_answers):
// y = e^{(x * scale + shift) * k}, k = ln(base) for base > 0, else 1 (the natural exponent); the host folds k into
// scale and shift. Computed in float for float16 / bfloat16 / float32 and rounded back with CAST_RINT.
//
// Each vector core takes one slice of perCore elements (the last one may be shorter) and walks it in tiles:
// GM -> UB with DataCopyPad (any length), widen to float, compute, narrow, UB -> GM with DataCopyPad. Vector
// instructions run on the tile rounded up to 64 elements; the padding lanes are never written back.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t CALC_ALIGN = 64;

template <typename T>
class KernelExp {
public:
    __aicore__ inline KernelExp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t total, uint64_t perCore, uint32_t tileLength, float scale,
                                float shift)
    {
        mul = scale;
        add = shift;
        const uint64_t begin = perCore * GetBlockIdx();
        len = begin >= total ? 0 : (total - begin < perCore ? total - begin : perCore);
        tile = tileLength;
        xGm.SetGlobalBuffer((__gm__ T*)x + begin, len);
        yGm.SetGlobalBuffer((__gm__ T*)y + begin, len);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(fBuf, tileLength * sizeof(float));
        pipe.InitBuffer(tBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t off = 0; off < len; off += tile) {
            const uint32_t n = static_cast<uint32_t>(len - off < tile ? len - off : tile);
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<T> x = inQ.AllocTensor<T>();
        DataCopyPad(x, xGm[off], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        const uint32_t calc = (n + CALC_ALIGN - 1) / CALC_ALIGN * CALC_ALIGN;
        LocalTensor<T> x = inQ.DeQue<T>();
        LocalTensor<float> f = fBuf.Get<float>();
        LocalTensor<float> t = tBuf.Get<float>();
        if constexpr (std::is_same_v<T, float>) {
            DataCopy(f, x, calc);
        } else {
            Cast(f, x, RoundMode::CAST_NONE, calc);
        }
        Muls(t, f, mul, calc);
        Adds(t, t, add, calc);
        Exp(f, t, calc);
        LocalTensor<T> y = outQ.AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            DataCopy(y, f, calc);
        } else {
            Cast(y, f, RoundMode::CAST_RINT, calc);
        }
        outQ.EnQue(y);
        inQ.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<T> y = outQ.DeQue<T>();
        DataCopyPad(yGm[off], y, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
        outQ.FreeTensor(y);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> fBuf, tBuf;
    GlobalTensor<T> xGm, yGm;
    uint64_t len = 0;
    uint32_t tile = 0;
    float mul = 1.0f;
    float add = 0.0f;
};

extern "C" __global__ __aicore__ void exp_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelExp<DTYPE_X> op;
    op.Init(x, y, tilingData.totalLength, tilingData.perCore, tilingData.tileLength, tilingData.scale,
            tilingData.shift);
    op.Process();
}
