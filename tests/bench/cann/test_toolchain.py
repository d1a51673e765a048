"""The cann toolchain end to end with stand-ins: a fake CANN install (a bisheng file, a fake msopgen), a fake
build.sh (artifacts, a recorded failing log, or a hang), a fake cmake (the pybind module), a fake .run package, and
torch on the CPU behind a fake torch_npu for the real runner script. Every command line is recorded and checked."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from akgen_lsp.bench.cann.project import ProjectSpec
from akgen_lsp.bench.cann.toolchain import (
    CannBuild,
    CannOptions,
    CannToolchain,
    CannUnavailable,
)
from akgen_lsp.bench.pipeline import Candidate, RunSettings, evaluate
from akgen_lsp.bench.pipeline.cann import evaluate_cann
from akgen_lsp.bench.tasks import Task
from akgen_lsp.bench.toolchain import get_toolchain
from akgen_lsp.sim.compiler import ToolchainError
from akgen_lsp.sim.toolchain import SimToolchain

LOGS = Path(__file__).parent.parent.parent / "logs" / "fixtures" / "cann_logs"

MSOPGEN = """#!{python}
import json, os, shutil, sys
from pathlib import Path
args = sys.argv[1:]
with open(os.environ["AKGEN_FAKE_LOG"], "a") as fh:
    fh.write(json.dumps({{"tool": "msopgen", "argv": args, "cwd": os.getcwd()}}) + "\\n")
if os.environ.get("FAKE_MSOPGEN_FAIL"):
    print('2026-11-29 22:40:01 (1) - [ERROR] The value of "type" for input "x" is not supported.')
    sys.exit(1)
out = Path(args[args.index("-out") + 1])
snake = Path(args[args.index("-i") + 1]).stem
for sub in ("op_host", "op_kernel"):
    (out / sub).mkdir(parents=True, exist_ok=True)
    (out / sub / "CMakeLists.txt").write_text("# skeleton\\n")
(out / "op_kernel" / (snake + ".cpp")).write_text("// skeleton kernel\\n")
(out / "op_kernel" / (snake + "_tiling.h")).write_text("// skeleton tiling\\n")
(out / "op_host" / (snake + ".cpp")).write_text("// skeleton host\\n")
presets = {{"version": 1, "configurePresets": [{{"name": "default", "cacheVariables": {{
    "ASCEND_COMPUTE_UNIT": {{"type": "STRING", "value": "ascendxxx"}},
    "vendor_name": {{"type": "STRING", "value": "customize"}}}}}}]}}
(out / "CMakePresets.json").write_text(json.dumps(presets))
shutil.copy(os.environ["FAKE_BUILD_SH"], out / "build.sh")
"""

BUILD_SH = r"""#!/bin/bash
echo "{\"tool\": \"build.sh\", \"cwd\": \"$(pwd)\", \"ascend\": \"$ASCEND_HOME_PATH\", \"logdir\": \"$ASCENDC_BUILD_LOG_DIR\"}" >> "$AKGEN_FAKE_LOG"
case "$FAKE_BUILD_MODE" in
  fail) grep -v '^#' "$FAKE_BUILD_LOG" | sed "s#/tmp/akgen-cann-w1/cann/project#$(pwd)#g"; exit 1;;
  hang) sleep 30;;
esac
pkg=build_out/_CPack_Packages/Linux/External/custom_opp_ubuntu_x86_64.run/packages/vendors/customize
mkdir -p $pkg/op_api/lib $pkg/op_impl/ai_core/tbe/kernel/ascend910b/add_math build_out/op_host
touch $pkg/op_api/lib/libcust_opapi.so build_out/op_host/libcust_opapi.so
if [ "$FAKE_BUILD_MODE" != "noobj" ]; then touch $pkg/op_impl/ai_core/tbe/kernel/ascend910b/add_math/${FAKE_OP:-AddMath}_1a2b.o; fi
cat > build_out/custom_opp_ubuntu_x86_64.run <<'RUN'
#!/bin/bash
echo "{\"tool\": \"run\", \"argv\": \"$*\"}" >> "$AKGEN_FAKE_LOG"
for a in "$@"; do case $a in --install-path=*) p="${a#--install-path=}";; esac; done
mkdir -p "$p/vendors/customize/op_api/lib" "$p/vendors/customize/bin"
touch "$p/vendors/customize/op_api/lib/libcust_opapi.so"
RUN
echo "[100%] Built target package"
"""

CMAKE = """#!{python}
import json, os, sys
from pathlib import Path
args = sys.argv[1:]
with open(os.environ["AKGEN_FAKE_LOG"], "a") as fh:
    fh.write(json.dumps({{"tool": "cmake", "argv": args}}) + "\\n")
