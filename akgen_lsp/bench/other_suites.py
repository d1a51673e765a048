"""The benchmarks coding agents are judged by, beside NPUKernelBench: hicann/cann-bench and MultiKernelBench.

**cann-bench**: a task is a folder ``tasks/level<N>/<op>/`` (also ``bench_lab/kernel_bench/level<N>/<op>/``) with
``proto.yaml`` (the operator: name, category, inputs, outputs, attrs), ``golden.py`` (the PyTorch reference, a
function named after the folder), ``cases.yaml`` or ``cases.csv`` (``case_id``, ``input_shape``, ``dtype``,
``attrs``, ``value_range``) and ``desc.md``; ``metadata/910b2.json`` holds each case's baseline time. Its score per
operator (the published rule) is ``compile x 2 + sum over passing cases of (3 + 5 x speed-up)``; here the speed-up
is the simulator's estimate against the baseline, so the score is labelled estimated.

**MultiKernelBench**: a task is ``reference/<category>/<op>.py``, a PyTorch ``Model`` with ``get_inputs()`` and
``get_init_inputs()`` (the NPUKernelBench-derived sets: ``get_input_groups()``); ``prompts/ascendc_new_model_<op>.py``
are its AscendC example answers.

Loading reads the files only (no torch): it says how many tasks load and, for each that does not, why.
"""

from __future__ import annotations

import ast
import csv
import io
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.bench.tasks import TaskError


def _yaml(path: Path) -> Any:
    try:
        import yaml
    except ImportError:  # PyYAML comes with the bench extra
        raise TaskError("reading cann-bench's YAML needs PyYAML: pip install 'akgen-lsp[bench]'") from None
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise TaskError(f"{path} is not readable YAML ({exc})") from None


@dataclass(frozen=True)
class CannBenchTask:
    level: int
    op: str  # the folder name, which is golden.py's function name: top_k
    name: str  # proto.yaml's operator name: TopK
    category: str
    inputs: tuple[Mapping[str, Any], ...]
    outputs: tuple[Mapping[str, Any], ...]
    attrs: tuple[Mapping[str, Any], ...]
    cases: tuple[Mapping[str, Any], ...]
    root: Path
    baselines: Mapping[int, float] = field(default_factory=dict)  # case id -> baseline us on the 910B2

    @property
    def id(self) -> str:
        return f"level{self.level}/{self.op}"


def _cases(root: Path) -> list[dict[str, Any]]:
    if (root / "cases.yaml").is_file():
        data = _yaml(root / "cases.yaml")
        cases = data.get("cases") if isinstance(data, Mapping) else data
        if not isinstance(cases, list):
            raise TaskError(f"{root / 'cases.yaml'} has no list of cases")
        return [dict(c) for c in cases if isinstance(c, Mapping)]
    if (root / "cases.csv").is_file():
        rows = csv.DictReader(io.StringIO((root / "cases.csv").read_text(encoding="utf-8")))
        out = []
        for row in rows:
            case: dict[str, Any] = dict(row)
            for key in ("input_shape", "dtype", "attrs", "value_range"):
                if case.get(key):
                    try:
                        case[key] = json.loads(case[key])
                    except ValueError:
                        raise TaskError(
                            f"{root / 'cases.csv'}: case {case.get('case_id')}: {key} is not JSON"
                        ) from None
            out.append(case)
        return out
    raise TaskError(f"{root} has neither cases.yaml nor cases.csv")


