// ForeachMulScalar (akgen bundled suite): y_k = x_k * scalar for each of the three tensors x_0, x_1, x_2 (one
// shape for all three).
//
// Every vector core takes the same slice [begin, begin + len) of each tensor and walks the three tensors one after
// the other in tiles: GM -> UB (DataCopyPad), widen to float, Muls, round back (CAST_RINT), UB -> GM. Double
// buffering overlaps the copy of one tile with the compute of the previous one, across tensor boundaries too.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t CALC_ALIGN = 64;
constexpr uint32_t TENSORS = 3;

template <typename T>
class KernelForeachMulScalar {
public:
    __aicore__ inline KernelForeachMulScalar() {}

    __aicore__ inline void Init(GM_ADDR x0, GM_ADDR x1, GM_ADDR x2, GM_ADDR y0, GM_ADDR y1, GM_ADDR y2,
                                uint32_t totalLength, uint32_t perCore, uint32_t tileLength, float scalar)
    {
        const uint32_t begin = perCore * GetBlockIdx();
        len = begin >= totalLength ? 0 : (totalLength - begin < perCore ? totalLength - begin : perCore);
        tile = tileLength;
        this->scalar = scalar;
        GM_ADDR xs[TENSORS] = {x0, x1, x2};
        GM_ADDR ys[TENSORS] = {y0, y1, y2};
        for (uint32_t k = 0; k < TENSORS; ++k) {
            xGm[k].SetGlobalBuffer((__gm__ T*)xs[k] + begin, len);
            yGm[k].SetGlobalBuffer((__gm__ T*)ys[k] + begin, len);
        }
        pipe.InitBuffer(inQ, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(fBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t k = 0; k < TENSORS; ++k) {
            for (uint32_t off = 0; off < len; off += tile) {
                const uint32_t n = len - off < tile ? len - off : tile;
                CopyIn(k, off, n);
                Compute(n);
                CopyOut(k, off, n);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t k, uint32_t off, uint32_t n)
    {
        LocalTensor<T> a = inQ.AllocTensor<T>();
        DataCopyPad(a, xGm[k][off], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ.EnQue(a);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        const uint32_t calc = (n + CALC_ALIGN - 1) / CALC_ALIGN * CALC_ALIGN;
        LocalTensor<T> a = inQ.DeQue<T>();
        LocalTensor<T> b = outQ.AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            Muls(b, a, scalar, calc);
        } else {
            LocalTensor<float> f = fBuf.Get<float>();
            Cast(f, a, RoundMode::CAST_NONE, calc);
            Muls(f, f, scalar, calc);
            Cast(b, f, RoundMode::CAST_RINT, calc);
        }
        outQ.EnQue(b);
        inQ.FreeTensor(a);
    }

    __aicore__ inline void CopyOut(uint32_t k, uint32_t off, uint32_t n)
    {
        LocalTensor<T> b = outQ.DeQue<T>();
        DataCopyPad(yGm[k][off], b, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
        outQ.FreeTensor(b);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> fBuf;
    GlobalTensor<T> xGm[TENSORS];
    GlobalTensor<T> yGm[TENSORS];
    float scalar = 0;
    uint32_t len = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void foreach_mul_scalar(GM_ADDR x0, GM_ADDR x1, GM_ADDR x2, GM_ADDR y0, GM_ADDR y1,
                                                         GM_ADDR y2, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelForeachMulScalar<DTYPE_X0> op;
    op.Init(x0, x1, x2, y0, y1, y2, tilingData.totalLength, tilingData.perCore, tilingData.tileLength,
            tilingData.scalar);
    op.Process();
}
