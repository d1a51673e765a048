// akgen sim host side: exe_graph/runtime/compute_node_info.h of CANN's metadef. gert's host types (Shape, StorageShape,
// StorageFormat, Tensor, RuntimeAttrs, ComputeNodeInfo and the contexts) are defined together in
// akgen_sim/host/tiling_context.h; this name reaches them. (include/opbase: searched after a repository's own folders.)
#pragma once
#include "../../../akgen_sim/host/tiling_context.h"
