// MseLoss (akgen bundled suite): loss = mean((x - y)^2) over all elements, a single value.
//
// One vector core walks both tensors in tiles (GM -> UB with DataCopyPad), widens to float, forms (x - y)^2 and
// reduces each tile with ReduceSum over exactly its n elements; the running sum stays a float scalar. The mean is
// broadcast into a vector, rounded to the dtype and written as one element.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t CALC_ALIGN = 64;

template <typename T>
class KernelMseLoss {
public:
    __aicore__ inline KernelMseLoss() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR loss, uint32_t totalLength, uint32_t tileLength)
    {
        total = totalLength;
        tile = tileLength;
        xGm.SetGlobalBuffer((__gm__ T*)x, totalLength);
        yGm.SetGlobalBuffer((__gm__ T*)y, totalLength);
        lossGm.SetGlobalBuffer((__gm__ T*)loss, 1);
        pipe.InitBuffer(inX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inY, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQ, 1, CALC_ALIGN * sizeof(T));
        pipe.InitBuffer(fxBuf, tileLength * sizeof(float));
        pipe.InitBuffer(fyBuf, tileLength * sizeof(float));
        pipe.InitBuffer(workBuf, tileLength * sizeof(float));
        pipe.InitBuffer(redBuf, CALC_ALIGN * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        float sum = 0.0f;
        for (uint32_t off = 0; off < total; off += tile) {
            const uint32_t n = total - off < tile ? total - off : tile;
            CopyIn(off, n);
            sum += TileSum(n);
        }
        WriteMean(sum / static_cast<float>(total));
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n)
    {
        const DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        LocalTensor<T> a = inX.AllocTensor<T>();
        LocalTensor<T> b = inY.AllocTensor<T>();
        DataCopyPad(a, xGm[off], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        DataCopyPad(b, yGm[off], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inX.EnQue(a);
        inY.EnQue(b);
    }

    __aicore__ inline float TileSum(uint32_t n)
    {
        const uint32_t calc = (n + CALC_ALIGN - 1) / CALC_ALIGN * CALC_ALIGN;
        LocalTensor<T> a = inX.DeQue<T>();
        LocalTensor<T> b = inY.DeQue<T>();
        LocalTensor<float> fx = fxBuf.Get<float>();
        LocalTensor<float> fy = fyBuf.Get<float>();
        if constexpr (std::is_same_v<T, float>) {
            DataCopy(fx, a, calc);
            DataCopy(fy, b, calc);
        } else {
            Cast(fx, a, RoundMode::CAST_NONE, calc);
            Cast(fy, b, RoundMode::CAST_NONE, calc);
        }
        inX.FreeTensor(a);
        inY.FreeTensor(b);
        Sub(fx, fx, fy, calc);
        Mul(fx, fx, fx, calc);
        LocalTensor<float> red = redBuf.Get<float>();
        ReduceSum(red, fx, workBuf.Get<float>(), n);
        event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        return red.GetValue(0);
    }

    __aicore__ inline void WriteMean(float mean)
    {
        LocalTensor<float> red = redBuf.Get<float>();
        Duplicate(red, mean, CALC_ALIGN);
        LocalTensor<T> out = outQ.AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            DataCopy(out, red, CALC_ALIGN);
        } else {
            Cast(out, red, RoundMode::CAST_RINT, CALC_ALIGN);
        }
        outQ.EnQue(out);
        out = outQ.DeQue<T>();
        DataCopyPad(lossGm, out, DataCopyExtParams{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0});
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inX;
    TQue<TPosition::VECIN, BUFFER_NUM> inY;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> fxBuf;
    TBuf<TPosition::VECCALC> fyBuf;
    TBuf<TPosition::VECCALC> workBuf;
    TBuf<TPosition::VECCALC> redBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    GlobalTensor<T> lossGm;
    uint32_t total = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void mse_loss(GM_ADDR x, GM_ADDR y, GM_ADDR loss, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMseLoss<DTYPE_X> op;
    op.Init(x, y, loss, tilingData.totalLength, tilingData.tileLength);
    op.Process();
}
