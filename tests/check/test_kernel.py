"""check_kernel: the one call the server makes on save."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from akgen_lsp.bench.tasks import Task
from akgen_lsp.check.kernel import check_kernel
from akgen_lsp.check.result import Figures
from akgen_lsp.config import defaults
from akgen_lsp.findings import Severity
from akgen_lsp.sim.cost import PIPES
from akgen_lsp.sim.later import answer_first

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
SCALED_ADD_TOML = (
    '[[task]]\nname = "ScaledAdd"\nfile = "k.cpp"\nkernel = "scaled_add"\nmode = "static"\nblock_dim = 48\n'
    'reference = "alpha * x + y"\nparams = { alpha = 0.5 }\n'
    'inputs = [{ name = "x", shape = [100003], dtype = "float32" }, '
    '{ name = "y", shape = [100003], dtype = "float32" }]\n'
    'outputs = [{ name = "z", shape = [100003], dtype = "float32" }]\n')


def test_kernel_in_the_bench_layout(add_task: Task) -> None:
    result = check_kernel(add_task.answers[0].kernel, defaults())
    findings, figures = result.findings, result.figures
    # a passing run's warnings are kept for the editor (run_warnings): the simulator's sanitizer notes may appear
    assert [f for f in findings if f.severity is not Severity.WARNING] == []
    assert figures.task == "level1/Math/AddMath" and figures.status == "pass"
    assert figures.passed_cases == figures.cases == 12
    assert figures.estimate_us and figures.estimate_label == "estimate"
    assert figures.bound in ("HBM", *PIPES)  # what bounds the estimate
    from akgen_lsp.server.features.save_check import figures_message

    assert f"bound: {figures.bound}" in (figures_message(figures) or "")


def test_workspace_task_table(tmp_path: Path) -> None:
    shutil.copy(SAMPLES / "kernels" / "elementwise_tail.cpp", tmp_path / "k.cpp")
    (tmp_path / "akgen.toml").write_text(SCALED_ADD_TOML)
    result = check_kernel(tmp_path / "k.cpp", defaults())
    findings, figures = result.findings, result.figures
    assert figures.status == "pass", findings
    # the same kernel against a wrong reference fails with the max error and the first bad index
    text = (tmp_path / "akgen.toml").read_text().replace("alpha * x + y", "alpha * x - y")
    (tmp_path / "akgen.toml").write_text(text)
    result = check_kernel(tmp_path / "k.cpp", defaults())
    findings, figures = result.findings, result.figures
    assert figures.status == "wrong_answer"
    f = next(f for f in findings if f.code == "BENCH-PRECISION")
    assert "first bad element z[" in f.message and figures.max_abs > 0


def test_no_task_means_nothing_to_run(tmp_path: Path) -> None:
    (tmp_path / "lonely.cpp").write_text("// no task\n")
    result = check_kernel(tmp_path / "lonely.cpp", defaults())
    assert result.findings == () and result.figures == Figures.no_task() and not result.has_task


def test_unknown_bench_task_is_a_finding(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_text("// kernel\n")
    (tmp_path / "akgen.toml").write_text('[[task]]\nname = "X"\nfile = "k.cpp"\nbench = "level9/Nope/X"\n')
    result = check_kernel(tmp_path / "k.cpp", defaults())
    findings, figures = result.findings, result.figures
    assert figures.task is None and "bench.suite" in findings[0].message


def test_check_on_save_honours_toolchain_name(add_task: Task, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    result = check_kernel(add_task.answers[0].kernel, {"toolchain.name": "cann"})
    findings, figures = result.findings, result.figures
    # asked for cann on a machine without CANN: a harness finding that says what is missing, no sim run behind it
    assert figures.status != "pass"
    assert any("ASCEND_HOME_PATH" in f.message for f in findings)


def test_a_candidate_text_is_checked_as_the_file(tmp_path: Path) -> None:
    """`text` (a repair candidate) is compiled and run for the file's task, beside copies of the file's headers; the
    findings name the file, and the file itself is left as it was."""
    body = (SAMPLES / "kernels" / "elementwise_tail.cpp").read_text()
    assert '#include "kernel_operator.h"' in body
    (tmp_path / "k.cpp").write_text(body)
    (tmp_path / "consts.h").write_text("#pragma once\nconstexpr float kHalf = 0.5f;\n")
    (tmp_path / "akgen.toml").write_text(SCALED_ADD_TOML)
    broken = body.replace('#include "kernel_operator.h"', '#include "kernel_operator.h"\n#include "consts.h"\n'
                          'static_assert(kHalf == 0.5f, "the header beside the file is read");\nint oops = nope;', 1)
    result = check_kernel(tmp_path / "k.cpp", defaults(), text=broken)
    findings, figures = result.findings, result.figures
    assert figures.status == "compile_error"
    (err,) = [f for f in findings if f.code == "CXX"]
    assert err.span.path == str(tmp_path / "k.cpp") and "nope" in err.message
    assert err.span.line == broken.splitlines().index("int oops = nope;") + 1
    assert (tmp_path / "k.cpp").read_text() == body
    result = check_kernel(tmp_path / "k.cpp", defaults(), text=broken.replace("int oops = nope;", ""))
    findings, figures = result.findings, result.figures
    assert figures.status == "pass", findings


def test_a_task_named_by_the_caller(add_task: Task, tmp_path: Path) -> None:
    """`task_name` (akgen fix --task): a kernel outside any layout checked against a suite task by its name."""
    answer = add_task.answers[0].root
    shutil.copytree(answer, tmp_path / "mine")  # op_kernel/ and op_host/, outside any task layout
    kernel = tmp_path / "mine" / "op_kernel" / add_task.answers[0].kernel.name
    assert check_kernel(kernel, defaults()).figures == Figures.no_task()
    result = check_kernel(kernel, defaults(), task_name=add_task.name)
    findings, figures = result.findings, result.figures
    assert figures.task == add_task.id and figures.status == "pass", findings
    result = check_kernel(kernel, defaults(), task_name="NoSuchTask")
    findings, figures = result.findings, result.figures
    assert figures.task is None and "no task named 'NoSuchTask'" in findings[0].message


SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _expect_run(path: Path) -> set[tuple[int, str]]:
    out = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if "expect-run:" in line:
            out.update((number, code.strip()) for code in line.split("expect-run:", 1)[1].split(","))
    return out


def test_every_runtime_sample_shows_its_mistake_when_checked() -> None:
    # the samples' tasks (samples/akgen.toml) make the editor's check show what only a run can see, the warnings
    # of a run whose numbers are right included (run_warnings)
    for path in sorted((SAMPLES / "broken" / "runtime").glob("*.cpp")):
        result = check_kernel(path, defaults())
        findings, figures = result.findings, result.figures
        assert figures.task, path.name
        got = {(f.span.line, f.code) for f in findings if f.code.startswith("SIM-")}
        assert got == _expect_run(path), (path.name, [f"{f.code}@{f.span.line}: {f.message}" for f in findings])


def test_the_dynamic_custom_op_sample_runs_every_case() -> None:
    result = check_kernel(SAMPLES / "add_custom_op" / "op_kernel" / "add_custom.cpp", defaults())
    findings, figures = result.findings, result.figures
    assert (figures.status, figures.passed_cases, figures.cases) == ("pass", 5, 5), findings


def test_in_a_check_job_the_trace_is_written_after_the_answer(tmp_path: Path) -> None:
    """In a job of the server's check worker (answer_first), the Chrome trace of a check of the editor's text is
    named in the answer, written after it, and names the document (not the scratch copy that was compiled)."""
    kernel = SAMPLES / "kernels" / "add_custom.cpp"
    trace = tmp_path / "add.trace.json"
    with answer_first() as afterwards:
        result = check_kernel(kernel, defaults(), trace_to=trace, text=kernel.read_text() + "\n// edit\n")
        findings, figures = result.findings, result.figures
    assert figures.status == "pass", findings
    assert figures.trace == str(trace) and not trace.exists()
    afterwards.run()
    events = json.loads(trace.read_text())["traceEvents"]
    files = {e["args"]["file"] for e in events if e.get("ph") == "X"}
    assert files == {str(kernel.resolve())}
