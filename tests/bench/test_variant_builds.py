"""One build for a task's later dtype sets (pipeline/compile.py `compile_variants`, sim/glue.py `variant_lines`): the
first dtype set builds alone (a candidate that does not compile costs one build), the others compile once together,
each in a namespace of its own, and every case runs the variant of its dtype. A set that does not compile with the
others is built and reported on its own."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from akgen_lsp.bench.tasks import Task
from akgen_lsp.check.kernel import check_kernel
from akgen_lsp.config import defaults
from akgen_lsp.findings import Severity
from akgen_lsp.sim.build_types import Build, BuildOptions
from akgen_lsp.sim.toolchain import SimToolchain


def test_the_later_dtypes_of_a_task_share_one_build(add_task: Task, monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[tuple[BuildOptions, Build]] = []
    real = SimToolchain.compile

    def compile_and_note(self: SimToolchain, sources: Sequence[Path], options: BuildOptions) -> Build:
        build = real(self, sources, options)
        compiled.append((options, build))
        return build

    monkeypatch.setattr(SimToolchain, "compile", compile_and_note)
    kernel = add_task.answers[0].kernel
    text = kernel.read_text(encoding="utf-8") + f"\n// a new text: new builds ({time.time_ns()})\n"
    result = check_kernel(kernel, defaults(), text=text)
    findings, figures = result.findings, result.figures
    assert figures.status == "pass" and figures.passed_cases == figures.cases == 12, findings
    # float16 alone, then bfloat16 and float32 in one build: two builds for three dtypes
    assert [len(o.variants) for o, _ in compiled] == [0, 2]
    (first, _), (multi, build) = compiled
    assert first.defines["DTYPE_X"] == "half" and "DTYPE_X" not in multi.defines
    assert sorted(v["DTYPE_X"] for v in multi.variants) == ["bfloat16_t", "float"]
    assert build.ok and not build.cached and len(build.variants) == 2
    glue = (build.binary.parent / "glue.cpp").read_text(encoding="utf-8") if build.binary else ""
    assert "namespace akgen_variant_1 {" in glue and "akgen_variant_2" not in glue


def test_a_dtype_that_does_not_compile_is_built_and_reported_alone(add_task: Task) -> None:
    kernel = add_task.answers[0].kernel
    text = kernel.read_text(encoding="utf-8").replace(
        'extern "C"', "static_assert(sizeof(DTYPE_X) == 2, \"a 2-byte dtype only\");\nextern \"C\"", 1)
    text += f"\n// {time.time_ns()}\n"
    result = check_kernel(kernel, defaults(), text=text)
    findings, figures = result.findings, result.figures
    # float16 (cases 0-3) and bfloat16 (4-7) pass; float32 does not compile, said at its own line
    assert figures.status == "compile_error"
    assert [c["status"] for c in figures.case_results] == ["pass"] * 8 + ["compile_error"]
    errors = [f for f in findings if f.severity is Severity.ERROR]
    assert errors and all(f.span.path == str(kernel) for f in errors)
    assert any("2-byte dtype only" in f.message for f in errors)
