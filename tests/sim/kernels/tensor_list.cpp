// A kernel with two tensor lists: reads list x through AscendC::ListTensorDesc (shapes from GetDesc) and writes
// y[k] = 2 * x[k] + k into list y, whose data pointers it finds by hand (word 0 = offset of the pointer array), the
// way the NPUKernelBench Foreach kernels do. mode 1 reads past the end of x[1] (an out-of-bounds read of one element).
#include "kernel_operator.h"

using namespace AscendC;

__aicore__ inline __gm__ float* list_data(GM_ADDR list, uint32_t k) {
    __gm__ uint64_t* words = reinterpret_cast<__gm__ uint64_t*>(list);
    return reinterpret_cast<__gm__ float*>(*(words + (words[0] >> 3) + k));
}

extern "C" __global__ __aicore__ void tensor_list(GM_ADDR x, GM_ADDR y, GM_ADDR shapes, int32_t mode) {
    ListTensorDesc xs(reinterpret_cast<__gm__ void*>(x));
    GlobalTensor<int64_t> shapeOut;
    shapeOut.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(shapes), 16);
    uint64_t dims[8] = {0};
    for (uint32_t k = 0; k < xs.GetSize(); ++k) {
        TensorDesc<float> d;
        d.SetShapeAddr(dims);
        xs.GetDesc(d, k);
        uint64_t n = 1;
        for (uint32_t i = 0; i < d.GetDim(); ++i) n *= d.GetShape(i);
        shapeOut.SetValue(k * 4, static_cast<int64_t>(d.GetDim()));
        shapeOut.SetValue(k * 4 + 1, static_cast<int64_t>(n));
        GlobalTensor<float> in;
        in.SetGlobalBuffer(xs.GetDataPtr<float>(k), n);
        GlobalTensor<float> out;
        out.SetGlobalBuffer(list_data(y, k), n);
        for (uint64_t i = 0; i < n; ++i) out.SetValue(i, 2.0f * in.GetValue(i) + static_cast<float>(k));
        if (mode == 1 && k == 1) {
            float v = in.GetValue(n + 4096);  // EXPECT SIM-GM-OOB-READ
            out.SetValue(0, v);
        }
    }
}
