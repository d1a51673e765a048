"""Single-source `.asc` programs on the simulator (akgen_lsp.sim.program): the `<<<>>>` rewrite, a whole program
with the AscendCL runtime, compile errors and runtime findings at the program's lines, a missing input file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from akgen_lsp.cli import app
from akgen_lsp.sim.program import main_returns, rewrite_launches, run_program
from akgen_lsp.sim.toolchain import run_manifest

from .conftest import marker_line, needs_gxx

PROGRAMS = Path(__file__).resolve().parent / "programs"


# --------------------------------------------------------------------------------------------------- rewrite


def test_rewrite_keeps_lines_and_handles_templates() -> None:
    src = ("int main() {\n"
           "    add<float, 4>\n"
           "        <<<n, 0, s>>>(x,\n"
           "                      y);\n"
           "    ns::k<<<1, nullptr, s>>>(a);  // k<<<2,0,s>>>(b) in a comment stays\n"
           '    const char* t = "k<<<1,0,s>>>(c)";\n'
           "}\n")
    out, lines = rewrite_launches(src)
    assert lines == [2, 5]
    assert out.count("\n") == src.count("\n")
    assert ('::akgen_sim::program_launch_kernel("add", n, 0, s, [&]() { add<float, 4>(x,\n                      y); })'
            in out)
    assert '::akgen_sim::program_launch_kernel("k", 1, nullptr, s, [&]() { ns::k(a); })' in out
    assert "// k<<<2,0,s>>>(b)" in out and '"k<<<1,0,s>>>(c)"' in out
    # the code after a rewritten launch is on the same line as before
    assert out.splitlines()[5] == src.splitlines()[5]


def test_rewrite_leaves_shifts_alone() -> None:
    src = "int f(int a) { return a << 2; }\n"
    assert rewrite_launches(src) == (src, [])


# --------------------------------------------------------------------------------------------------- programs


@needs_gxx
def test_program_round_trip(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal(512).astype(np.float32)
    y = rng.standard_normal(512).astype(np.float32)
    (tmp_path / "input").mkdir()
    (tmp_path / "output").mkdir()
    x.tofile(tmp_path / "input" / "x.bin")
    y.tofile(tmp_path / "input" / "y.bin")
    res = run_program(PROGRAMS / "vec_add.asc", tmp_path)
    assert res.status == "ok", [f.message for f in res.findings]
    assert res.exit_code == 0
    assert "sync=0" in res.stdout
    assert len(res.launches) == 1 and res.launches[0]["blocks"] == 2 and res.launches[0]["failed_blocks"] == 0
    assert res.launches[0]["line"] == 64  # the line of `vec_add<float>` (the launch spans three lines)
    z = np.fromfile(tmp_path / "output" / "z.bin", dtype=np.float32)
    np.testing.assert_array_equal(z, x + y)
    assert res.estimate is not None and res.estimate["launches"] == 1


@needs_gxx
def test_missing_input_file_is_named(tmp_path: Path) -> None:
    res = run_program(PROGRAMS / "vec_add.asc", tmp_path)
    missing = [f for f in res.findings if f.code == "SIM-PROGRAM-FILE"]
    assert missing, [f.code for f in res.findings]
    msg = missing[0].message
    assert "./input/x.bin" in msg and str(tmp_path) in msg and "gen_data.py" in msg
    assert res.status == "runtime_error"


@needs_gxx
def test_compile_error_maps_to_program_line() -> None:
    path = PROGRAMS / "compile_error.asc"
    res = run_program(path, PROGRAMS)
    assert res.status == "compile_error"
    f = res.findings[0]
    assert f.code == "CXX" and "NoSuchApi" in f.message
    assert Path(f.span.path) == path.resolve()
    assert f.span.line == marker_line(path, "CXX")


@needs_gxx
def test_out_of_bounds_device_write_at_kernel_line(tmp_path: Path) -> None:
    path = PROGRAMS / "oob_write.asc"
    res = run_program(path, tmp_path)
    assert res.status == "runtime_error"
    oob = next(f for f in res.findings if f.code == "SIM-GM-OOB-WRITE")
    assert Path(oob.span.path) == path.resolve() and oob.span.line == marker_line(path, "SIM-GM-OOB-WRITE")
    assert "aclrtMalloc@" in oob.message
    acl = next(f for f in res.findings if f.code == "SIM-ACL")
    assert acl.span.line == marker_line(path, "SIM-ACL") and "outside the device buffer" in acl.message
    # the failed block is an AI Core exception on the stream; the bad copy returns ACL_ERROR_INVALID_PARAM
    assert "sync=507015" in res.stdout and "memcpy=100000" in res.stdout
    assert res.launches[0]["failed_blocks"] == 1


@needs_gxx
def test_blocks_wait_for_later_blocks_and_deadlocks_are_reported(tmp_path: Path) -> None:
    path = PROGRAMS / "block_sync.asc"
    res = run_program(path, tmp_path)
    # launch 1: block 0 waited for block 1 (which runs after it) and saw its value
    assert "launch1 sync=0 value=42" in res.stdout, res.stdout
    # launch 2: nobody sets event 1; the wait is reported at its line and the stream reports the failed block
    assert "launch2 sync=507015" in res.stdout
    dead = next(f for f in res.findings if f.code == "SIM-SYNC-DEADLOCK")
    assert dead.span.line == marker_line(path, "SIM-SYNC-DEADLOCK") and "IBSet of block 1, event 1" in dead.message
    assert [la["failed_blocks"] for la in res.launches] == [0, 1, 0, 0]
    # launch 3: block 1 reached SyncAll while block 0 still waited in IBWait; the barrier waited for block 0
    assert "launch3 sync=0 value=7" in res.stdout
    assert not any(f.code == "SIM-SYNCALL-MISSING" for f in res.findings)
    # launch 4: the GroupBarrier waiter saw both arrivals' data
    assert "launch4 sync=0 value=30" in res.stdout
    assert res.status == "runtime_error"


@needs_gxx
def test_gm_polling_in_a_plain_kernel_run(write_manifest: Callable[..., Path], tmp_path: Path) -> None:
    manifest = write_manifest(PROGRAMS / "poll_kernel.cpp", "poll_kernel", block_dim=2, args=[
        {"name": "flag", "input": np.zeros(64, dtype=np.int32)},
        {"name": "out", "output": "out.npy", "dtype": "int32", "shape": [64]},
    ])
    res = run_manifest(manifest, tmp_path / "o", confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    assert int(np.load(res.outputs["out"])[8]) == 6


@needs_gxx
def test_cli_run_program_json(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["sim", "run-program", str(PROGRAMS / "oob_write.asc"), "--workdir",
                                      str(tmp_path), "--json"])
    assert result.exit_code == 1
    payload = json.loads(result.stdout)
    assert payload["status"] == "runtime_error" and payload["exit_code"] == 0
    assert any(f["code"] == "SIM-GM-OOB-WRITE" for f in payload["findings"])


@needs_gxx
def test_program_arguments(tmp_path: Path) -> None:
    res = run_program(PROGRAMS / "args.asc", tmp_path, args=["first", "two words"])
    assert "arg1=[first]\narg2=[two words]" in res.stdout
    assert res.exit_code == 2 and res.status == "runtime_error"  # main returned 2
    assert any(f.code == "SIM-PROGRAM-EXIT" for f in res.findings)
    result = CliRunner().invoke(app, ["sim", "run-program", str(PROGRAMS / "args.asc"), "--workdir", str(tmp_path),
                                      "--", "x"])
    assert "arg1=[x]" in result.stdout and result.exit_code == 1


def test_main_with_const_argv(tmp_path: Path) -> None:
    res = run_program(PROGRAMS / "args_const.asc", tmp_path, args=["one"])
    assert res.status == "ok", [f.message for f in res.findings]
    assert "arg1=[one]" in res.stdout


def test_missing_program_and_workdir(tmp_path: Path) -> None:
    res = run_program(tmp_path / "nope.asc", tmp_path)
    assert res.status == "compile_error" and "no such file" in res.findings[0].message
    res = run_program(PROGRAMS / "vec_add.asc", tmp_path / "absent")
    assert res.status == "runtime_error" and "--workdir" in res.findings[0].message


@pytest.mark.parametrize("name", ["vec_add.asc", "oob_write.asc", "compile_error.asc"])
def test_programs_have_markers_or_launches(name: str) -> None:
    _, lines = rewrite_launches((PROGRAMS / name).read_text(encoding="utf-8"))
    assert len(lines) == 1


def test_main_without_return_exits_zero(tmp_path: Path) -> None:
    # reaching main's end returns 0; the renamed main (akgen_user_main) gets the `return 0;` that C++ implies, on
    # the brace's line (it used to run on past its end and crash in the string's destructor)
    assert main_returns("int main() {\n  f();\n}\n") == "int main() {\n  f();\nreturn 0;}\n"
    assert main_returns("int main();\nint g() { return 1; }\n") == "int main();\nint g() { return 1; }\n"
    res = run_program(PROGRAMS / "main_no_return.asc", tmp_path)
    assert res.status == "ok" and res.exit_code == 0, [f.message for f in res.findings]
    assert "a name long enough to live on the heap" in res.stdout
