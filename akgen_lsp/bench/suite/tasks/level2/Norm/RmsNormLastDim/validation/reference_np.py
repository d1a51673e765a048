"""numpy reference of RmsNormLastDim: compute in float32, round to the output dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32


def reference(param, x, g0):
    x = f32(x)
    g0 = f32(g0)
    eps = float(param.get("eps", 1e-06))
    result = x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + np.float32(eps)) * g0
    return cast(np.asarray(result, dtype=np.float32), param.get("dtype", "float16"))
