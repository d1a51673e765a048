#include "kernel_operator.h"

__forceinline__ [aicore] int helper(int v) { return v + 1; }

extern "C" __global__ __aicore__ void bisheng_error(GM_ADDR x)
{
    int v = helper(1);
    undeclared_name = v;  // EXPECT CXX
}
