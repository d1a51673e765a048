"""numpy reference of SoftmaxLastDim: compute in float32, round to the output dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32


def reference(param, x):
    x = f32(x)
    result = np.exp(x - x.max(axis=-1, keepdims=True)) / np.exp(x - x.max(axis=-1, keepdims=True)).sum(
        axis=-1, keepdims=True
    )
    return cast(np.asarray(result, dtype=np.float32), param.get("dtype", "float16"))
