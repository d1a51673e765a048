"""numpy reference of ArangeCreation: compute in float32, round to the output dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32
from akgen_lsp.bench.tasks import parse_shape


def reference(param):
    shape = parse_shape(param.get("shape", "[1]"))
    start = float(param.get("start", -3.0))
    step = float(param.get("step", 0.25))
    result = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) * np.float32(step) + np.float32(
        start
    )
    return cast(np.asarray(result, dtype=np.float32), param.get("dtype", "float16"))


__all__ = ["cast", "f32", "parse_shape", "reference"]
