// Test kernel for a ref tensor list (tests/sim/test_list_init.py): var and varOut are one list on CANN (an OpDef
// input and output of the same name). For each element k it copies the 8 floats of upd into element k at offset
// 8 * (k + 1), writing through var (through == 0, as ScatterList's answer does) or through varOut (through == 1),
// and leaves the rest of the element alone. It reads the element count and sizes from var's descriptor.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline __gm__ float* elem_ptr(GM_ADDR list, uint32_t k) {
    __gm__ uint64_t* words = reinterpret_cast<__gm__ uint64_t*>(list);
    return reinterpret_cast<__gm__ float*>(*(words + (words[0] >> 3) + k));
}

extern "C" __global__ __aicore__ void ref_list(GM_ADDR var, GM_ADDR upd, GM_ADDR varOut, int32_t through)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8 * sizeof(float));
    GlobalTensor<float> gu;
    gu.SetGlobalBuffer((__gm__ float*)upd, 8);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gu, 8);
    PipeBarrier<PIPE_ALL>();
    ListTensorDesc vs(reinterpret_cast<__gm__ void*>(var));
    for (uint32_t k = 0; k < vs.GetSize(); ++k) {
        GlobalTensor<float> gv;
        gv.SetGlobalBuffer(elem_ptr(through == 0 ? var : varOut, k), 64);
        DataCopy(gv[8 * (k + 1)], t, 8);
    }
}
