"""The golden of axpb: y = 2 * x + 1 (the coefficients the kernel unit test sets)."""
import numpy as np

__golden__ = {"kernel": {"axpb": "axpb_golden"}}


def axpb_golden(x, **kwargs):
    return (2 * x.astype(np.float32) + 1).astype(x.dtype)
