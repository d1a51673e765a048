// ReduceSumLastDim (akgen bundled suite): y[r] = sum_c x[r, c].
//
// Rows are dealt to vector cores in contiguous ranges of rowsPerCore; a row of `cols` elements (at most 4096) is
// brought into UB with DataCopyPad, widened to float and processed whole. Element-wise instructions run on `calc`
// lanes (cols rounded up to 64), reductions on exactly `cols` elements so the padding never counts.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t CALC_ALIGN = 64;
constexpr uint32_t OUT_CHUNK = 1024;

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

template <typename T>
class KernelReduceSumLastDim {
public:
    __aicore__ inline KernelReduceSumLastDim() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t rowsPerCore)
    {
        this->cols = cols;
        rowStart = rowsPerCore * GetBlockIdx();
        rowStart = rowStart < rows ? rowStart : rows;
        rowEnd = rows - rowStart < rowsPerCore ? rows : rowStart + rowsPerCore;
        calcMax = (cols + CALC_ALIGN - 1) / CALC_ALIGN * CALC_ALIGN;
        xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(rowStart) * cols, (rowEnd - rowStart) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + rowStart, rowEnd - rowStart);
        pipe.InitBuffer(inQ, 1, calcMax * sizeof(T));
        pipe.InitBuffer(outQ, 1, OUT_CHUNK * sizeof(T));
        pipe.InitBuffer(resBuf, OUT_CHUNK * sizeof(float));
        pipe.InitBuffer(xBuf, calcMax * sizeof(float));
        pipe.InitBuffer(tmpBuf, calcMax * sizeof(float));
        pipe.InitBuffer(workBuf, calcMax * sizeof(float));
        pipe.InitBuffer(redBuf, CALC_ALIGN * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowStart >= rowEnd) {
            return;
        }
        const uint32_t calc = calcMax;
        results = resBuf.Get<float>();
        for (uint32_t chunkStart = rowStart; chunkStart < rowEnd; chunkStart += OUT_CHUNK) {
            const uint32_t chunkEnd = rowEnd - chunkStart < OUT_CHUNK ? rowEnd : chunkStart + OUT_CHUNK;
            for (uint32_t r = chunkStart; r < chunkEnd; ++r) {
                Row(r, chunkStart);
            }
            Flush(chunkStart, chunkEnd - chunkStart);
        }
    }

private:
    __aicore__ inline void Row(uint32_t r, uint32_t chunkStart)
    {
        (void)chunkStart;
        const uint32_t calc = calcMax;
        LocalTensor<T> a = inQ.AllocTensor<T>();
        DataCopyPad(a, xGm[static_cast<uint64_t>(r - rowStart) * cols],
                    DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ.EnQue(a);
        a = inQ.DeQue<T>();
        LocalTensor<float> fx = xBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        (void)tmp;
        ToFloat(fx, a, calc);
        inQ.FreeTensor(a);
        {
            float result = 0;
            ReduceSum(red, fx, work, cols);
            event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);
            result = red.GetValue(0);
            results.SetValue(r - chunkStart, result);
        }
    }

    __aicore__ inline void Flush(uint32_t chunkStart, uint32_t count)
    {
        event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);
        LocalTensor<T> out = outQ.AllocTensor<T>();
        FromFloat(out, results, (count + CALC_ALIGN - 1) / CALC_ALIGN * CALC_ALIGN);
        outQ.EnQue(out);
        out = outQ.DeQue<T>();
        DataCopyPad(yGm[chunkStart - rowStart], out,
                    DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0});
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> xBuf;
    TBuf<TPosition::VECCALC> tmpBuf;
    TBuf<TPosition::VECCALC> workBuf;
    TBuf<TPosition::VECCALC> redBuf;
    TBuf<TPosition::VECCALC> resBuf;
    LocalTensor<float> results;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    LocalTensor<float> fg[1];
    uint32_t cols = 0;
    uint32_t rowStart = 0;
    uint32_t rowEnd = 0;
    uint32_t calcMax = 0;
};

extern "C" __global__ __aicore__ void reduce_sum_last_dim(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelReduceSumLastDim<DTYPE_X> op;
    op.Init(x, y, tilingData.rows, tilingData.cols, tilingData.rowsPerCore);
    op.Process();
}
