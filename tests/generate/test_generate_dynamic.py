"""`akgen generate --mode dynamic`: the answer is the kernel and its host tiling (NPUKernelBench's dynamic mode), all
three files checked together on every case. Three real rounds of the tiny GGUF forced by grammars: a host tiling
that does not compile (its report is on the host file's own lines), a kernel with wrong numbers, the correct files;
the best answer is written with its op_host folder, which `akgen bench run --candidates` scores again."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from akgen_lsp.cli import app
from akgen_lsp.model.tiny import literal_grammar, write_tiny_gguf

from .dynamic import HOST, HOST_NO_COMPILE, KERNEL, KERNEL_WRONG, MAX_TOKENS, N_CTX, TILING, abs_task, answer


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], list[dict[str, Any]]]:
    root = tmp_path_factory.mktemp("gen-dyn")
    abs_task(root / "suite" / "tasks")
    (root / "akgen.toml").write_text(f"[model]\nn_ctx = {N_CTX}\nn_threads = 1\n", encoding="utf-8")
    gguf = write_tiny_gguf(root / "forced.gguf", n_ctx=N_CTX)
    args = ["generate", "--task", "AbsMath", "--suite", str(root / "suite"), "--mode", "dynamic", "--model", str(gguf),
            "--rounds", "3", "--out", str(root / "out"), "--no-memory", "--max-tokens", str(MAX_TOKENS), "--json"]
    for i, a in enumerate([answer(HOST_NO_COMPILE), answer(HOST, KERNEL_WRONG), answer()]):
        (root / f"r{i}.gbnf").write_text(literal_grammar(a), encoding="utf-8")
        args += ["--grammar", str(root / f"r{i}.gbnf")]
    here = os.getcwd()
    os.chdir(root)
    try:
        res = CliRunner().invoke(app, args)
    finally:
        os.chdir(here)
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in (root / "out" / "results.jsonl").read_text().splitlines()]
    return root, json.loads(res.stdout), lines


def test_three_rounds_of_kernel_and_host_end_with_every_case_passing(run) -> None:  # type: ignore[no-untyped-def]
    _root, summary, lines = run
    assert [(r["round"], r["mode"], r["case"], r["status"]) for r in lines] == [
        (0, "dynamic", None, "compile_error"), (1, "dynamic", None, "wrong_answer"), (2, "dynamic", None, "pass")]
    assert (lines[1]["passed_cases"], lines[2]["passed_cases"], lines[2]["cases"]) == (0, 3, 3)
    assert summary["attempts"][0]["passed_at"] == 2


def test_a_host_that_does_not_compile_is_reported_on_the_host_file(run) -> None:  # type: ignore[no-untyped-def]
    _root, _summary, lines = run
    feedback = lines[0]["feedback"]
    assert "op_host/abs_math.cpp" in feedback and "set_tileLen" in feedback, feedback[:3000]
    assert "op_kernel/abs_math.cpp" not in feedback.split("op_host/abs_math_tiling.h")[0]
    assert "wrong" in lines[1]["feedback"].lower() or "mismatch" in lines[1]["feedback"].lower()


def test_the_best_answer_is_written_with_its_host_and_scores_again(run) -> None:  # type: ignore[no-untyped-def]
    root, summary, _lines = run
    (best,) = summary["best"]
    kernel = Path(best["path"])
    assert kernel.relative_to(root / "out" / "kernels") == Path("AbsMath/0/op_kernel/abs_math.cpp")
    assert kernel.read_text() == KERNEL.rstrip() + "\n"
    host = kernel.parents[1] / "op_host"
    assert (host / "abs_math.cpp").read_text() == HOST.rstrip() + "\n"
    assert (host / "abs_math_tiling.h").read_text() == TILING.rstrip() + "\n"
    res = CliRunner().invoke(app, ["bench", "run", "--suite", str(root / "suite"), "--candidates",
                                   str(root / "out" / "kernels"), "--mode", "dynamic", "--out", str(root / "again"),
                                   "--jobs", "1", "--json"])
    assert res.exit_code == 0, res.output
    assert '"passed_cases": 3' in res.output or json.loads(res.stdout)["tasks"][0]["correct"], res.output[-3000:]
