"""numpy reference of LayerNormLastDim: compute in float32, round to the output dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32, layer_norm


def reference(param, x, g0, g1):
    x = f32(x)
    g0 = f32(g0)
    g1 = f32(g1)
    eps = float(param.get("eps", 1e-05))
    result = layer_norm(x, g0, g1, eps)
    return cast(np.asarray(result, dtype=np.float32), param.get("dtype", "float16"))
