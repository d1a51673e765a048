"""numpy reference of MatmulCube: float32 products and sums, rounded to the dtype of a."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32


def reference(param, a, b):
    c = f32(a) @ f32(b)
    return cast(np.asarray(c, dtype=np.float32), param.get("dtype", "float16"))
