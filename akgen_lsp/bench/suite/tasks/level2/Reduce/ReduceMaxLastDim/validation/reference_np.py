"""numpy reference of ReduceMaxLastDim: compute in float32, round to the output dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32


def reference(param, x):
    x = f32(x)
    result = x.max(axis=-1)
    return cast(np.asarray(result, dtype=np.float32), param.get("dtype", "float16"))
