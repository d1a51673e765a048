"""numpy reference of MseLoss: mean of squared differences in float32 (float64 accumulation), rounded to the dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32


def reference(param, x, y):
    d = f32(x).astype(np.float64) - f32(y).astype(np.float64)
    return cast(np.asarray(np.mean(d * d), dtype=np.float32), param.get("dtype", "float16"))