def _golden_has(root: Path, name: str) -> bool:
    try:
        tree = ast.parse((root / "golden.py").read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return False
    return any(isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == name for n in tree.body)


def load_cann_bench_task(root: Path, baselines: Mapping[str, Any] | None = None) -> CannBenchTask:
    """One cann-bench task folder; TaskError saying what is missing or wrong."""
    for name in ("proto.yaml", "golden.py"):
        if not (root / name).is_file():
            raise TaskError(f"{root} has no {name}")
    proto = _yaml(root / "proto.yaml")
    op = proto.get("operator") if isinstance(proto, Mapping) else None
    if not isinstance(op, Mapping) or not op.get("name"):
        raise TaskError(f"{root / 'proto.yaml'} has no operator.name")
    if not _golden_has(root, root.name):
        raise TaskError(
            f"{root / 'golden.py'} defines no {root.name}() (the reference it must name after the folder)"
        )
    cases = _cases(root)
    if not cases or any("case_id" not in c or "input_shape" not in c for c in cases):
        raise TaskError(f"{root}: every case needs a case_id and an input_shape")
    try:
        level = int(root.parent.name.removeprefix("level"))
    except ValueError:
        raise TaskError(f"{root} is not below a level<N> folder") from None
    base = {
        int(k): float(v["baseline_perf_us"])
        for k, v in (baselines or {}).items()
        if isinstance(v, Mapping) and v.get("baseline_perf_us") is not None
    }
    return CannBenchTask(
        level,
        root.name,
        str(op["name"]),
        str(op.get("category") or ""),
        tuple(op.get("inputs") or ()),
        tuple(op.get("outputs") or ()),
        tuple(op.get("attrs") or ()),
        tuple(cases),
        root,
        base,
    )


def cann_bench_roots(checkout: Path) -> Iterator[Path]:
    """Every task folder of a cann-bench checkout (the main set, then bench_lab's kernel_bench), level by level."""
    for base in (checkout / "tasks", checkout / "bench_lab" / "kernel_bench"):
        for level in sorted(base.glob("level*")):
            yield from sorted(p.parent for p in level.glob("*/proto.yaml"))


def _baselines(base: Path) -> dict[str, Any]:
    meta = base / "metadata" / "910b2.json"
    try:
        return json.loads(meta.read_text(encoding="utf-8")) if meta.is_file() else {}
    except (OSError, ValueError):
        return {}


def load_cann_bench(checkout: Path) -> tuple[list[CannBenchTask], dict[str, str]]:
    """(the tasks that load, {task folder: why it does not})."""
    if not (checkout / "tasks").is_dir():
        raise TaskError(f"{checkout} is not a cann-bench checkout (it has no tasks/ folder)")
    loaded, failed = [], {}
    metas: dict[Path, dict[str, Any]] = {}
    for root in cann_bench_roots(checkout):
        base = root.parent.parent
        meta = metas.setdefault(base, _baselines(base))
        try:
            loaded.append(load_cann_bench_task(root, (meta.get(root.parent.name) or {}).get(root.name)))
        except TaskError as exc:
            failed[str(root.relative_to(checkout))] = str(exc)
    return loaded, failed


def cann_bench_score(
    compiled: bool, passing: Mapping[int, float | None], baselines: Mapping[int, float]
) -> float:
    """compile x 2 + sum over the passing cases of (3 + 5 x speed-up); `passing`: case id -> estimated time (us).
    A passing case with no estimate or no baseline counts 3 (no speed-up term)."""
    score = 2.0 if compiled else 0.0
    for case, est in passing.items():
        base = baselines.get(case)
        speedup = base / est if est and base else 0.0
        score += 3.0 + 5.0 * speedup
    return round(score, 3)


# ------------------------------------------------------------------------------------------------ MultiKernelBench


@dataclass(frozen=True)
class MkbTask:
    category: str
    op: str
    path: Path
    example: Path | None  # the AscendC example answer (prompts/ascendc_new_model_<op>.py), where there is one


def load_mkb_task(path: Path) -> MkbTask:
    """A reference module: a `Model` class with `forward`, and `get_inputs` / `get_init_inputs` (read, not run)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError) as exc:
        raise TaskError(f"{path} does not parse ({exc})") from None
    names = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    model = names.get("Model")
    if not isinstance(model, ast.ClassDef) or not any(
        isinstance(n, ast.FunctionDef) and n.name == "forward" for n in model.body
    ):
        raise TaskError(f"{path} has no class Model with a forward()")
    # the NPUKernelBench-derived sets give several input groups (get_input_groups) where the others give one
    missing = [
        f
        for f in ("get_inputs", "get_init_inputs")
        if f not in names and not (f == "get_inputs" and "get_input_groups" in names)
    ]
    if missing:
        raise TaskError(f"{path} has no {', '.join(missing)}()")
    example = path.parents[2] / "prompts" / f"ascendc_new_model_{path.stem}.py"
    return MkbTask(path.parent.name, path.stem, path, example if example.is_file() else None)


def load_mkb(checkout: Path) -> tuple[list[MkbTask], dict[str, str]]:
    """(the MultiKernelBench tasks that load, {file: why it does not})."""
    ref = checkout / "reference"
    if not ref.is_dir():
        raise TaskError(f"{checkout} is not a MultiKernelBench checkout (it has no reference/ folder)")
    loaded, failed = [], {}
    for path in sorted(ref.glob("*/*.py")):
        if path.name.startswith("_"):
            continue
        try:
            loaded.append(load_mkb_task(path))
        except TaskError as exc:
            failed[str(path.relative_to(checkout))] = str(exc)
    return loaded, failed
