// akgen sim: the AscendCL host runtime header. Kernels that include it (for types only) compile; the host runtime
// calls themselves (aclrtMalloc, aclrtMemcpy, streams) are not emulated: the simulator's launcher does their job.
#pragma once

#include <cstddef>
#include <cstdint>

using aclError = int;
constexpr aclError ACL_SUCCESS = 0;
using aclrtStream = void*;
using aclrtContext = void*;
// The host runtime calls, emulated for `.asc` programs (akgen sim run-program): akgen_sim/acl_runtime.h.
#include "akgen_sim/acl_runtime.h"
