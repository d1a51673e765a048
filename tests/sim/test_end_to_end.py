"""The vertical slice: the add kernel compiles against our headers, runs its blocks, matches numpy, and the CLI prints
the documented result."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from akgen_lsp.cli import app
from akgen_lsp.sim import SimToolchain, run_manifest
from akgen_lsp.sim.toolchain import options_for

from .conftest import KERNELS, needs_gxx

pytestmark = needs_gxx

ADD = KERNELS / "add_queue.cpp"


def add_args(x: np.ndarray, y: np.ndarray, dtype: str, tiles: int = 4) -> list[dict]:
    n = x.size
    return [
        {"name": "x", "input": x},
        {"name": "y", "input": y},
        {"name": "z", "output": "z.npy", "dtype": dtype, "shape": [n]},
        {"name": "n", "scalar": n, "type": "uint32_t"},
        {"name": "t", "scalar": tiles, "type": "uint32_t"},
    ]


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_add_matches_numpy(write_manifest, tmp_path: Path, dtype: str) -> None:
    rng = np.random.default_rng(0)
    n = 8 * 2048
    x = rng.standard_normal(n).astype(dtype)
    y = rng.standard_normal(n).astype(dtype)
    m = write_manifest(ADD, "add_custom", add_args(x, y, dtype), block_dim=8,
                       defines={"DTYPE_X": "half" if dtype == "float16" else "float"})
    res = run_manifest(m, tmp_path / "out", confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    z = np.load(res.outputs["z"])
    # half arithmetic rounds once per op, exactly like numpy's float16 add
    np.testing.assert_array_equal(z, x + y)
    assert res.estimate is not None and res.estimate["us"] > 0
    assert res.estimate["label"] == "estimate"
    assert res.estimate["bound"] in {"MTE2", "MTE3", "V", "HBM", "S"}
    trace = json.loads(Path(res.trace).read_text())
    names = {e["name"] for e in trace["traceEvents"] if e["ph"] == "X"}
    assert {"DataCopy", "Add"} <= names


def test_cli_json_and_exit_status(write_manifest, tmp_path: Path) -> None:
    x = np.arange(2048, dtype=np.float32)
    local = tmp_path / ADD.name  # `akgen sim run` confines a manifest to its folder: the source sits beside it
    local.write_text(ADD.read_text(encoding="utf-8"), encoding="utf-8")
    m = write_manifest(local, "add_custom", add_args(x, x, "float32", tiles=1), block_dim=1,
                       defines={"DTYPE_X": "float"})
    out = tmp_path / "cli"
    r = CliRunner().invoke(app, ["sim", "run", str(m), "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    payload = json.loads(r.output)
    assert set(payload) >= {"status", "findings", "outputs", "estimate", "trace"}
    assert payload["status"] == "ok"
    assert set(payload["estimate"]) >= {"us", "arch", "pipes", "bound"}
    np.testing.assert_array_equal(np.load(payload["outputs"]["z"]), 2 * x)
    assert (out / "result.json").is_file()


def test_cache_hit_and_toolchain_interface(write_manifest, tmp_path: Path) -> None:
    from akgen_lsp.sim import load_manifest

    x = np.ones(2048, dtype=np.float32)
    m = load_manifest(write_manifest(ADD, "add_custom", add_args(x, x, "float32", tiles=1),
                                     defines={"DTYPE_X": "float"}), confine=False)
    tc = SimToolchain()
    first = tc.compile(m.sources, options_for(m))
    second = tc.compile(m.sources, options_for(m))
    assert first.ok and second.ok
    assert second.cached and second.key == first.key
    run = tc.run(second, m, tmp_path / "o")
    assert run.status == "ok"
    np.testing.assert_array_equal(np.load(run.outputs["z"]), 2 * x)


def test_compile_error_at_user_line(write_manifest, tmp_path: Path) -> None:
    src = tmp_path / "bad.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   'extern "C" __global__ __aicore__ void bad(GM_ADDR x)\n'
                   '{\n'
                   '    AscendC::LocalTensor<float> t;\n'
                   '    AscendC::Softmax(t, t, 8);\n'
                   '}\n')
    m = write_manifest(src, "bad", [{"name": "x", "input": np.zeros(8, dtype=np.float32)}])
    res = run_manifest(m, confine=False)
    assert res.status == "compile_error"
    f = res.findings[0]
    assert (f.code, f.source, f.span.path, f.span.line) == ("CXX", "akgen-build", str(src), 5)
    assert f.error_class == "hallucinated_api" and "Softmax" in f.message


def test_dtype_static_assert_lands_on_user_line(write_manifest, tmp_path: Path) -> None:
    src = tmp_path / "dtype.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x)\n'
                   '{\n'
                   '    AscendC::LocalTensor<int32_t> t;\n'
                   '    AscendC::Div(t, t, t, 8);\n'
                   '}\n')
    res = run_manifest(write_manifest(src, "k", [{"name": "x", "input": np.zeros(8, dtype=np.float32)}]), confine=False)
    assert res.status == "compile_error"
    f = next(f for f in res.findings if "Failed to check dtype in Div" in f.message)
    assert f.span.path == str(src) and f.span.line == 5 and f.error_class == "dtype"


@pytest.mark.parametrize(("data", "words"), [
    ({"kernel": "k"}, "sources"),
    ({"sources": ["missing.cpp"], "kernel": "k"}, "file not found"),
    ({"sources": [ADD.name], "kernel": "k", "block_dim": 0}, "block_dim"),
    ({"sources": [ADD.name], "kernel": "k", "args": [{"name": "z", "output": "z.npy"}]}, "dtype"),
])
def test_malformed_manifest_names_the_field(tmp_path: Path, data: dict, words: str) -> None:
    (tmp_path / ADD.name).write_text(ADD.read_text(encoding="utf-8"), encoding="utf-8")
    p = tmp_path / "m.json"
    p.write_text(json.dumps(data))
    res = run_manifest(p, confine=False)
    assert res.status != "ok"
    assert res.findings[0].code == "SIM-MANIFEST" and words in res.findings[0].message
    r = CliRunner().invoke(app, ["sim", "run", str(p)])
    assert r.exit_code == 1 and words in r.output


SAMPLES = Path(__file__).resolve().parents[2] / "samples"


@pytest.mark.skipif(not (SAMPLES / "add_custom_op").is_dir(), reason="samples/add_custom_op not present")
def test_custom_op_with_host_tiling_func(write_manifest, tmp_path: Path) -> None:
    """The op_host TilingFunc runs on the input shape, picks block dim and tiling; the kernel reads it with
    GET_TILING_DATA and DTYPE_X comes from the input's dtype."""
    shape = [8, 128, 512]
    x = np.random.default_rng(2).standard_normal(shape).astype(np.float16)
    op = SAMPLES / "add_custom_op"
    m = write_manifest(op / "op_kernel" / "add_custom.cpp", "add_custom", [
        {"name": "x", "input": x}, {"name": "y", "input": x},
        {"name": "z", "output": "z.npy", "dtype": "float16", "shape": shape},
        {"name": "workspace", "workspace_bytes": 0},
        {"name": "tiling", "tiling": {"host": str(op / "op_host" / "add_custom.cpp")}},
    ])
    data = json.loads(m.read_text())
    del data["block_dim"]  # the TilingFunc decides
    m.write_text(json.dumps(data))
    res = run_manifest(m, tmp_path / "o", confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["z"]), x + x)
    assert res.estimate["blocks"] > 1


