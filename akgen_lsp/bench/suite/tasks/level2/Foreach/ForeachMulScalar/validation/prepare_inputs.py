"""Inputs of ForeachMulScalar: three tensors of the case's shape (numpy; the harness seeds numpy's generator)."""

from akgen_lsp.bench import npref
from akgen_lsp.bench.tasks import parse_shape


def get_inputs(param, device=None):
    shape = parse_shape(param.get("shape", "[1]"))
    dtype = param.get("dtype", "float16")
    return tuple(npref.randn(shape, dtype) for _ in range(3))


def get_init_inputs(param, device=None):
    return [float(param.get("scalar", 1.5))]


def tolerance(param):
    return npref.tolerance(param.get("dtype", "float16"))


def flops(param):
    return 3 * npref.elements(parse_shape(param.get("shape", "[1]")))
