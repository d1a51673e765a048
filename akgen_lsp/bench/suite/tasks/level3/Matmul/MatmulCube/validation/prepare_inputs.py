"""Inputs of MatmulCube for one test case (numpy; the harness seeds numpy's generator)."""

from akgen_lsp.bench import npref

USES_CUBE = True


def get_inputs(param, device=None):
    m, k, n = int(param["m"]), int(param["k"]), int(param["n"])
    dtype = param.get("dtype", "float16")
    return (
        npref.randn((m, k), dtype, 0.25),
        npref.randn((k, n), dtype, 0.25),
    )


def get_init_inputs(param, device=None):
    return []


def tolerance(param):
    return npref.matmul_tolerance(param.get("dtype", "float16"), int(param["k"]))


def flops(param):
    return 2 * int(param["m"]) * int(param["k"]) * int(param["n"])
