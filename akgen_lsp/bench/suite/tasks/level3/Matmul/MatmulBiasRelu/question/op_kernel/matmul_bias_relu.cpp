#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_bias_relu(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
}
