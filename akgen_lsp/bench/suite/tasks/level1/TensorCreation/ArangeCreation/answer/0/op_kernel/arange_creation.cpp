// ArangeCreation (akgen bundled suite): y_i = start + i * step.
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
class KernelArangeCreation {
public:
    __aicore__ inline KernelArangeCreation() {}

    __aicore__ inline void Init(GM_ADDR y, uint32_t totalLength, uint32_t perCore, uint32_t tileLength, float start, float step)
    {
        const uint32_t begin = perCore * GetBlockIdx();
        len = begin >= totalLength ? 0 : (totalLength - begin < perCore ? totalLength - begin : perCore);
        offset = begin;
        tile = tileLength;
        this->start = start;
        this->step = step;
        outGm.SetGlobalBuffer((__gm__ T*)y + begin, len);
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
    }

    __aicore__ inline void Compute(uint32_t off, uint32_t n)
    {
        const uint32_t calc = (n + CALC_ALIGN - 1) / CALC_ALIGN * CALC_ALIGN;
        LocalTensor<float> f[1];
        LocalTensor<float> fz = fzBuf.Get<float>();
        const uint32_t globalOffset = offset + off;
        (void)globalOffset;
        CreateVecIndex(fz, static_cast<float>(globalOffset), calc);
        Muls(fz, fz, step, calc);
        Adds(fz, fz, start, calc);
        LocalTensor<T> out = outQ.AllocTensor<T>();
        FromFloat(out, fz, halfBuf, calc);
        outQ.EnQue(out);
    }

    __aicore__ inline void CopyOut(uint32_t off, uint32_t n)
    {
        LocalTensor<T> out = outQ.DeQue<T>();
        DataCopyPad(outGm[off], out, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> fzBuf;
    TBuf<TPosition::VECCALC> halfBuf;
    GlobalTensor<T> outGm;
    float start = 0;
    float step = 0;
    uint32_t len = 0;
    uint32_t offset = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void arange_creation(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelArangeCreation<DTYPE_Y> op;
    op.Init(y, tilingData.totalLength, tilingData.perCore, tilingData.tileLength, tilingData.start, tilingData.step);
    op.Process();
}
