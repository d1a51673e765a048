"""Inputs of SoftmaxLastDim for one test case (numpy; the harness seeds numpy's generator)."""

from akgen_lsp.bench import npref
from akgen_lsp.bench.tasks import parse_shape


def get_inputs(param, device=None):
    shape = parse_shape(param.get("shape", "[1]"))
    dtype = param.get("dtype", "float16")
    return (npref.randn(shape, dtype),)


def get_init_inputs(param, device=None):
    return []


def tolerance(param):
    return npref.tolerance(param.get("dtype", "float16"))


def flops(param):
    return npref.elements(parse_shape(param.get("shape", "[1]"))) * 5
