"""numpy reference of ReduceSumLastDim: compute in float32, round to the output dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32


def reference(param, x):
    x = f32(x)
    result = x.sum(axis=-1, dtype=np.float32)
    return cast(np.asarray(result, dtype=np.float32), param.get("dtype", "float16"))
