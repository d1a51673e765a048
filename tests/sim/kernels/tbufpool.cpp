// TBufPool (tests/sim/test_tbufpool.py): 64 floats of x in, four outputs of 64 floats.
// - reuse: pool2 shares pool1's bytes, so pool2's first queue buffer is pool1's first one (a: what pool1 wrote
//   there is read back through pool2) and b = x + 1 computed in pool2's buffers;
// - subdivision: a child pool cut from a parent after one buffer of the parent starts past it (c: the child's buffer
//   address minus the parent's first one, in bytes, as a float);
// - a user pool (EXTERN_IMPL_BUFPOOL) giving a queue its buffers (d = x * 2);
// - mode 1: a buffer larger than the pool (reported at its line).
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t N = 64;
constexpr uint32_t BYTES = N * sizeof(float);

class MyPool {
public:
    MyPool() { Init(); }
    template <class T> bool InitBuffer(T& que, uint8_t num, uint32_t len) {
        len = (len + 31) / 32 * 32;
        auto ptr = this->GetBufHandle(this->GetCurBufSize());
        auto addr = this->GetCurAddr();
        que.InitStartBufHandle(ptr, num, len);
        for (uint32_t i = 0; i < num; i++) que.InitBufHandle(this, i, ptr, addr + i * len, len);
        this->SetCurAddr(addr + num * len);
        this->SetCurBufSize(this->GetCurBufSize() + num);
        return true;
    }
    EXTERN_IMPL_BUFPOOL(MyPool, AscendC::TPosition::VECCALC, 16);
};

extern "C" __global__ __aicore__ void tbufpool(GM_ADDR x, GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR d, int32_t mode)
{
    TPipe pipe;
    GlobalTensor<float> gx, ga, gb, gc, gd;
    gx.SetGlobalBuffer((__gm__ float*)x, N);
    ga.SetGlobalBuffer((__gm__ float*)a, N);
    gb.SetGlobalBuffer((__gm__ float*)b, N);
    gc.SetGlobalBuffer((__gm__ float*)c, N);
    gd.SetGlobalBuffer((__gm__ float*)d, N);
    TBufPool<TPosition::VECCALC> pool1, pool2, parent, child;
    TQue<TPosition::VECIN, 1> q1, q2;
    TBuf<TPosition::VECCALC> t2;

    pipe.InitBufPool(pool1, 2 * BYTES);
    pipe.InitBufPool(pool2, 2 * BYTES, pool1);
    pool1.InitBuffer(q1, 1, BYTES);
    LocalTensor<float> v = q1.AllocTensor<float>();
    DataCopy(v, gx, N);
    PipeBarrier<PIPE_ALL>();
    Muls(v, v, 3.0f, N);  // pool1's buffer holds 3x
    q1.FreeTensor(v);
    PipeBarrier<PIPE_ALL>();
    pool1.Reset();
    pool2.InitBuffer(q2, 1, BYTES);
    pool2.InitBuffer(t2, BYTES);
    LocalTensor<float> w = q2.AllocTensor<float>();  // the same bytes as v
    DataCopy(ga, w, N);
    LocalTensor<float> u = t2.Get<float>();
    DataCopy(u, gx, N);
    PipeBarrier<PIPE_ALL>();
    Adds(u, u, 1.0f, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gb, u, N);
    q2.FreeTensor(w);
    pool2.Reset();

    TQue<TPosition::VECIN, 1> q3, q4;
    pipe.InitBufPool(parent, 4 * BYTES);
    parent.InitBuffer(q3, 1, BYTES);
    parent.InitBufPool(child, 2 * BYTES);
    child.InitBuffer(q4, 1, BYTES);
    LocalTensor<float> p = q3.AllocTensor<float>();
    LocalTensor<float> k = q4.AllocTensor<float>();
    Duplicate(p, static_cast<float>(k.GetPhyAddr() - p.GetPhyAddr()), N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gc, p, N);
    q3.FreeTensor(p);
    q4.FreeTensor(k);

    MyPool mine;
    TQue<TPosition::VECIN, 1> q5;
    pipe.InitBufPool(mine, 2 * BYTES);
    mine.InitBuffer(q5, 1, BYTES);
    LocalTensor<float> m = q5.AllocTensor<float>();
    DataCopy(m, gx, N);
    PipeBarrier<PIPE_ALL>();
    Muls(m, m, 2.0f, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gd, m, N);
    q5.FreeTensor(m);
    if (mode == 1) {
        TQue<TPosition::VECIN, 1> q6;
        mine.InitBuffer(q6, 1, BYTES);  // fits: the pool's second buffer
        TBufPool<TPosition::VECCALC> small;
        TQue<TPosition::VECIN, 1> q7;
        pipe.InitBufPool(small, BYTES);
        small.InitBuffer(q7, 2, BYTES);  // EXPECT SIM-BUFPOOL-SIZE
    }
}
