"""numpy reference of ForeachMulScalar: each tensor times the scalar in float32, rounded to the dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32


def reference(param, x0, x1, x2):
    scalar = np.float32(param.get("scalar", 1.5))
    dtype = param.get("dtype", "float16")
    return tuple(cast(f32(x) * scalar, dtype) for x in (x0, x1, x2))
