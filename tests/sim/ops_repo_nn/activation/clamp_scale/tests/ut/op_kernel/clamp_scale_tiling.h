// A header named like ops-math's hand-written tiling header: ops-nn's build gives the UT <op>_tiling_def.h (or the
// generated header) instead, so this one is only for a test that includes it itself; clamp_scale's does not.
#error "ops-nn's kernel-UT build does not -include <op>_tiling.h"
