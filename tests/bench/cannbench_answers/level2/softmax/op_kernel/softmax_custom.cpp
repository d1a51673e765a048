// Softmax for cann-bench's level2/softmax (akgen's own reference answer, tests/bench/cannbench_answers):
// y = exp(x - max) / sum(exp(x - max)) along `dim`, computed in float for float16 / bfloat16 / float32.
//
// The host views x as [outer, reduce, inner] (reduce: the softmax dim). Two paths:
// - inner == 1 (the last dim): each block takes whole rows; a row is copied in, reduced (ReduceMax, then ReduceSum
//   of the exponentials) and scaled in UB;
// - inner > 1: each block takes (outer, column tile) units; for a tile of innerTile contiguous columns the reduce
//   rows are streamed three times (max, sum of exponentials, output), with element-wise Max / Add across rows.
// Element-wise instructions run on counts rounded up to 64 lanes (the padding lanes are never written back);
// reductions run on the exact count.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t LANES = 64;

template <typename S>
__aicore__ inline void ToFloat(const LocalTensor<float>& dst, const LocalTensor<S>& src, uint32_t count)
{
    if constexpr (std::is_same_v<S, float>) {
        DataCopy(dst, src, count);
    } else {
        Cast(dst, src, RoundMode::CAST_NONE, count);
    }
}

template <typename D>
__aicore__ inline void FromFloat(const LocalTensor<D>& dst, const LocalTensor<float>& src, uint32_t count)
{
    if constexpr (std::is_same_v<D, float>) {
        DataCopy(dst, src, count);
    } else {
        Cast(dst, src, RoundMode::CAST_RINT, count);
    }
}

__aicore__ inline uint32_t Lanes(uint32_t n)
{
    return (n + LANES - 1) / LANES * LANES;
}

template <typename T>
class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t outer, uint32_t reduce, uint64_t inner,
                                uint32_t innerTile, uint64_t unitsPerCore)
    {
        this->outer = outer;
        this->reduce = reduce;
        this->inner = inner;
        this->innerTile = innerTile;
        tiles = inner == 1 ? 1 : (inner + innerTile - 1) / innerTile;
        const uint64_t units = outer * tiles;
        first = unitsPerCore * GetBlockIdx();
        first = first < units ? first : units;
        last = units - first < unitsPerCore ? units : first + unitsPerCore;
        width = Lanes(inner == 1 ? reduce : innerTile);
        xGm.SetGlobalBuffer((__gm__ T*)x, outer * reduce * inner);
        yGm.SetGlobalBuffer((__gm__ T*)y, outer * reduce * inner);
        pipe.InitBuffer(inQ, 1, width * sizeof(T));
        pipe.InitBuffer(outQ, 1, width * sizeof(T));
        pipe.InitBuffer(fBuf, width * sizeof(float));
        pipe.InitBuffer(maxBuf, width * sizeof(float));
        pipe.InitBuffer(sumBuf, width * sizeof(float));
        pipe.InitBuffer(workBuf, width * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t u = first; u < last; ++u) {
            if (inner == 1) {
                Row(u);
            } else {
                Columns(u / tiles, (u % tiles) * innerTile);
            }
        }
    }

private:
    __aicore__ inline void Load(uint64_t offset, uint32_t n, const LocalTensor<float>& dst)
    {
        LocalTensor<T> a = inQ.AllocTensor<T>();
        DataCopyPad(a, xGm[offset], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ.EnQue(a);
        a = inQ.DeQue<T>();
        ToFloat(dst, a, Lanes(n));
        inQ.FreeTensor(a);
    }

    __aicore__ inline void Store(uint64_t offset, uint32_t n, const LocalTensor<float>& src)
    {
        LocalTensor<T> out = outQ.AllocTensor<T>();
        FromFloat(out, src, Lanes(n));
        outQ.EnQue(out);
        out = outQ.DeQue<T>();
        DataCopyPad(yGm[offset], out, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
        outQ.FreeTensor(out);
    }

    __aicore__ inline float Scalar(const LocalTensor<float>& t)
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return t.GetValue(0);
    }

    __aicore__ inline void Row(uint64_t row)
    {
        const uint64_t offset = row * reduce;
        const uint32_t calc = Lanes(reduce);
        LocalTensor<float> f = fBuf.Get<float>();
        LocalTensor<float> red = maxBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        Load(offset, reduce, f);
        ReduceMax(red, f, work, reduce);
        const float rowMax = Scalar(red);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
        Adds(f, f, -rowMax, calc);
        Exp(f, f, calc);
        ReduceSum(red, f, work, reduce);
        const float rowSum = Scalar(red);
        ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
        Muls(f, f, 1.0f / rowSum, calc);
        Store(offset, reduce, f);
    }

    __aicore__ inline void Columns(uint64_t o, uint64_t col)
    {
        const uint32_t n = static_cast<uint32_t>(inner - col < innerTile ? inner - col : innerTile);
        const uint32_t calc = Lanes(n);
        const uint64_t base = o * reduce * inner + col;
        LocalTensor<float> f = fBuf.Get<float>();
        LocalTensor<float> mx = maxBuf.Get<float>();
        LocalTensor<float> sum = sumBuf.Get<float>();
        Load(base, n, mx);
        for (uint32_t r = 1; r < reduce; ++r) {
            Load(base + r * inner, n, f);
            Max(mx, mx, f, calc);
        }
        Duplicate(sum, 0.0f, calc);
        for (uint32_t r = 0; r < reduce; ++r) {
            Load(base + r * inner, n, f);
            Sub(f, f, mx, calc);
            Exp(f, f, calc);
            Add(sum, sum, f, calc);
        }
        for (uint32_t r = 0; r < reduce; ++r) {
            Load(base + r * inner, n, f);
            Sub(f, f, mx, calc);
            Exp(f, f, calc);
            Div(f, f, sum, calc);
            Store(base + r * inner, n, f);
        }
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> fBuf, maxBuf, sumBuf, workBuf;
    GlobalTensor<T> xGm, yGm;
    uint64_t outer = 0, inner = 0, tiles = 1, first = 0, last = 0;
    uint32_t reduce = 0, innerTile = 0, width = 0;
};

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelSoftmax<DTYPE_X> op;
    op.Init(x, y, t.outer, t.reduce, t.inner, t.innerTile, t.unitsPerCore);
    op.Process();
}
