// akgen sim: CPU emulation of the Ascend C API. A kernel includes this exactly as on the NPU.
// Layout (like the real API): akgen_sim/types.h (keywords, half/bf16, enums), runtime.h (per-block context,
// findings, cost model), tensor.h, pipe.h, data_copy.h, vec_*.h, sync.h, tiling.h, misc.h.
#ifndef AKGEN_SIM_KERNEL_OPERATOR_H
#define AKGEN_SIM_KERNEL_OPERATOR_H

#include <cassert>
#include <cstdint>
#include <type_traits>
#include <tuple>

#include "akgen_sim/types.h"
#include "akgen_sim/runtime.h"
#include "akgen_sim/tensor.h"
#include "akgen_sim/pipe.h"
#include "akgen_sim/bufpool.h"
#include "akgen_sim/data_copy.h"
#include "akgen_sim/vec_engine.h"
#include "akgen_sim/vec_binary.h"
#include "akgen_sim/vec_unary.h"
#include "akgen_sim/vec_scalar.h"
#include "akgen_sim/vec_misc.h"
#include "akgen_sim/vec_cmpsel.h"
#include "akgen_sim/vec_reduce.h"
#include "akgen_sim/vec_math.h"
#include "akgen_sim/cube.h"
#include "akgen_sim/cube_load3d.h"
#include "akgen_sim/adv_softmax.h"
#include "akgen_sim/adv_layernorm.h"
#include "akgen_sim/adv_select.h"
#include "akgen_sim/sync.h"
#include "akgen_sim/tiling.h"
#include "akgen_sim/misc.h"
#include "akgen_sim/intrinsics.h"
#include "akgen_sim/cce_intrinsics.h"
#include "akgen_sim/adv_reduce.h"
#include "akgen_sim/adv_broadcast.h"
#include "akgen_sim/vec_gather.h"
#include "akgen_sim/vec_transpose.h"
#include "akgen_sim/lib_internal.h"
#include "akgen_sim/adv_exp.h"
#include "akgen_sim/list_tensor.h"
#include "akgen_sim/adv_power.h"
#include "akgen_sim/adv_elementwise.h"
#include "akgen_sim/adv_quant.h"
#include "akgen_sim/adv_reduce_pattern.h"
#include "akgen_sim/vec_transpose_gatherb.h"
#include "akgen_sim/adv_softmax_adjust.h"
#include "akgen_sim/adv_softmax_grad.h"
#include "akgen_sim/adv_cumsum.h"
#include "akgen_sim/vec_sort.h"
#include "akgen_sim/adv_softmax_flash.h"
#include "akgen_sim/adv_logsoftmax_flashv3.h"
#include "akgen_sim/adv_math_950.h"
#include "akgen_sim/cann9_alloc.h"
#include "akgen_sim/adv_normalization.h"
#include "akgen_sim/adv_pad_quant_transpose.h"
#include "akgen_sim/data_copy_slice.h"
#include "akgen_sim/adv_gelu.h"
#include "akgen_sim/debug_dump.h"
#include "akgen_sim/scalar_api.h"
#include "akgen_sim/vec_muladddst.h"
#include "akgen_sim/data_copy_raw.h"
#include "akgen_sim/cube_co1_copy.h"

// CANN's CPU-debug headers bring <iostream> to kernels: their UT-only code (under __CCE_KT_TEST__, which only a kernel
// UT build defines) writes std::cout. Not in other builds: <string> in every kernel's view costs compile time (see
// tests/sim/test_kernel_view.py); a build that defines the macro does without the precompiled header.
#if defined(__CCE_KT_TEST__)
#include <iostream>
#endif

#endif
