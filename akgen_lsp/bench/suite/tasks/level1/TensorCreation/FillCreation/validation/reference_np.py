"""numpy reference of FillCreation: compute in float32, round to the output dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32
from akgen_lsp.bench.tasks import parse_shape


def reference(param):
    shape = parse_shape(param.get("shape", "[1]"))
    value = float(param.get("value", 2.5))
    result = np.full(shape, np.float32(value), np.float32)
    return cast(np.asarray(result, dtype=np.float32), param.get("dtype", "float16"))


__all__ = ["cast", "f32", "parse_shape", "reference"]
