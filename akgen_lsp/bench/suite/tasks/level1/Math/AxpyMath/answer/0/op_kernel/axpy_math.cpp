// AxpyMath (akgen bundled suite): z_i = alpha * x_i + y_i.
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
class KernelAxpyMath {
public:
    __aicore__ inline KernelAxpyMath() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t perCore, uint32_t tileLength, float alpha)
    {
        const uint32_t begin = perCore * GetBlockIdx();
        len = begin >= totalLength ? 0 : (totalLength - begin < perCore ? totalLength - begin : perCore);
        offset = begin;
        tile = tileLength;
        this->alpha = alpha;
        gm0.SetGlobalBuffer((__gm__ T*)x + begin, len);
        gm1.SetGlobalBuffer((__gm__ T*)y + begin, len);
        outGm.SetGlobalBuffer((__gm__ T*)z + begin, len);
        pipe.InitBuffer(inQ0, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(fBuf0, tileLength * sizeof(float));
        pipe.InitBuffer(inQ1, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(fBuf1, tileLength * sizeof(float));
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
        LocalTensor<T> a1 = inQ1.AllocTensor<T>();
        DataCopyPad(a1, gm1[off], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ1.EnQue(a1);
    }

    __aicore__ inline void Compute(uint32_t off, uint32_t n)
    {
        const uint32_t calc = (n + CALC_ALIGN - 1) / CALC_ALIGN * CALC_ALIGN;
        LocalTensor<float> f[2];
        LocalTensor<T> a0 = inQ0.DeQue<T>();
        f[0] = fBuf0.Get<float>();
        ToFloat(f[0], a0, halfBuf, calc);
        LocalTensor<T> a1 = inQ1.DeQue<T>();
        f[1] = fBuf1.Get<float>();
        ToFloat(f[1], a1, halfBuf, calc);
        LocalTensor<float> fz = fzBuf.Get<float>();
        const uint32_t globalOffset = offset + off;
        (void)globalOffset;
        Muls(fz, f[0], alpha, calc);
        Add(fz, fz, f[1], calc);
        LocalTensor<T> out = outQ.AllocTensor<T>();
        FromFloat(out, fz, halfBuf, calc);
        outQ.EnQue(out);
        inQ0.FreeTensor(a0);
        inQ1.FreeTensor(a1);
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
    TQue<TPosition::VECIN, BUFFER_NUM> inQ1;
    TBuf<TPosition::VECCALC> fBuf1;
    GlobalTensor<T> gm1;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> fzBuf;
    TBuf<TPosition::VECCALC> halfBuf;
    GlobalTensor<T> outGm;
    float alpha = 0;
    uint32_t len = 0;
    uint32_t offset = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void axpy_math(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAxpyMath<DTYPE_X> op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.perCore, tilingData.tileLength, tilingData.alpha);
    op.Process();
}