@pytest.mark.skipif(not (SAMPLES / "kernels" / "add_custom.cpp").is_file(), reason="samples not present")
def test_add_sample_runs_unchanged(write_manifest, tmp_path: Path) -> None:
    n = 48 * 128 * 512
    x = np.random.default_rng(3).standard_normal(n).astype(np.float16)
    m = write_manifest(SAMPLES / "kernels" / "add_custom.cpp", "add_custom", [
        {"name": "x", "input": x}, {"name": "y", "input": x},
        {"name": "z", "output": "z.npy", "dtype": "float16", "shape": [n]},
        {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "workspace_bytes": 0},
    ], block_dim=48)
    res = run_manifest(m, tmp_path / "o", confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["z"]), x + x)


SCALE = KERNELS / "scale_op"


@pytest.mark.parametrize(("plus_one", "offset"), [(False, 0.0), (True, 1.0)])
def test_host_tiling_attrs_key_and_impl_op_registration(write_manifest, tmp_path: Path, plus_one: bool,
                                                         offset: float) -> None:
    """IMPL_OP_OPTILING in one file, OpDef in another; float and bool attributes by name; the tiling key and block
    dim from the TilingFunc; the optiling struct named unqualified in the kernel; system workspace."""
    x = np.arange(8 * 256, dtype=np.float32)
    m = write_manifest(SCALE / "op_kernel" / "scale.cpp", "scale", [
        {"name": "x", "input": x},
        {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [x.size]},
        {"name": "workspace", "workspace_bytes": 0},
        {"name": "tiling", "tiling": {"host": str(SCALE / "op_host" / "scale.cpp"),
                                      "attrs": {"alpha": 0.5, "plus_one": plus_one}}},
    ])
    data = json.loads(m.read_text())
    del data["block_dim"]
    m.write_text(json.dumps(data))
    res = run_manifest(m, tmp_path / "o", confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["y"]), x * 0.5 + offset)
    assert res.estimate["blocks"] == 8


def test_host_tiling_failure_is_reported(write_manifest, tmp_path: Path) -> None:
    x = np.ones(100, dtype=np.float32)  # not a multiple of 8 x 64: the TilingFunc refuses it
    m = write_manifest(SCALE / "op_kernel" / "scale.cpp", "scale", [
        {"name": "x", "input": x},
        {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [100]},
        {"name": "workspace", "workspace_bytes": 0},
        {"name": "tiling", "tiling": {"host": str(SCALE / "op_host" / "scale.cpp")}},
    ])
    res = run_manifest(m, tmp_path / "o", confine=False)
    assert res.status == "runtime_error"
    assert res.findings[0].code == "SIM-HOST" and "GRAPH_FAILED" in res.findings[0].message


