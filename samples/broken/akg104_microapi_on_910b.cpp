// AKG104: an Ascend 950 API on a 910B.
//
// samples/akgen.toml targets an Ascend910B2 (Atlas A2). The register programming model (AscendC::MicroAPI, CANN 9.0)
// exists only on Ascend 950 (dav-3510): on a 910B build these names are not declared. Guard such code with
// `#if __NPU_ARCH__ == 3510` and keep a LocalTensor path for the A2/A3 chips.
#include "kernel_operator.h"

using namespace AscendC;

__aicore__ inline void AddRegs(MicroAPI::MaskReg& mask)
{
    MicroAPI::RegTensor<float> a;
    MicroAPI::RegTensor<float> b;
    MicroAPI::Add(a, a, b, mask);  // expect: AKG104
}
