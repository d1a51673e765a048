"""numpy reference of ClampCondition: compute in float32, round to the output dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32
from akgen_lsp.bench.tasks import parse_shape


def reference(param, x0):
    x0 = f32(x0)
    min_val = float(param.get("min_val", -0.5))
    max_val = float(param.get("max_val", 0.75))
    result = np.minimum(np.maximum(x0, np.float32(min_val)), np.float32(max_val))
    return cast(np.asarray(result, dtype=np.float32), param.get("dtype", "float16"))


__all__ = ["cast", "f32", "parse_shape", "reference"]
