"""Inputs of EqualCompare for one test case (numpy; the harness seeds numpy's generator)."""

import numpy as np

from akgen_lsp.bench import npref
from akgen_lsp.bench.tasks import parse_shape


def get_inputs(param, device=None):
    shape = parse_shape(param.get("shape", "[1]"))
    dtype = param.get("dtype", "float16")
    return tuple(npref.cast(np.random.randint(-3, 4, shape).astype(np.float32), dtype) for i in range(2))


def get_init_inputs(param, device=None):
    return []


def tolerance(param):
    return npref.tolerance("bool")


def flops(param):
    return npref.elements(parse_shape(param.get("shape", "[1]"))) * 2