def test_api_address_taken_as_template_argument(write_manifest, tmp_path: Path) -> None:
    """Foreach-style kernels pass `Add<T>` / `Exp<T>` as function pointers of CANN's exact signature."""
    src = tmp_path / "fp.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n'
        'using namespace AscendC;\n'
        'template <typename T, void (*Op)(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,\n'
        '                                 const int32_t&)>\n'
        '__aicore__ inline void Run(GM_ADDR x, GM_ADDR z) {\n'
        '    TPipe pipe; TBuf<TPosition::VECCALC> b;\n'
        '    pipe.InitBuffer(b, 2 * 64 * sizeof(T));\n'
        '    GlobalTensor<T> xg, zg; xg.SetGlobalBuffer((__gm__ T*)x, 64); zg.SetGlobalBuffer((__gm__ T*)z, 64);\n'
        '    LocalTensor<T> a = b.Get<T>(); LocalTensor<T> c = a[64];\n'
        '    DataCopy(a, xg, 64);\n'
        '    Op(c, a, a, 64);\n'
        '    DataCopy(zg, c, 64);\n'
        '}\n'
        'extern "C" __global__ __aicore__ void fp(GM_ADDR x, GM_ADDR z) { Run<float, Mul<float>>(x, z); }\n')
    x = np.arange(64, dtype=np.float32)
    m = write_manifest(src, "fp", [{"name": "x", "input": x},
                                   {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [64]}])
    res = run_manifest(m, tmp_path / "o", confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["z"]), x * x)


def test_reading_into_allocation_padding_is_a_warning(write_manifest, tmp_path: Path) -> None:
    """A 1-element tensor copied as one 32-byte block (as reference kernels do): harmless on the NPU, whose allocator
    works in 512-byte steps, so a warning; past the allocation it is an error."""
    src = tmp_path / "pad.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n'
        'using namespace AscendC;\n'
        'extern "C" __global__ __aicore__ void pad(GM_ADDR x, GM_ADDR z, int32_t far) {\n'
        '    TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 32);\n'
        '    GlobalTensor<float> xg, zg; xg.SetGlobalBuffer((__gm__ float*)x, 1); zg.SetGlobalBuffer((__gm__ float*)z, 1);\n'
        '    LocalTensor<float> v = b.Get<float>();\n'
        '    DataCopy(v, xg[far ? 256 : 0], 8);\n'
        '    PipeBarrier<PIPE_ALL>();\n'
        '    zg.SetValue(0, v.GetValue(0) * 2);\n'
        '}\n')
    for far, status, code in ((0, "ok", "SIM-GM-PAD-READ"), (1, "runtime_error", "SIM-GM-OOB-READ")):
        m = write_manifest(src, "pad", [{"name": "x", "input": np.array([3.0], dtype=np.float32)},
                                        {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [1]},
                                        {"name": "far", "scalar": far, "type": "int32_t"}])
        res = run_manifest(m, tmp_path / f"o{far}", confine=False)
        assert res.status == status and res.findings[0].code == code and res.findings[0].span.line == 7
    assert np.load(tmp_path / "o0" / "z.npy")[0] == 6.0


def test_overloads_stay_unambiguous(tmp_path: Path) -> None:
    """Direct calls with int32_t / const int32_t& / uint32_t counts and scalars of the element type pick one overload;
    the pointer-compatible overloads exist only for taking an API's address."""
    from akgen_lsp.sim.build import compile_kernel
    from akgen_lsp.sim.build_types import BuildOptions

    src = tmp_path / "amb.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n'
        'using namespace AscendC;\n'
        'template <typename T, void (*F)(const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&)>\n'
        'void sc(LocalTensor<T>& a) { F(a, a, T(1), 4); }\n'
        'extern "C" __global__ __aicore__ void amb(GM_ADDR x, int32_t n) {\n'
        '    LocalTensor<int16_t> s; LocalTensor<half> h; LocalTensor<float> f; const int32_t& cn = n;\n'
        '    uint32_t u = 4;\n'
        '    if (n > 0) return;\n'
        '    Maxs(s, s, (int16_t)1, n); Adds(s, s, (int16_t)1, cn); Muls(h, h, 2.0f, n); Muls(f, f, 2.0f, u);\n'
        '    Add(f, f, f, n); Add(f, f, f, cn); Exp(f, f, n); Exp(f, f, cn); Tanh(f, f, u);\n'
        '    sc<half, Muls<half>>(h); sc<float, Adds<float>>(f);\n'
        '}\n')
    b = compile_kernel([src], BuildOptions(kernel="amb", signature=[{"kind": "gm_in", "ctype": "GM_ADDR"},
                                                                    {"kind": "scalar", "ctype": "int32_t"}]))
    assert b.ok, [f.message for f in b.findings]
