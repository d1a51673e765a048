// AKG104: an Atlas A2/A3 API on an Ascend 950.
//
// This folder's akgen.toml targets Ascend950PR. CANN's API reference documents SetSaturationFlag for Atlas A2/A3
// (910B, 910_93) and not for Ascend 950, whose vector unit saturates per instruction (the register API's
// configuration). Leave the call out of the 950 kernel, or keep it behind `#if __NPU_ARCH__ != 3510`.
#include "kernel_operator.h"

using namespace AscendC;

__aicore__ inline void ScaleSaturated(LocalTensor<half>& dst, LocalTensor<half>& src, half scale, int32_t n)
{
    SetSaturationFlag(1);  // expect: AKG104
    Muls(dst, src, scale, n);
#if __NPU_ARCH__ != 3510
    SetSaturationFlag(0);
#endif
}
