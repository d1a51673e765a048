"""The msopgen project of a candidate: files written, placeholders filled, presets patched, command lines."""

from __future__ import annotations

import json
from pathlib import Path

from akgen_lsp.bench.cann import BUILD_TIMEOUT_S
from akgen_lsp.bench.cann.project import (
    FIXIT_OPTIONS,
    HELPER_HEADER,
    VALIDATION_CMAKE,
    ProjectSpec,
    build_command,
    finish_project,
    generated_pybind,
    install_command,
    installed_vendor,
    msopgen_command,
    patch_presets,
    prepare_project,
    pybind_commands,
    task_pybind,
    user_paths,
)

HOST = """class LeakyRelu : public OpDef {
    explicit LeakyRelu(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01);
        this->Attr("steps").AttrType(OPTIONAL).Int(2);
    }
};
"""


def _spec(tmp_path: Path, **kw) -> ProjectSpec:
    base = dict(work=tmp_path / "w", op_type="LeakyRelu", op_snake="leaky_relu", kernel_source="// kernel\n",
                host_source=HOST, tiling_header="// tiling\n", cann_home=Path("/opt/cann"), msopgen="/opt/msopgen",
                python="/usr/bin/python3", jobs=3)
    base.update(kw)
    return ProjectSpec(**base)


def test_commands(tmp_path: Path) -> None:
    s = _spec(tmp_path)
    gen = msopgen_command(s)
    assert gen.argv == ["/opt/msopgen", "gen", "-i", str(s.work / "leaky_relu.json"), "-c", "ai_core-Ascend910B2",
                        "-lan", "cpp", "-out", str(s.work / "project")] and gen.cwd == s.work
    b = build_command(s)
    assert b.argv == ["bash", "build.sh"] and b.cwd == s.project and b.timeout_s == BUILD_TIMEOUT_S == 400.0
    assert b.env == {"ASCEND_HOME_PATH": "/opt/cann", "ASCENDC_BUILD_LOG_DIR": str(s.work / "logs")}
    conf, build = pybind_commands(s)
    assert conf.argv == ["cmake", "--no-warn-unused-cli", "-S", str(s.project / "validation"), "-B",
                         str(s.work / "build"), f"-DSHARED_LIB_DIR={s.project / 'build_out' / 'op_host'}/",
                         "-DPython3_EXECUTABLE=/usr/bin/python3"]
    assert build.argv == ["cmake", "--build", str(s.work / "build"), "-j", "3"]
    run = s.project / "build_out" / "custom_opp_ubuntu_aarch64.run"
    assert install_command(s, run).argv == ["bash", str(run), f"--install-path={s.work / 'vendor'}"]
    assert installed_vendor(s) == s.work / "vendor" / "vendors" / "customize"
    assert [c.stage for c in prepare_project(s)] == ["msopgen", "build"]
    assert json.loads((s.work / "leaky_relu.json").read_text())[0]["op"] == "LeakyRelu"


def test_generated_pybind_types_and_order(tmp_path: Path) -> None:
    desc = json.loads(json.dumps({"op": "LeakyRelu", "input_desc": [{"name": "x"}], "output_desc": [{"name": "y"}],
                                  "attr": [{"name": "negative_slope", "type": "float"},
                                           {"name": "steps", "type": "int"}]}))
    text = generated_pybind("LeakyRelu", "leaky_relu", desc, [("tensor", "in0"), ("scalar", "in1"),
                                                              ("scalar", "in2")])
    assert "akgen_leaky_relu(at::Tensor &in0, double in1, int64_t in2, at::Tensor &out_y)" in text
    assert "EXEC_NPU_CMD(aclnnLeakyRelu, in0, in1, in2, out_y);" in text  # inputs, attributes, outputs
    assert 'm.def("leaky_relu", &akgen_leaky_relu' in text and "PYBIND11_MODULE(kernel_gen_ops, m)" in text
    default = generated_pybind("LeakyRelu", "leaky_relu", desc, [])
    assert "EXEC_NPU_CMD(aclnnLeakyRelu, x, negative_slope, steps, out_y);" in default


def test_task_pybind_placeholders() -> None:
    src = "EXEC_NPU_CMD(aclnnCustomOp, a, b, out);\nm.def(\"custom_pybind_api\", &f, \"\");\n"
    assert task_pybind(src, "AddCustom", "add_custom") == ("EXEC_NPU_CMD(aclnnAddCustom, a, b, out);\n"
                                                           "m.def(\"add_custom\", &f, \"\");\n")


