"""The cann toolchain's pieces that need no CANN: detection, the msopgen op description, the compile criterion, the
compute unit."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.bench.cann import (
    cann_home,
    compile_succeeded,
    compute_unit,
    detect_cann,
    op_description,
    select_toolchain,
)
from akgen_lsp.bench.tasks import Task, discover_tasks


def _cann(tmp_path: Path) -> Path:
    b = tmp_path / "compiler" / "ccec_compiler" / "bin"
    b.mkdir(parents=True)
    (b / "bisheng").write_text("")
    return tmp_path


def test_detection(tmp_path: Path) -> None:
    assert cann_home({}) is None
    (tmp_path / "compiler").mkdir()
    assert cann_home({"ASCEND_HOME_PATH": str(tmp_path)}) is None  # a folder named compiler is not a compiler
    home = _cann(tmp_path)
    assert cann_home({"ASCEND_HOME_PATH": str(home)}) == home
    assert select_toolchain("auto", {"ASCEND_HOME_PATH": str(home)}) == "cann"
    assert select_toolchain("auto", {}) == "sim"
    assert select_toolchain("sim", {"ASCEND_HOME_PATH": str(home)}) == "sim"
    assert select_toolchain("cann", {}) == "cann"


def test_detect_cann_explains_what_is_missing(tmp_path: Path) -> None:
    assert "source the set_env.sh" in detect_cann({}).explain()
    assert "is not a directory" in detect_cann({"ASCEND_HOME_PATH": str(tmp_path / "nope")}).explain()
    found = detect_cann({"ASCEND_HOME_PATH": str(tmp_path), "PATH": ""})
    assert not found.usable and "no bisheng" in found.explain() and "cmake is not on PATH" in found.explain()
    home = _cann(tmp_path)
    (home / "compiler" / "version.info").write_text("Version=8.3.RC1\n")
    ok = detect_cann({"ASCEND_HOME_PATH": str(home), "PATH": "/usr/bin:/bin"})
    assert ok.usable == (ok.cmake is not None) and ok.version == "8.3.RC1" and ok.msopgen is None


def test_compute_unit() -> None:
    assert compute_unit("Ascend910B2") == "ascend910b" and compute_unit("Ascend910B4") == "ascend910b"
    assert compute_unit("Ascend910_93") == "ascend910_93" and compute_unit("Ascend310P3") == "ascend310p"


def test_op_description_from_the_opdef(add_task: Task, suite: Path) -> None:
    desc = op_description(add_task.answers[0].host.read_text())
    op = desc[0]
    assert op["op"] == "AddMath" and set(op) == {"op", "input_desc", "output_desc"}  # the documented keys
    assert [i["name"] for i in op["input_desc"]] == ["x", "y"] and op["output_desc"][0]["name"] == "z"
    # msopgen's spelling (asc-devkit 创建算子工程: "float16", "float", "int32"), not ge::DataType names
    assert op["input_desc"][0]["type"] == ["float16", "bfloat16", "float"]
    assert op["input_desc"][0]["format"] == ["ND"] * 3
    leaky = discover_tasks(suite, names=["LeakyReluActivation"])[0]
    attr = op_description(leaky.answers[0].host.read_text())[0]["attr"]
    assert attr == [{"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": 0.01}]


def test_op_description_attr_kinds_and_no_opdef() -> None:
    src = """class MyOp : public OpDef {
    explicit MyOp(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Attr("axis").AttrType(REQUIRED).Int(-1);
        this->Attr("keep").AttrType(OPTIONAL).Bool(true);
        this->Attr("dims").AttrType(OPTIONAL).ListInt();
    }
};"""
    op = op_description(src)[0]
    assert op["attr"] == [{"name": "axis", "param_type": "required", "type": "int", "default_value": -1},
                          {"name": "keep", "param_type": "optional", "type": "bool", "default_value": True},
                          {"name": "dims", "param_type": "optional", "type": "listInt"}]
    import pytest

    with pytest.raises(ValueError, match="OpDef"):
        op_description("int main() {}")


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
    assert not compile_succeeded(proj, "SubMath")["ok"]  # the object must be the op's own
