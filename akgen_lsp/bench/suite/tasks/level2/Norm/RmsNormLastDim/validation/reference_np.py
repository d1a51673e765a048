"""numpy reference of RmsNormLastDim: compute in float32, round to the output dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32, rms_norm


def reference(param, x, g0):
    x = f32(x)
    g0 = f32(g0)
    eps = float(param.get("eps", 1e-06))
    result = rms_norm(x, g0, eps)
    return cast(np.asarray(result, dtype=np.float32), param.get("dtype", "float16"))