def test_finish_project_places_files_and_keeps_the_skeleton_cmake(tmp_path: Path) -> None:
    s = _spec(tmp_path, extra_kernel_files={"helper.h": "// h\n"}, extra_host_files={"leaky_relu_def.cpp": "// d\n"})
    prepare_project(s)
    for sub in ("op_host", "op_kernel"):
        (s.project / sub).mkdir(parents=True)
        (s.project / sub / "CMakeLists.txt").write_text("# skeleton\n")
        (s.project / sub / "leaky_relu.cpp").write_text("// skeleton\n")
    (s.project / "op_kernel" / "leaky_relu_tiling.h").write_text("// skeleton tiling\n")
    finish_project(s)
    k, h = s.project / "op_kernel", s.project / "op_host"
    assert sorted(p.name for p in k.iterdir()) == ["CMakeLists.txt", "helper.h", "leaky_relu.cpp"]
    assert sorted(p.name for p in h.iterdir()) == ["CMakeLists.txt", "leaky_relu.cpp", "leaky_relu_def.cpp",
                                                   "leaky_relu_tiling.h"]
    # the kernel's CMakeLists.txt is the skeleton's, with bisheng asked for parseable fix-its (once)
    assert (k / "CMakeLists.txt").read_text() == "# skeleton\n" + FIXIT_OPTIONS + "\n"
    assert (h / "CMakeLists.txt").read_text() == "# skeleton\n" and (h / "leaky_relu.cpp").read_text() == HOST
    finish_project(s)
    assert (k / "CMakeLists.txt").read_text().count(FIXIT_OPTIONS) == 1
    v = s.project / "validation"
    assert (v / "CMakeLists.txt").read_text() == VALIDATION_CMAKE
    assert (v / "pytorch_npu_helper.hpp").read_text() == HELPER_HEADER
    assert "#define EXEC_NPU_CMD(api, ...)" in HELPER_HEADER and "GetWorkspaceSize" in HELPER_HEADER
    assert "EXEC_NPU_CMD(aclnnLeakyRelu, x, negative_slope, steps, out_y);" in (v / "pybind.cpp").read_text()
    cache = json.loads((s.project / "CMakePresets.json").read_text())["configurePresets"][0]["cacheVariables"]
    assert cache["ASCEND_CANN_PACKAGE_PATH"] == {"type": "PATH", "value": "/opt/cann"}
    assert cache["ASCEND_COMPUTE_UNIT"] == {"type": "STRING", "value": "ascend910b"}


def test_patch_presets_keeps_msopgen_values(tmp_path: Path) -> None:
    s = _spec(tmp_path, compute_unit="ascend910_93")
    s.project.mkdir(parents=True)
    (s.project / "CMakePresets.json").write_text(json.dumps({"version": 1, "configurePresets": [{
        "name": "default", "cacheVariables": {"vendor_name": {"type": "STRING", "value": "acme"},
                                              "ASCEND_COMPUTE_UNIT": {"type": "STRING", "value": "ascendxxx"}}}]}))
    cache = patch_presets(s)["configurePresets"][0]["cacheVariables"]
    assert cache["vendor_name"]["value"] == "acme" and cache["ASCEND_COMPUTE_UNIT"]["value"] == "ascend910_93"
    (s.project / "CMakePresets.json").write_text("{broken")
    assert patch_presets(s)["configurePresets"][0]["name"] == "default"  # a broken file is rewritten


def test_task_pybind_and_helper_override(tmp_path: Path) -> None:
    s = _spec(tmp_path, pybind_source="EXEC_NPU_CMD(aclnnCustomOp, x);\n", helper_header="// theirs\n")
    prepare_project(s)
    finish_project(s)
    v = s.project / "validation"
    assert (v / "pybind.cpp").read_text() == "EXEC_NPU_CMD(aclnnLeakyRelu, x);\n"
    assert (v / "pytorch_npu_helper.hpp").read_text() == "// theirs\n"
    users = user_paths(s, "k.cpp", "h.cpp", "t.h")
    assert users[str(s.project / "op_kernel" / "leaky_relu.cpp")] == "k.cpp"
    assert users[str(s.project / "op_host" / "leaky_relu_tiling.h")] == "t.h"
