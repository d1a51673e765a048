"""Synthesis end to end on the bundled suite: real mutants through the bench pipeline on the simulator."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from akgen_lsp.bench.executor import LocalPoolExecutor, SerialExecutor
from akgen_lsp.errors.classify import Classifier
from akgen_lsp.errors.dataset import build_dataset
from akgen_lsp.errors.mutations import Edit, Mutation
from akgen_lsp.errors.synthesis import PlannedMutant, SynthOptions, mutant_record, plan, run_synthesis

SUITE = Path(__file__).resolve().parents[2] / "akgen_lsp" / "bench" / "suite" / "tasks"
SCHEMAS = Path(__file__).resolve().parents[2] / "akgen_lsp" / "errors" / "schemas"


def _opts(out: Path, **kw: object) -> SynthOptions:
    base = {"sources": [SUITE], "out": out, "per_kernel": 4, "tasks": ("AddMath",), "max_cases": 1,
            "operators": ["invented_api", "drop_enque", "device_stl", "tail_off_by_one"]}
    return SynthOptions(**{**base, **kw})  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    out = tmp_path_factory.mktemp("synth")
    return out, run_synthesis(_opts(out), SerialExecutor())


def test_mutants_run_through_the_bench_and_only_real_failures_are_kept(run: tuple[Path, object]) -> None:
    out, result = run
    rows = {r["operator"]: r for r in result.records}  # type: ignore[attr-defined]
    assert result.planned == 4 and result.ran == 4 and set(rows) == {"invented_api", "drop_enque", "device_stl",
                                                                     "tail_off_by_one"}
    enq = rows["drop_enque"]
    assert enq["status"] == "runtime_error" and enq["kept"] and enq["failed_by"].startswith("sim")
    assert enq["primary"]["code"] == "SIM-QUE-EMPTY" and enq["classified_as"] == "memory"
    assert enq["primary"]["label"] == "memory"  # an observable mutation: its block is a labelled one
    assert "-        inQ0.EnQue(a0);" in enq["diff"]
    stl = rows["device_stl"]
    assert stl["status"] == "pass" and stl["failed_by"] == "lint" and stl["kept"]  # g++ accepts std::vector
    assert stl["classified_as"] == "device_restriction" and stl["lint"][0]["code"] == "AKG150"
    tail = rows["tail_off_by_one"]
    assert tail["status"] == "pass" and not tail["kept"] and tail["primary"] is None  # DataCopyPad of 0: harmless
    assert (out / "mutants.jsonl").is_file() and len((out / "mutants.jsonl").read_text().splitlines()) == 4


def test_a_rerun_resumes_and_a_cut_line_runs_again(run: tuple[Path, object]) -> None:
    out, _ = run
    again = run_synthesis(_opts(out), SerialExecutor())
    assert again.ran == 0 and again.resumed == 4
    path = out / "mutants.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])  # an interrupted write
    third = run_synthesis(_opts(out), SerialExecutor())
    assert third.ran == 1 and third.resumed == 3 and len(third.records) == 4


def test_sft_and_dpo_files_validate_against_their_schemas(run: tuple[Path, object], tmp_path: Path) -> None:
    out, result = run
    report = build_dataset(result.records, out, {"test": True})  # type: ignore[attr-defined]
    assert report.samples == 3
    sft_schema = json.loads((SCHEMAS / "sft.schema.json").read_text())
    dpo_schema = json.loads((SCHEMAS / "dpo.schema.json").read_text())
    samples = [json.loads(x) for s in ("train", "validation", "test") for x in (out / "sft" / f"{s}.jsonl")
               .read_text().splitlines()]
    assert len(samples) == 3
    for s in samples:
        jsonschema.validate(s, sft_schema)
        assert s["meta"]["task"] == "level1/Math/AddMath"
        fixed = s["messages"][2]["content"].split("```cpp\n", 1)[1].rsplit("\n```", 1)[0]
        assert fixed.strip() == (SUITE / "level1/Math/AddMath/answer/0/op_kernel/add_math.cpp").read_text().strip()
        assert "### The file" in s["messages"][1]["content"] and "## " in s["messages"][1]["content"]
    pairs = [json.loads(x) for s in ("train", "validation", "test") for x in (out / "dpo" / f"{s}.jsonl")
             .read_text().splitlines()]
    for p in pairs:
        jsonschema.validate(p, dpo_schema)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["counts"]["kept"] == 3 and manifest["sources"][0]["licence"].startswith("Apache-2.0")
    assert manifest["tools"]["cxx"] and manifest["tools"]["taxonomy"] == "1.0"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**samples[0], "messages": samples[0]["messages"][:2]}, sft_schema)


def test_a_mutant_that_hangs_is_a_runtime_fault_and_the_run_goes_on(tmp_path: Path) -> None:
    opts = _opts(tmp_path, operators=["drop_enque"], per_kernel=1, timeout_s=8.0)
    (pm,) = plan(opts)
    text = pm.kernel.read_text()
    spin = text.replace("__aicore__ inline void Process()\n    {", "__aicore__ inline void Process()\n    {\n"
                        "        for (volatile int spin = 0; spin >= 0; spin = spin < 5 ? spin + 1 : 0) {}")
    assert spin != text
    pm.kernel.write_text(spin)
    hang = PlannedMutant(pm.source, Mutation("tail_off_by_one", "runtime", (Edit(0, 0, ""),), 1, "spin", "spins"),
                         pm.id, pm.sample, pm.kernel, pm.host_dir, [])
    from akgen_lsp.bench.executor import Job
    from akgen_lsp.bench.pipeline import Candidate
    from akgen_lsp.errors.synthesis import bench_settings

    job = Job(str(pm.source.task.root), Candidate(pm.source.task.id, pm.sample, pm.kernel, pm.host_dir),
              bench_settings(opts), 8.0)
    got: list[dict[str, object]] = []
    LocalPoolExecutor(1).run([job], lambda j, rec: got.append(rec))
    row = mutant_record(hang, got[0], Classifier())
    assert row["status"] == "timeout" and row["kept"] and row["classified_as"] == "runtime"


def test_kept_mutants_export_as_bench_candidates(run: tuple[Path, object], tmp_path: Path) -> None:
    from akgen_lsp.bench.candidates import dir_candidates
    from akgen_lsp.bench.tasks import discover_tasks
    from akgen_lsp.errors.synthesis import export_candidates

    _out, result = run
    n = export_candidates(result.records, tmp_path / "cands")  # type: ignore[attr-defined]
    assert n == 3
    cands = dir_candidates(tmp_path / "cands", discover_tasks(SUITE, names=["AddMath"]))
    assert [c.sample for c in cands] == [0, 1, 2] and all(c.kernel and c.host_dir for c in cands)


def test_linked_export_points_at_the_mutants(run: tuple[Path, object], tmp_path: Path) -> None:
    from akgen_lsp.errors.synthesis import export_candidates

    _out, result = run
    assert export_candidates(result.records, tmp_path / "c", link=True) == 3  # type: ignore[attr-defined]
    kernel = tmp_path / "c" / "AddMath" / "0" / "op_kernel" / "add_math.cpp"
    assert kernel.is_file() and (tmp_path / "c" / "AddMath" / "0" / "op_kernel").is_symlink()
    assert kernel.resolve() in {Path(r["mutant_path"]).resolve() for r in result.records}  # type: ignore[attr-defined]


def test_a_failure_without_any_finding_is_not_a_sample(tmp_path: Path) -> None:
    (pm,) = plan(_opts(tmp_path, operators=["drop_enque"], per_kernel=1))
    pm.lint_new = []  # (the linter sees a dropped EnQue: here only the run is in question)
    rec = {"status": "runtime_error", "findings": [], "mode": "static", "cases": 1}  # a run killed from outside
    row = mutant_record(pm, rec, Classifier())
    assert not row["kept"] and row["harness_problem"] and row["failed_by"] is None


def test_a_source_kernel_that_does_not_pass_is_not_mutated(tmp_path: Path) -> None:
    class Recording(SerialExecutor):
        def run(self, jobs, on_result):  # type: ignore[no-untyped-def]
            for job in jobs:  # every original fails: none of its mutants may run
                on_result(job, {"task": job.candidate.task_id, "sample": job.candidate.sample,
                                "mode": job.settings.mode, "status": "wrong_answer", "findings": []})

    result = run_synthesis(_opts(tmp_path), Recording())
    assert result.failing_sources == {"level1/Math/AddMath#0": "wrong_answer"} and result.ran == 0
