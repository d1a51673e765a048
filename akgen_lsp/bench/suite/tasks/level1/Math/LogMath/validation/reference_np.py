"""numpy reference of LogMath: compute in float32, round to the output dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32
from akgen_lsp.bench.tasks import parse_shape


def reference(param, x0):
    x0 = f32(x0)
    result = np.log(x0)
    return cast(np.asarray(result, dtype=np.float32), param.get("dtype", "float16"))


__all__ = ["cast", "f32", "parse_shape", "reference"]
