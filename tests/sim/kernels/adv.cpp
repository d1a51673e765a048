// Test kernel for the high-level SoftMax / SimpleSoftMax / LayerNorm. DTYPE_X is the data type; `mode` picks the case
// (tests/sim/test_adv.py). x: rows x cols; gamma, beta: cols; outputs y (rows x cols) and stats (rows x 16 floats:
// sum/max blocks, or mean/variance/rstd).
#include "kernel_operator.h"
#include "lib/activation/softmax.h"
#include "lib/normalization/layernorm.h"
using namespace AscendC;
using T = DTYPE_X;

extern "C" __global__ __aicore__ void adv(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR stats,
                                          int32_t mode, int32_t rows, int32_t cols, int32_t valid)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bg, bb, bs1, bs2, btmp;
    pipe.InitBuffer(bx, rows * cols * sizeof(T));
    pipe.InitBuffer(by, rows * cols * sizeof(T));
    pipe.InitBuffer(bg, cols * sizeof(T));
    pipe.InitBuffer(bb, cols * sizeof(T));
    pipe.InitBuffer(bs1, rows * 32);
    pipe.InitBuffer(bs2, rows * 32);
    pipe.InitBuffer(btmp, 1024);
    LocalTensor<T> lx = bx.Get<T>(), ly = by.Get<T>(), lg = bg.Get<T>(), lb = bb.Get<T>();
    LocalTensor<uint8_t> tmp = btmp.Get<uint8_t>();
    GlobalTensor<T> xGm, gGm, bGm, yGm;
    GlobalTensor<float> sGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, rows * cols);
    gGm.SetGlobalBuffer((__gm__ T*)gamma, cols);
    bGm.SetGlobalBuffer((__gm__ T*)beta, cols);
    yGm.SetGlobalBuffer((__gm__ T*)y, rows * cols);
    sGm.SetGlobalBuffer((__gm__ float*)stats, rows * 16);
    DataCopy(lx, xGm, rows * cols);
    DataCopy(lg, gGm, cols);
    DataCopy(lb, bGm, cols);
    DataCopy(ly, xGm, rows * cols);
    PipeBarrier<PIPE_ALL>();
    SoftMaxTiling st;
    st.srcM = rows;
    st.srcK = cols;
    SoftMaxShapeInfo shape{static_cast<uint32_t>(rows), static_cast<uint32_t>(cols), static_cast<uint32_t>(rows),
                           static_cast<uint32_t>(valid)};
    LocalTensor<float> s1 = bs1.Get<float>(), s2 = bs2.Get<float>();
    switch (mode) {
        case 0: {  // SoftMax with sum/max of the data type, padded rows (valid < cols)
            LocalTensor<T> sum = bs1.Get<T>(), max = bs2.Get<T>();
            SoftMax<T>(ly, sum, max, lx, tmp, st, shape);
            PipeBarrier<PIPE_ALL>();
            for (int32_t r = 0; r < rows; ++r) {  // stats[r] = [sum, max]
                sGm.SetValue(r * 16, static_cast<float>(sum.GetValue(r * 32 / sizeof(T))));
                sGm.SetValue(r * 16 + 1, static_cast<float>(max.GetValue(r * 32 / sizeof(T))));
                sGm.SetValue(r * 16 + 2, static_cast<float>(sum.GetValue(r * 32 / sizeof(T) + 32 / sizeof(T) - 1)));
            }
            break;
        }
        case 1:  // SoftMax without sum/max (shape from the tiling), then SimpleSoftMax must reproduce it from sum/max
            SoftMax<T>(ly, lx, st);
            break;
        case 2: {  // SimpleSoftMax from the sum/max of a first SoftMax
            LocalTensor<T> sum = bs1.Get<T>(), max = bs2.Get<T>();
            SoftMax<T>(ly, sum, max, lx, st);
            SimpleSoftMax<T>(lx, sum, max, lx, st);
            PipeBarrier<PIPE_ALL>();
            DataCopy(yGm, lx, rows * cols);
            return;
        }
        case 3: {  // LayerNorm [B, S, H]: B = 2, S = rows / 2, H = cols (valid of them), mean/var in T
            LayerNormTiling lt;
            lt.bLength = 2;
            lt.sLength = rows / 2;
            lt.hLength = cols;
            lt.originalHLength = valid;
            LocalTensor<T> mean = bs1.Get<T>(), var = bs2.Get<T>();
            LayerNorm<T>(ly, mean, var, lx, lg, lb, tmp, static_cast<T>(1e-5f), lt);
            PipeBarrier<PIPE_ALL>();
            for (int32_t r = 0; r < rows; ++r) {
                sGm.SetValue(r * 16, static_cast<float>(mean.GetValue(r)));
                sGm.SetValue(r * 16 + 1, static_cast<float>(var.GetValue(r)));
            }
            break;
        }
        case 4: {  // LayerNorm [A, R] with rstd in float
            LayerNormPara para{static_cast<uint32_t>(rows), static_cast<uint32_t>(valid), static_cast<uint32_t>(cols)};
            LayerNormSeparateTiling lt;
            LayerNorm<T, T>(ly, s1, s2, lx, lg, lb, 1e-5f, tmp, para, lt);
            PipeBarrier<PIPE_ALL>();
            for (int32_t r = 0; r < rows; ++r) {
                sGm.SetValue(r * 16, s1.GetValue(r));
                sGm.SetValue(r * 16 + 1, s2.GetValue(r));
            }
            break;
        }
        case 6: {  // Select with a byte mask (mask rows: gamma's bytes, cols per row, as uint8_t):
                   // rows 0..1 of y = mask == 0 ? x : 0.5, then the scalar-first form on rows 2..3
            SelectWithBytesMaskShapeInfo info;
            info.firstAxis = 2;
            info.srcLastAxis = cols;
            info.maskLastAxis = cols;
            LocalTensor<uint8_t> mask = bg.Get<uint8_t>();
            Select(ly, lx, static_cast<T>(0.5f), mask, tmp, info);
            SelectWithBytesMask(ly[2 * cols], static_cast<T>(0.5f), lx[2 * cols], mask, tmp, info);
            break;
        }
        case 5:
            st.srcK = cols + 1;
            SoftMax<T>(ly, lx, st);  // EXPECT SIM-SOFTMAX-SHAPE
            break;
        default:
            break;
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, ly, rows * cols);
}
