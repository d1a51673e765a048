"""numpy reference of AddMath: compute in float32, round to the output dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32
from akgen_lsp.bench.tasks import parse_shape


def reference(param, x0, x1):
    x0 = f32(x0)
    x1 = f32(x1)
    result = x0 + x1
    return cast(np.asarray(result, dtype=np.float32), param.get("dtype", "float16"))


__all__ = ["cast", "f32", "parse_shape", "reference"]
