#include "kernel_operator.h"
using namespace AscendC;

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z)
    {
        xGm.SetGlobalBuffer((__gm__ half*)x);
        pipe.InitBuffer(inQueueX, 2, 256 * sizeof(half));
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        
    }
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQueueX;
    GlobalTensor<half> xGm;
};
