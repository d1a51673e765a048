"""numpy reference of GeluTanh: compute in float32, round to the output dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32
from akgen_lsp.bench.tasks import parse_shape


def reference(param, x0):
    x0 = f32(x0)
    result = x0 / (
        np.float32(1)
        + np.exp(np.float32(-1.5957691216057308) * (x0 * (np.float32(1) + np.float32(0.044715) * x0 * x0)))
    )
    return cast(np.asarray(result, dtype=np.float32), param.get("dtype", "float16"))


__all__ = ["cast", "f32", "parse_shape", "reference"]
