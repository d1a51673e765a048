"""The cann toolchain's pieces that run without CANN: detection, op description, project plan, compile criterion,
build-log parsing (on constructed fixtures, see fixtures/cann/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

from akgen_lsp.bench.cann import (
    BUILD_TIMEOUT_S,
    cann_home,
    compile_succeeded,
    op_description,
    parse_build_log,
    plan_project,
    select_toolchain,
)
from akgen_lsp.bench.tasks import Task, discover_tasks

FIX = Path(__file__).parent / "fixtures" / "cann"


def test_detection(tmp_path: Path) -> None:
    assert cann_home({}) is None
    assert cann_home({"ASCEND_HOME_PATH": str(tmp_path)}) is None  # not a CANN tree
    (tmp_path / "compiler").mkdir()
    assert cann_home({"ASCEND_HOME_PATH": str(tmp_path)}) == tmp_path
    assert select_toolchain("auto", {"ASCEND_HOME_PATH": str(tmp_path)}) == "cann"
    assert select_toolchain("auto", {}) == "sim"
    assert select_toolchain("sim", {"ASCEND_HOME_PATH": str(tmp_path)}) == "sim"


def test_op_description_from_the_opdef(add_task: Task, suite: Path) -> None:
    desc = op_description(add_task.answers[0].host.read_text())
    op = desc[0]
    assert op["op"] == "AddMath" and op["language"] == "cpp"
    assert [i["name"] for i in op["input_desc"]] == ["x", "y"] and op["output_desc"][0]["name"] == "z"
    assert op["input_desc"][0]["type"] == ["fp16", "bf16", "fp32"] and op["input_desc"][0]["format"] == ["ND"] * 3
    leaky = discover_tasks(suite, names=["LeakyReluActivation"])[0]
    attr = op_description(leaky.answers[0].host.read_text())[0]["attr"]
    assert attr == [{"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": "0.01"}]


def test_project_plan_and_commands(tmp_path: Path, add_task: Task) -> None:
    a = add_task.answers[0]
    plan = plan_project(tmp_path, "add_math", a.host.read_text(), a.kernel.read_text(), a.tiling_header.read_text())
    gen, build = plan.commands
    assert gen[0][:2] == ["msopgen", "gen"] and "ai_core-ascend910b" in gen[0] and gen[0][-1] == str(plan.project)
    assert build == (["bash", "build.sh"], plan.project, BUILD_TIMEOUT_S)
    assert json.loads(plan.files[str(tmp_path / "add_math.json")])[0]["op"] == "AddMath"
    assert str(plan.project / "op_kernel" / "add_math.cpp") in plan.files


def test_compile_criterion(tmp_path: Path) -> None:
    proj = tmp_path / "p"
    assert compile_succeeded(proj, "AddMath")["ok"] is False
    (proj / "build").mkdir(parents=True)
    (proj / "build" / "kernel_gen_ops.cpython-311-x86_64-linux-gnu.so").write_text("")
    lib = proj / "build_out" / "pkg" / "vendors" / "customize" / "op_api" / "lib"
    lib.mkdir(parents=True)
    (lib / "libcust_opapi.so").write_text("")
    got = compile_succeeded(proj, "AddMath")
    assert got["pybind_so"] and got["libcust_opapi_so"] and not got["kernel_o"]
    k = proj / "build_out" / "pkg" / "vendors" / "customize" / "op_impl" / "kernel" / "AddMath_1a2b.o"
    k.parent.mkdir(parents=True)
    k.write_text("")
    assert compile_succeeded(proj, "AddMath")["ok"]


def test_parse_bisheng_cmake_and_link_logs() -> None:
    user = {"/tmp/work/project/op_kernel/add_math.cpp": "kernels/add_math.cpp"}
    fs = parse_build_log((FIX / "bisheng_errors.log").read_text(), user)
    assert [(f.span.path, f.span.line, f.span.column) for f in fs] == [("kernels/add_math.cpp", 41, 9),
                                                                        ("kernels/add_math.cpp", 57, 26)]
    assert fs[0].error_class == "api_mismatch" and fs[0].source == "akgen-build"
    assert fs[1].error_class == "dtype"
    cm = parse_build_log((FIX / "cmake_error.log").read_text())
    assert len(cm) == 1 and cm[0].code == "CMAKE" and "ASCEND_CANN_PACKAGE_PATH" in cm[0].message
    assert cm[0].span.path == "cmake/config.cmake" and cm[0].span.line == 12
    ld = parse_build_log((FIX / "link_error.log").read_text())
    assert len(ld) == 1 and ld[0].code == "LINK" and "TilingFuncMissing" in ld[0].message
    assert parse_build_log("all good\n") == []
