"""cann-bench and MultiKernelBench task folders load (read, not run), the broken ones say why, and cann-bench's
score follows its rule with the estimate's speed-up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from akgen_lsp.bench.other_suites import cann_bench_score, load_cann_bench, load_mkb
from akgen_lsp.bench.tasks import TaskError

pytest.importorskip("yaml")

PROTO = """operator:
  name: Scale
  category: Math
  inputs:
  - {name: x, dtype: [float16, float32]}
  outputs:
  - {name: y}
  attrs:
  - {name: alpha, type: float, required: true}
"""
CASES_YAML = """cases:
- {operator: Scale, case_id: 1, input_shape: [[1024]], dtype: [float16], attrs: {alpha: 2.0}}
- {operator: Scale, case_id: 2, input_shape: [[64, 64]], dtype: [float32], attrs: {alpha: 0.5}}
"""
CASES_CSV = 'operator,case_id,input_shape,dtype,attrs\nScale,1,[[8]],"[""float32""]","{""alpha"": 1.0}"\n'


def _task(base: Path, level: int, op: str, cases: str | None = CASES_YAML, golden: str | None = None) -> Path:
    root = base / f"level{level}" / op
    root.mkdir(parents=True)
    (root / "proto.yaml").write_text(PROTO, encoding="utf-8")
    (root / "golden.py").write_text(golden if golden is not None else f"def {op}(x, alpha):\n    return x * alpha\n",
                                    encoding="utf-8")
    (root / "desc.md").write_text("Scale x by alpha.\n", encoding="utf-8")
    if cases is not None:
        (root / ("cases.csv" if cases.startswith("operator,") else "cases.yaml")).write_text(cases, encoding="utf-8")
    return root


def test_cann_bench_tasks_load_with_their_cases_and_baselines(tmp_path: Path) -> None:
    tasks_dir = tmp_path / "tasks"
    _task(tasks_dir, 1, "scale")
    _task(tasks_dir, 2, "scale_csv", cases=CASES_CSV)
    _task(tasks_dir, 2, "no_cases", cases=None)
    _task(tasks_dir, 3, "wrong_golden", golden="def other(x):\n    return x\n")
    (tasks_dir / "metadata").mkdir()
    (tasks_dir / "metadata/910b2.json").write_text(json.dumps(
        {"level1": {"scale": {"1": {"baseline_perf_us": 20.0}, "2": {"baseline_perf_us": 8.0}}}}), encoding="utf-8")
    _task(tmp_path / "bench_lab/kernel_bench", 4, "scale")
    loaded, failed = load_cann_bench(tmp_path)
    assert [t.id for t in loaded] == ["level1/scale", "level2/scale_csv", "level4/scale"]
    first = loaded[0]
    assert first.name == "Scale" and first.category == "Math" and [c["case_id"] for c in first.cases] == [1, 2]
    assert first.cases[1]["input_shape"] == [[64, 64]] and first.baselines == {1: 20.0, 2: 8.0}
    assert loaded[1].cases[0]["attrs"] == {"alpha": 1.0} and loaded[1].cases[0]["input_shape"] == [[8]]
    assert set(failed) == {"tasks/level2/no_cases", "tasks/level3/wrong_golden"}
    assert "neither cases.yaml nor cases.csv" in failed["tasks/level2/no_cases"]
    assert "defines no wrong_golden()" in failed["tasks/level3/wrong_golden"]
    with pytest.raises(TaskError, match="not a cann-bench checkout"):
        load_cann_bench(tmp_path / "tasks")


def test_cann_bench_score_is_compile_2_plus_3_plus_5_speedup_per_passing_case() -> None:
    baselines = {1: 20.0, 2: 8.0, 3: 5.0}
    # case 1 twice as fast as its baseline (3 + 5 x 2), case 2 as fast (3 + 5), case 3 passes with no estimate (3)
    assert cann_bench_score(True, {1: 10.0, 2: 8.0, 3: None}, baselines) == 2 + 13 + 8 + 3
    assert cann_bench_score(False, {}, baselines) == 0.0
    assert cann_bench_score(True, {}, baselines) == 2.0


def test_multikernelbench_tasks_load_and_find_their_ascendc_examples(tmp_path: Path) -> None:
    ref = tmp_path / "reference"
    (ref / "activation").mkdir(parents=True)
    (ref / "npukernelbench_level1").mkdir()
    body = "class Model:\n    def forward(self, x):\n        return x\n\ndef get_init_inputs():\n    return []\n"
    (ref / "activation/relu.py").write_text(body + "\ndef get_inputs():\n    return []\n", encoding="utf-8")
    (ref / "npukernelbench_level1/1_add.py").write_text(body + "\ndef get_input_groups():\n    return []\n",
                                                        encoding="utf-8")
    (ref / "activation/broken.py").write_text("class Model:\n    pass\n", encoding="utf-8")
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts/ascendc_new_model_relu.py").write_text("# the example answer\n", encoding="utf-8")
    loaded, failed = load_mkb(tmp_path)
    assert [(t.category, t.op) for t in loaded] == [("activation", "relu"), ("npukernelbench_level1", "1_add")]
    assert loaded[0].example is not None and loaded[1].example is None
    assert list(failed) == ["reference/activation/broken.py"] and "no class Model with a forward" in failed[
        "reference/activation/broken.py"]