if "--build" in args:
    out = Path(args[args.index("--build") + 1])
    out.mkdir(parents=True, exist_ok=True)
    (out / "kernel_gen_ops.fake.so").write_text("")
    (out / "kernel_gen_ops.py").write_text(Path(os.environ["FAKE_OP_PY"]).read_text())
"""

FAKE_OP = """import os
import torch


def add_math(x, y, out):
    r = x + y
    if os.environ.get("FAKE_NPU_WRONG"):
        r = r.clone()
        r.view(-1)[5] += 1
    out.copy_(r)
    return [out]
"""

FAKE_TORCH_NPU = """import time
import types

import torch


class _Event:
    def __init__(self, enable_timing=False):
        self.t = 0.0

    def record(self):
        self.t = time.perf_counter()

    def elapsed_time(self, end):
        return (end.t - self.t) * 1000.0


torch.npu = types.SimpleNamespace(Event=_Event, synchronize=lambda: None, set_device=lambda i: None)
"""


def _exe(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


@pytest.fixture
def fake(tmp_path: Path):
    """A fake CANN install and tools; returns (env, log reader)."""
    home = tmp_path / "cann"
    bindir = home / "compiler" / "ccec_compiler" / "bin"
    bindir.mkdir(parents=True)
    _exe(bindir / "bisheng", "#!/bin/sh\n")
    (home / "python" / "site-packages" / "bin").mkdir(parents=True)
    _exe(home / "python" / "site-packages" / "bin" / "msopgen", MSOPGEN.format(python=sys.executable))
    (home / "compiler" / "version.info").write_text("Version=8.5.0\n")
    fbin = tmp_path / "fakebin"
    fbin.mkdir()
    _exe(fbin / "cmake", CMAKE.format(python=sys.executable))
    build_sh = _exe(tmp_path / "build.sh.fake", BUILD_SH)
    op_py = tmp_path / "fake_op.py"
    op_py.write_text(FAKE_OP)
    pkg = tmp_path / "fakepy" / "torch_npu"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(FAKE_TORCH_NPU)
    log = tmp_path / "calls.jsonl"
    build_log = tmp_path / "kernel_errors_binary_build.log"
    build_log.write_bytes((LOGS / build_log.name).read_bytes())
    # the tools run in the sandbox's tool box: the stand-ins' own files (their call log) are named as extra paths
    env = {**os.environ, "ASCEND_HOME_PATH": str(home), "PATH": f"{fbin}:{os.environ.get('PATH', '')}",
           "AKGEN_FAKE_LOG": str(log), "FAKE_BUILD_SH": str(build_sh), "FAKE_OP_PY": str(op_py),
           "PYTHONPATH": str(tmp_path / "fakepy"), "FAKE_BUILD_LOG": str(build_log),
           "AKGEN_CANN_EXTRA_PATHS": str(tmp_path)}
    env.pop("AKGEN_CANN_TEMPLATE", None)

    def calls() -> list[dict]:
        return [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []

    return env, calls


def _toolchain(env: dict) -> CannToolchain:
    return CannToolchain.from_env(env, device="cpu", repeats=3)


def _sources(add_task: Task) -> list[Path]:
    a = add_task.answers[0]
    return [a.kernel, a.host, a.tiling_header]


def test_unusable_cann_says_what_is_missing(tmp_path: Path) -> None:
    with pytest.raises(CannUnavailable, match="ASCEND_HOME_PATH is not set"):
        CannToolchain.from_env({"PATH": os.environ.get("PATH", "")})
    (tmp_path / "bin").mkdir()
    with pytest.raises(CannUnavailable, match="no bisheng compiler"):
        CannToolchain.from_env({"ASCEND_HOME_PATH": str(tmp_path), "PATH": os.environ.get("PATH", "")})
    with pytest.raises(ToolchainError, match="cannot run here"):
        get_toolchain("cann", {"ASCEND_HOME_PATH": str(tmp_path)})
    assert isinstance(get_toolchain("auto", {"ASCEND_HOME_PATH": str(tmp_path)}), SimToolchain)


def test_selection_picks_cann_for_a_cann_install(fake) -> None:
    env, _ = fake
    tool = get_toolchain("auto", env)
    assert isinstance(tool, CannToolchain) and tool.name == "cann" and tool.install.version == "8.5.0"
    assert isinstance(get_toolchain("sim", env), SimToolchain)


def test_compile_runs_msopgen_build_pybind_and_install(fake, tmp_path: Path, add_task: Task) -> None:
    env, calls = fake
    work = tmp_path / "w"
    build = _toolchain(env).compile(_sources(add_task), CannOptions("AddMath", "add_math", work=work))
    assert build.ok and build.status == "ok", build.findings
    assert build.artifacts == {"pybind_so": True, "libcust_opapi_so": True, "kernel_o": True, "ok": True}
    tools = [c["tool"] for c in calls()]
    assert tools == ["msopgen", "build.sh", "cmake", "cmake", "run"]
    ms = calls()[0]
    assert ms["argv"] == ["gen", "-i", str(work / "add_math.json"), "-c", "ai_core-Ascend910B2", "-lan", "cpp",
                          "-out", str(work / "project")]
    assert calls()[1]["cwd"] == str(work / "project") and calls()[1]["ascend"] == env["ASCEND_HOME_PATH"]
    assert calls()[1]["logdir"] == str(work / "logs")
    assert calls()[2]["argv"][:5] == ["--no-warn-unused-cli", "-S", str(work / "project" / "validation"), "-B",
                                      str(work / "build")]
    assert f"-DSHARED_LIB_DIR={work / 'project' / 'build_out' / 'op_host'}/" in calls()[2]["argv"]
    assert calls()[3]["argv"][:2] == ["--build", str(work / "build")]
    assert calls()[4]["argv"] == f"--install-path={work / 'vendor'}"
    assert build.vendor == work / "vendor" / "vendors" / "customize"
    # the candidate's files replaced the skeleton's, byte for byte; the skeleton's op_kernel tiling header is gone
    a = add_task.answers[0]
    assert (work / "project" / "op_kernel" / "add_math.cpp").read_text() == a.kernel.read_text()
    assert (work / "project" / "op_host" / "add_math.cpp").read_text() == a.host.read_text()
    assert (work / "project" / "op_host" / "add_math_tiling.h").read_text() == a.tiling_header.read_text()
    assert not (work / "project" / "op_kernel" / "add_math_tiling.h").exists()
    cache = json.loads((work / "project" / "CMakePresets.json").read_text())["configurePresets"][0]["cacheVariables"]
    assert cache["ASCEND_CANN_PACKAGE_PATH"]["value"] == env["ASCEND_HOME_PATH"]
    assert cache["ASCEND_COMPUTE_UNIT"]["value"] == "ascend910b" and cache["vendor_name"]["value"] == "customize"
    assert "EXEC_NPU_CMD(aclnnAddMath, x, y, out_z);" in (work / "project" / "validation" / "pybind.cpp").read_text()


def test_a_template_replaces_msopgen(fake, tmp_path: Path, add_task: Task) -> None:
    env, calls = fake
    tpl = tmp_path / "tpl"
    (tpl / "validation").mkdir(parents=True)
    (tpl / "validation" / "CMakeLists.txt").write_text("# the template's own\n")
    (tpl / "CMakePresets.json").write_text(json.dumps({"configurePresets": [{"name": "default", "cacheVariables": {
        "ASCEND_CANN_PACKAGE_PATH": {"type": "PATH", "value": "/usr/local/Ascend/ascend-toolkit/latest"}}}]}))
    (tpl / "build.sh").write_text(Path(env["FAKE_BUILD_SH"]).read_text())
    work = tmp_path / "w"
    build = _toolchain(env).compile(_sources(add_task), CannOptions("AddMath", "add_math", work=work, template=tpl))
    assert build.ok
    assert [c["tool"] for c in calls()][:2] == ["build.sh", "cmake"]
    assert (work / "project" / "validation" / "CMakeLists.txt").read_text() == "# the template's own\n"
    cache = json.loads((work / "project" / "CMakePresets.json").read_text())["configurePresets"][0]["cacheVariables"]
    assert cache["ASCEND_CANN_PACKAGE_PATH"]["value"] == env["ASCEND_HOME_PATH"]


def test_failed_build_gives_findings_at_the_users_kernel(fake, tmp_path: Path, add_task: Task) -> None:
    env, calls = fake
    env["FAKE_BUILD_MODE"] = "fail"
    srcs = _sources(add_task)
    build = _toolchain(env).compile(srcs, CannOptions("AddMath", "add_math", work=tmp_path / "w"))
    assert not build.ok and build.status == "compile_error"
    assert [(f.span.path, f.span.line) for f in build.findings] == [(str(srcs[0]), 41), (str(srcs[0]), 57)]
    assert build.findings[0].error_class == "hallucinated_api"
    assert "cmake" not in [c["tool"] for c in calls()]  # no pybind build after a failed build.sh
    assert "no member named 'AddTypo'" in (tmp_path / "w" / "logs" / "build.log").read_text()


def test_missing_artifact_is_a_compile_failure(fake, tmp_path: Path, add_task: Task) -> None:
    env, _ = fake
    env["FAKE_BUILD_MODE"] = "noobj"
    build = _toolchain(env).compile(_sources(add_task), CannOptions("AddMath", "add_math", work=tmp_path / "w"))
    assert not build.ok and build.artifacts["kernel_o"] is False and build.artifacts["pybind_so"] is True
    assert build.findings[0].code == "CANN-ARTIFACTS" and "kernel object AddMath*.o" in build.findings[0].message


def test_build_timeout_kills_the_build(fake, tmp_path: Path, add_task: Task) -> None:
    env, _ = fake
    env["FAKE_BUILD_MODE"] = "hang"
    build = _toolchain(env).compile(_sources(add_task), CannOptions("AddMath", "add_math", work=tmp_path / "w",
                                                                    timeout_s=1.0))
    assert build.status == "timeout" and not build.ok and build.seconds < 20
    assert build.findings[0].code == "CANN-TIMEOUT" and "within 1 s" in build.findings[0].message
    assert build.stages[-1]["timed_out"] is True


def test_msopgen_failure(fake, tmp_path: Path, add_task: Task) -> None:
    env, _ = fake
    env["FAKE_MSOPGEN_FAIL"] = "1"
    build = _toolchain(env).compile(_sources(add_task), CannOptions("AddMath", "add_math", work=tmp_path / "w"))
    assert not build.ok and build.findings[0].code == "MSOPGEN"
    assert build.findings[0].span.path == str(tmp_path / "w" / "add_math.json")


def test_project_needs_an_opdef(fake, tmp_path: Path, add_task: Task) -> None:
    env, _ = fake
    host = tmp_path / "h" / "add_math.cpp"
    host.parent.mkdir()
    host.write_text("// no OpDef here\n")
    build = _toolchain(env).compile([add_task.answers[0].kernel, host],
                                    CannOptions("AddMath", "add_math", work=tmp_path / "w"))
    assert not build.ok and build.findings[0].code == "CANN-PROJECT" and "OpDef" in build.findings[0].message


def test_evaluate_on_fake_npu_passes_and_measures(fake, tmp_path: Path, add_task: Task) -> None:
    env, calls = fake
    a = add_task.answers[0]
    cand = Candidate(add_task.id, 0, a.kernel, a.host.parent)
    rec = evaluate_cann(add_task, cand, RunSettings(mode="dynamic", max_cases=2, work_dir=tmp_path),
                        _toolchain(env))
    assert rec["status"] == "pass", rec["findings"]
    assert rec["toolchain"] == "cann" and rec["compiled"] and rec["passed_cases"] == 2 and rec["measured"]
    assert rec["estimate_us"] > 0 and rec["baseline_us"] > 0 and rec["speedup"] > 0
    assert all(c["status"] == "pass" and c["measured_us"] > 0 for c in rec["case_results"])
    assert [c["tool"] for c in calls()] == ["msopgen", "build.sh", "cmake", "cmake", "run"]  # one build, all cases


def test_evaluate_on_fake_npu_reports_a_wrong_answer(fake, tmp_path: Path, add_task: Task) -> None:
    env, _ = fake
    env["FAKE_NPU_WRONG"] = "1"
    a = add_task.answers[0]
    rec = evaluate_cann(add_task, Candidate(add_task.id, 0, a.kernel, a.host.parent),
                        RunSettings(mode="dynamic", max_cases=1, work_dir=tmp_path), _toolchain(env))
    assert rec["status"] == "wrong_answer"
    f = rec["findings"][0]
    assert f["code"] == "BENCH-PRECISION" and "flat 5" in f["message"]


def test_evaluate_reports_a_runner_without_torch_npu(fake, tmp_path: Path, add_task: Task) -> None:
    env, _ = fake
    env["PYTHONPATH"] = ""  # the real torch_npu is not installed here: the runner says so
    a = add_task.answers[0]
    rec = evaluate_cann(add_task, Candidate(add_task.id, 0, a.kernel, a.host.parent),
                        RunSettings(mode="dynamic", max_cases=1, work_dir=tmp_path), _toolchain(env))
    assert rec["status"] == "runtime_error" and rec["compiled"]
    assert "cannot import torch_npu" in rec["findings"][0]["message"]


def test_pipeline_dispatches_to_cann(tmp_path: Path, add_task: Task, monkeypatch) -> None:
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))  # not a CANN install: auto stays on sim
    a = add_task.answers[0]
    cand = Candidate(add_task.id, 0, a.kernel, a.host.parent)
    rec = evaluate(add_task, cand, RunSettings(mode="dynamic", max_cases=1, toolchain="cann"))
    assert rec["status"] == "harness_error" and rec["toolchain"] == "cann"
    assert "no bisheng compiler" in rec["findings"][0]["message"]


def test_spec_places_split_host_files(fake, tmp_path: Path) -> None:
    env, _ = fake
    d = tmp_path / "cand"
    (d / "op_kernel").mkdir(parents=True)
    (d / "op_host").mkdir()
    (d / "op_kernel" / "my_op.cpp").write_text("extern \"C\" __global__ __aicore__ void my_op(GM_ADDR x, "
                                               "GM_ADDR workspace) {}\n")
    (d / "op_kernel" / "helper.h").write_text("// helper\n")
    (d / "op_host" / "my_op.cpp").write_text("class MyOp : public OpDef {};\n")
    (d / "op_host" / "my_op_tiling.h").write_text("// tiling\n")
    (d / "op_host" / "my_op_proto.cpp").write_text("// proto\n")
    spec: ProjectSpec = _toolchain(env).spec(
        [d / "op_kernel" / "my_op.cpp", d / "op_host" / "my_op.cpp", d / "op_host" / "my_op_tiling.h",
         d / "op_host" / "my_op_proto.cpp"], CannOptions("MyOp", "my_op", kernel_only=True), tmp_path / "w")
    assert spec.extra_kernel_files == {"helper.h": "// helper\n"}
    assert spec.extra_host_files == {"my_op_proto.cpp": "// proto\n"} and spec.tiling_header == "// tiling\n"
    assert "GM_ADDR workspace, GM_ADDR tiling" in spec.kernel_source  # NPUKernelBench's kernel-only rewrite


def test_npukernelbench_style_task_uses_its_pybind_and_model_new(fake, tmp_path: Path, task_copy) -> None:
    env, _ = fake
    task = task_copy("AddMath")
    (task.validation / "pybind.cpp").write_text(
        '#include "pytorch_npu_helper.hpp"\nat::Tensor f(at::Tensor &a, at::Tensor &b) {\n'
        "    at::Tensor r = torch::empty_like(a);\n    EXEC_NPU_CMD(aclnnCustomOp, a, b, r);\n    return r;\n}\n"
        'PYBIND11_MODULE(kernel_gen_ops, m) { m.def("custom_pybind_api", &f, ""); }\n')
    module = task.validation / "module.py"
    module.write_text(module.read_text() + "\n\nclass ModelNew(nn.Module):\n    def forward(self, x0, x1):\n"
                      "        import kernel_gen_ops\n        return kernel_gen_ops.add_math(x0, x1)\n")
    op = tmp_path / "returning_op.py"
    op.write_text("def add_math(x, y):\n    return x + y\n")
    env["FAKE_OP_PY"] = str(op)
    a = task.answers[0]
    settings = RunSettings(mode="dynamic", max_cases=1, work_dir=tmp_path, keep_work=True)
    rec = evaluate_cann(task, Candidate(task.id, 0, a.kernel, a.host.parent), settings, _toolchain(env))
    assert rec["status"] == "pass", rec["findings"]
    pyb = next(tmp_path.glob("akgen-cann-*/cann/project/validation/pybind.cpp")).read_text()
    assert "EXEC_NPU_CMD(aclnnAddMath, a, b, r);" in pyb and 'm.def("add_math"' in pyb
    spec = json.loads(next(tmp_path.glob("akgen-cann-*/cann/runner_spec.json")).read_text())
    assert spec["call"] == "model_new" and spec["reference_module"] == str(module)


def test_template_detection(tmp_path: Path) -> None:
    from akgen_lsp.bench.pipeline.cann import template_for

    root = tmp_path / "NPUKernelBench"
    task = root / "tasks" / "level1" / "Math" / "AddCustom"
    task.mkdir(parents=True)
    assert template_for(task, {}) is None
    tpl = root / "libs" / "common_include" / "msopgen"
    tpl.mkdir(parents=True)
    (tpl / "build.sh").write_text("")
    assert template_for(task, {}) == tpl
    assert template_for(task, {"AKGEN_CANN_TEMPLATE": "/x/tpl"}) == Path("/x/tpl")


def test_without_msopgen_or_template_says_what_to_do(fake, tmp_path: Path, add_task: Task) -> None:
    env, calls = fake
    (Path(env["ASCEND_HOME_PATH"]) / "python" / "site-packages" / "bin" / "msopgen").unlink()
    build = _toolchain(env).compile(_sources(add_task), CannOptions("AddMath", "add_math", work=tmp_path / "w"))
    assert not build.ok and build.findings[0].code == "CANN-MSOPGEN" and "AKGEN_CANN_TEMPLATE" in \
        build.findings[0].message
    assert calls() == []


def _built(tmp_path: Path) -> CannBuild:
    (tmp_path / "build").mkdir(exist_ok=True)
    return CannBuild(True, None, [], (tmp_path / "k.cpp",), "k", status="ok", work=tmp_path, module_dir=tmp_path /
                     "build", function="f")


@pytest.mark.parametrize(("script", "status", "words"), [
    ("import time\ntime.sleep(30)\n", "timeout", "did not finish within 1 s"),
    ("import sys\nprint('Segmentation fault')\nsys.exit(139)\n", "crash", "stopped before case 0 (exit 139)"),
])
def test_runner_timeout_and_crash(fake, tmp_path: Path, script: str, status: str, words: str) -> None:
    env, _ = fake
    py = _exe(tmp_path / "fake_python", f"#!{sys.executable}\n{script}")
    tool = CannToolchain.from_env(env, python=str(py), run_timeout_s=1.0)
    runs = tool.run_cases(_built(tmp_path), [{"case_id": 0, "args": [], "outputs": []}])
    assert runs[0].status == status and words in runs[0].findings[0].message
    assert (tmp_path / "runner_spec.json").is_file() and (tmp_path / "cann_npu_runner.py").is_file()


def test_run_of_a_failed_build(fake, tmp_path: Path) -> None:
    env, _ = fake
    b = _built(tmp_path)
    b.ok = False
    run = _toolchain(env).run(b, {"case_id": 0, "args": [], "outputs": []})
    assert run.status == "runtime_error" and run.findings[0].code == "CANN-NOT-BUILT"


def test_split_host_keeps_names_and_finds_the_opdef(fake, tmp_path: Path) -> None:
    env, _ = fake
    env["FAKE_OP"] = "MseLossGradV2"
    d = tmp_path / "cand"
    (d / "op_kernel").mkdir(parents=True)
    (d / "op_host").mkdir()
    (d / "op_kernel" / "mse_loss_grad_v2.cpp").write_text("// kernel\n")
    (d / "op_host" / "mse_loss_grad_v2_tiling.cpp").write_text("// SetTiling here\n")
    (d / "op_host" / "mse_loss_grad_v2_def.cpp").write_text(
        'class MseLossGradV2 : public OpDef {\n    explicit MseLossGradV2(const char* n) : OpDef(n) {\n'
        '        this->Input("predict").DataType({ge::DT_FLOAT});\n'
        '        this->Output("y").DataType({ge::DT_FLOAT});\n    }\n};\n')
    srcs = [d / "op_kernel" / "mse_loss_grad_v2.cpp", d / "op_host" / "mse_loss_grad_v2_tiling.cpp",
            d / "op_host" / "mse_loss_grad_v2_def.cpp"]
    build = _toolchain(env).compile(srcs, CannOptions("MseLossGradV2", "mse_loss_grad_v2", work=tmp_path / "w"))
    assert build.ok, build.findings
    host = tmp_path / "w" / "project" / "op_host"
    assert sorted(p.name for p in host.glob("*.cpp")) == ["mse_loss_grad_v2_def.cpp", "mse_loss_grad_v2_tiling.cpp"]
    desc = json.loads((tmp_path / "w" / "mse_loss_grad_v2.json").read_text())[0]
    assert desc["op"] == "MseLossGradV2" and desc["input_desc"][0]["name"] == "predict"
