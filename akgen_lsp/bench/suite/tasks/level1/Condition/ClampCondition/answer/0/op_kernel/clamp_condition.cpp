// ClampCondition (akgen bundled suite): y_i = min(max(x_i, min_val), max_val).
//
// Each vector core takes one slice of perCore elements (the last one may be shorter) and walks it in tiles: GM -> UB
// with DataCopyPad (any length), widen to float, compute, round back with CAST_RINT, UB -> GM with DataCopyPad.
// Vector instructions run on the tile length rounded up to 64 elements (whole 256-byte repeats in float); the
// padding lanes are computed and never written back.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t CALC_ALIGN = 64;

template <typename S>
__aicore__ inline void ToFloat(const LocalTensor<float>& dst, const LocalTensor<S>& src, TBuf<TPosition::VECCALC>& halfBuf,
                               uint32_t count)
{
    if constexpr (std::is_same_v<S, float>) {
        DataCopy(dst, src, count);
    } else if constexpr (std::is_same_v<S, uint8_t>) {
        LocalTensor<half> h = halfBuf.Get<half>();
        Cast(h, src, RoundMode::CAST_NONE, count);
        Cast(dst, h, RoundMode::CAST_NONE, count);
    } else {
        Cast(dst, src, RoundMode::CAST_NONE, count);
    }
}

template <typename D>
__aicore__ inline void FromFloat(const LocalTensor<D>& dst, const LocalTensor<float>& src, TBuf<TPosition::VECCALC>& halfBuf,
                                 uint32_t count)
{
    if constexpr (std::is_same_v<D, float>) {
        DataCopy(dst, src, count);
    } else if constexpr (std::is_same_v<D, uint8_t>) {
        LocalTensor<half> h = halfBuf.Get<half>();
        Cast(h, src, RoundMode::CAST_NONE, count);
        Cast(dst, h, RoundMode::CAST_ROUND, count);
    } else {
        Cast(dst, src, RoundMode::CAST_RINT, count);
    }
}

template <typename T>
class KernelClampCondition {
public:
    __aicore__ inline KernelClampCondition() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t perCore, uint32_t tileLength, float minVal, float maxVal)
    {
        const uint32_t begin = perCore * GetBlockIdx();
        len = begin >= totalLength ? 0 : (totalLength - begin < perCore ? totalLength - begin : perCore);
        offset = begin;
        tile = tileLength;
        this->minVal = minVal;
        this->maxVal = maxVal;
        gm0.SetGlobalBuffer((__gm__ T*)x + begin, len);
        outGm.SetGlobalBuffer((__gm__ T*)y + begin, len);
        pipe.InitBuffer(inQ0, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(fBuf0, tileLength * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(fzBuf, tileLength * sizeof(float));
        pipe.InitBuffer(halfBuf, tileLength * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < len; off += tile) {
            const uint32_t n = len - off < tile ? len - off : tile;
            CopyIn(off, n);
            Compute(off, n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n)
    {
        LocalTensor<T> a0 = inQ0.AllocTensor<T>();
        DataCopyPad(a0, gm0[off], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ0.EnQue(a0);
    }

    __aicore__ inline void Compute(uint32_t off, uint32_t n)
    {
        const uint32_t calc = (n + CALC_ALIGN - 1) / CALC_ALIGN * CALC_ALIGN;
        LocalTensor<float> f[1];
        LocalTensor<T> a0 = inQ0.DeQue<T>();
        f[0] = fBuf0.Get<float>();
        ToFloat(f[0], a0, halfBuf, calc);
        LocalTensor<float> fz = fzBuf.Get<float>();
        const uint32_t globalOffset = offset + off;
        (void)globalOffset;
        Maxs(fz, f[0], minVal, calc);
        Mins(fz, fz, maxVal, calc);
        LocalTensor<T> out = outQ.AllocTensor<T>();
        FromFloat(out, fz, halfBuf, calc);
        outQ.EnQue(out);
        inQ0.FreeTensor(a0);
    }

    __aicore__ inline void CopyOut(uint32_t off, uint32_t n)
    {
        LocalTensor<T> out = outQ.DeQue<T>();
        DataCopyPad(outGm[off], out, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ0;
    TBuf<TPosition::VECCALC> fBuf0;
    GlobalTensor<T> gm0;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> fzBuf;
    TBuf<TPosition::VECCALC> halfBuf;
    GlobalTensor<T> outGm;
    float minVal = 0;
    float maxVal = 0;
    uint32_t len = 0;
    uint32_t offset = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void clamp_condition(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelClampCondition<DTYPE_X> op;
    op.Init(x, y, tilingData.totalLength, tilingData.perCore, tilingData.tileLength, tilingData.minVal, tilingData.maxVal);
    op.Process();
}
