#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void foreach_mul_scalar(GM_ADDR x0, GM_ADDR x1, GM_ADDR x2, GM_ADDR y0, GM_ADDR y1,
                                                         GM_ADDR y2, GM_ADDR workspace, GM_ADDR tiling)
{
}
