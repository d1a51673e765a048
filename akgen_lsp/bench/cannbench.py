"""Run kernels against hicann/cann-bench tasks on the simulator.

cann-bench ships the operator (``proto.yaml``: inputs, outputs, attrs, the schema), the PyTorch reference
(``golden.py``), the cases (``cases.yaml`` / ``cases.csv``: shapes, dtypes, attrs, value range) and baseline times,
but no AscendC answers and no kernel entry: its own harness builds a torch extension on the NPU. This module turns a
task into the NPUKernelBench layout that ``akgen bench run`` already runs (``bench/pipeline``: host tiling, binding,
build, sandboxed run, compare, estimate), written into a work folder at run time (nothing of the suite is kept):

- the kernel's call is CANN's custom-op call derived from ``proto.yaml``: one ``GM_ADDR`` per input, then per output,
  then ``workspace`` and ``tiling``; the attrs reach the op's TilingFunc by name (``validation/pybind.cpp`` is
  generated: the inputs, the attrs, the outputs, in that order, as aclnn passes them);
- the entry is ``<op>_custom`` and the op type ``<Name>Custom`` (a kernel named ``exp`` would be C's ``exp``), the
  answer's files ``op_kernel/<op>_custom.cpp``, ``op_host/<op>_custom.cpp`` and ``op_host/<op>_custom_tiling.h``;
- inputs are drawn as cann-bench draws them (uniform in the case's value range; integers with ``randint``; a seed
  per task and case), and ``golden.py`` runs in the box like every task's code (bench/ref_box.py);
- the verdict is cann-bench's relative-error rule per output dtype: mean relative error < threshold and max relative
  error < 10 x threshold (2^-10 float16, 2^-7 bfloat16, 2^-13 float32; integers exact); elements whose golden value
  is below the small-value threshold are judged by absolute error instead (a simplification of cann-bench's
  small-value and cancellation fallbacks);
- the score is bench/other_suites.py's ``cann_bench_score`` with the simulator's estimate: labelled estimated.

Tensor-list inputs (``is_list``: one ``at::TensorList`` parameter, one ``GM_ADDR`` to its ListTensorDesc), optional
inputs (a ``null`` shape or one left off the end: ``None`` to golden.py, an empty tensor to the kernel, as aclnn's
nullptr) and int-list attrs (``ListInt``, ``int[]``: ``at::IntArrayRef`` made an ``aclIntArray``) map; what does not
(a Tensor or float-list attr) is said per task (`plan(...).problem`).
"""

from __future__ import annotations

import ast
import json
import math
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from akgen_lsp.bench.other_suites import CannBenchTask, cann_bench_score, load_cann_bench
from akgen_lsp.bench.tasks import TaskError

SCALAR_TYPES = {
    "float": "double",
    "double": "double",
    "int": "int64_t",
    "int64": "int64_t",
    "int64_t": "int64_t",
    "int32": "int64_t",
    "bool": "bool",
    "str": "std::string",
    "string": "std::string",
}
THRESHOLDS = {"float16": 2.0**-10, "bfloat16": 2.0**-7, "float32": 2.0**-13, "float64": 2.0**-13}
SMALL_VALUES = {"float16": 2.0**-11, "bfloat16": 2.0**-8, "float32": 2.0**-14, "float64": 2.0**-14}
INT_LISTS = {"listint", "int[]", "list[int]", "listint64", "int64[]"}  # attr types (lowercase, no spaces)
INT_LIST = "at::IntArrayRef"
DEFAULT_MAX_ELEMENTS = 1 << 22  # 4 Mi elements (inputs together) per case: larger cases are counted, not run


def pascal(snake: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in snake.split("_") if p)


@dataclass(frozen=True)
class Plan:
    """How a task maps to a kernel call; `problem` says why it does not (None when it does)."""

    task: CannBenchTask
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    attrs: tuple[tuple[str, str, Any], ...]  # (name, C++ type, default)
    golden_keywords: bool  # golden.py takes the attrs by their proto names
    golden_all_keywords: bool = False  # ... and the inputs too (its parameters interleave them: scatter)
    problem: str | None = None
    lists: tuple[str, ...] = ()  # the tensor-list inputs
    optional: tuple[str, ...] = ()  # the optional inputs
    get_input: bool = False  # golden.py has get_input(): cann-bench makes each case's inputs with it

    @property
    def op(self) -> str:
        return f"{self.task.op}_custom"

    @property
    def name(self) -> str:
        return f"{pascal(self.task.op)}Custom"


def _golden_params(task: CannBenchTask) -> dict[str, tuple[str, Any]]:
    """golden.py's parameters of the task's function: {name: (its annotation's text, its default when a literal)}."""
    tree = ast.parse((task.root / "golden.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == task.op:
            args = node.args.args + node.args.kwonlyargs
            defaults = [None] * (len(node.args.args) - len(node.args.defaults)) + list(node.args.defaults)
            defaults += list(node.args.kw_defaults)
            out = {}
            for a, d in zip(args, defaults, strict=True):
                try:
                    value = ast.literal_eval(d) if d is not None else None
                except ValueError:
                    value = None
                out[a.arg] = (ast.unparse(a.annotation) if a.annotation else "", value)
            return out
    return {}


def plan(task: CannBenchTask) -> Plan:
    """The call of `task`'s kernel, or the reason it cannot be made yet."""
    inputs = tuple(str(i.get("name")) for i in task.inputs)
    outputs = tuple(str(o.get("name")) for o in task.outputs)
    problem = None
    attrs: list[tuple[str, str, Any]] = []
    params = _golden_params(task)
    for a in task.attrs:
        kind = str(a.get("type") or "").strip().lower().replace(" ", "")
        ctype = SCALAR_TYPES.get(kind) or (INT_LIST if kind in INT_LISTS else None)
        if ctype is None and problem is None:
            problem = (
                f"attr {a.get('name')} is of type {a.get('type')} (scalar, string and int-list attrs map)"
            )
        default = a.get("default")  # else golden.py's own (strided_slice's masks: 0)
        default = params.get(str(a.get("name")), ("", None))[1] if default is None else default
        attrs.append((str(a.get("name")), ctype or "", default))
    lists, optional = [], []
    for i in task.inputs:
        dt = i.get("dtype")
        kind = f"{i.get('type') or ''} {i.get('param_type') or ''}".lower()
        # golden.py's List[torch.Tensor] or Optional[List[torch.Tensor]] (gru, lstm)
        note = params.get(str(i.get("name")), ("", None))[0].replace(" ", "").lower()
        note = note.removeprefix("optional[")
        listed = kind.startswith(("list", "tensor[")) or note.startswith(("list[", "sequence["))
        if i.get("is_list") or i.get("dynamic") or "dynamic" in kind or listed:
            lists.append(str(i.get("name")))
        if i.get("optional") or "optional" in kind:
            optional.append(str(i.get("name")))
        if not dt:
            problem = problem or f"input {i.get('name')} has no dtype in proto.yaml"
    if not inputs or not outputs:
        problem = problem or "proto.yaml names no inputs or no outputs"
    keywords = all(name in params for name, _, _ in attrs)
    all_keywords = keywords and all(name in params for name in inputs)
    for case in task.cases:
        problem = problem or _shapes_problem(case, inputs, lists, optional)
    return Plan(
        task,
        inputs,
        outputs,
        tuple(attrs),
        keywords,
        golden_all_keywords=all_keywords,
        problem=problem,
        lists=tuple(lists),
        optional=tuple(optional),
        get_input=_golden_has_get_input(task),
    )


def _golden_has_get_input(task: CannBenchTask) -> bool:
    tree = ast.parse((task.root / "golden.py").read_text(encoding="utf-8"))
    return any(isinstance(n, ast.FunctionDef) and n.name == "get_input" for n in tree.body)


def _is_shape(s: Any) -> bool:
    return isinstance(s, list) and all(isinstance(d, int) for d in s)


def _shapes_problem(
    case: Mapping[str, Any], inputs: Sequence[str], lists: Sequence[str], optional: Sequence[str]
) -> str | None:
    """Why `case`'s input_shape does not give each input a shape (a list of shapes for a tensor list; ``null``, or
    none at the end, for an absent optional input), or None."""
    shapes, cid = case.get("input_shape"), case.get("case_id")
    if not isinstance(shapes, list) or len(shapes) > len(inputs):
        return f"case {cid}: input_shape is not one shape per input ({len(inputs)} inputs)"
    for i, name in enumerate(inputs):
        s = shapes[i] if i < len(shapes) else None
        if s is None:
            if name not in optional:
                return f"case {cid}: no shape for input {name}, which is not optional"
        elif name in lists:
            if not isinstance(s, list) or not s or not all(_is_shape(x) for x in s):
                return f"case {cid}: input {name} is a tensor list but its shape is not a list of shapes"
        elif not _is_shape(s):
            return f"case {cid}: input_shape is not one shape per tensor (input {name})"
    return None


def case_elements(case: Mapping[str, Any]) -> int:
    n = 0
    for s in case.get("input_shape") or []:
        if _is_shape(s):
            n += math.prod(s)
        elif isinstance(s, list):  # a tensor list
            n += sum(math.prod(x) for x in s if _is_shape(x))
    return n


# ------------------------------------------------------------------------------------------------ generated files

_MODULE = '''"""Generated by akgen (bench/cannbench.py): cann-bench's golden.py as NPUKernelBench's Model / ModelNew."""
import importlib.util
import pathlib

import torch

_spec = importlib.util.spec_from_file_location("cann_bench_golden", pathlib.Path(__file__).with_name("golden.py"))
_golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_golden)
_FN = getattr(_golden, {op!r})
N_INPUTS = {n_inputs}
INPUTS = {inputs!r}
ATTRS = {attrs!r}
KEYWORDS = {keywords!r}
ALL_KEYWORDS = {all_keywords!r}


class Model(torch.nn.Module):
    def forward(self, *args):
        tensors, attrs = args[:N_INPUTS], args[N_INPUTS:]
        if ALL_KEYWORDS:
            return _FN(**dict(zip(INPUTS, tensors)), **dict(zip(ATTRS, attrs)))
        if KEYWORDS:
            return _FN(*tensors, **dict(zip(ATTRS, attrs)))
        return _FN(*tensors, *attrs)


class ModelNew(torch.nn.Module):
    def forward(self, *args):
        import kernel_gen_ops
        return kernel_gen_ops.{kop}(*args)
'''

_PREPARE = '''"""Generated by akgen (bench/cannbench.py): a cann-bench case's inputs and its precision rule."""
import json

import torch

ATTRS = {attrs!r}
INPUTS = {inputs!r}
GET_INPUT = {get_input!r}  # golden.py's get_input() remakes the drawn inputs (consistent indices, counts)
N_INPUTS = {n_inputs}
LISTS = {lists!r}  # the indexes of the tensor-list inputs
THRESHOLDS = {thresholds!r}
SMALL_VALUES = {small!r}


def _j(v):
    return json.loads(v) if isinstance(v, str) else v


def _range(vr, i, n):
    if isinstance(vr, list) and len(vr) == n and all(isinstance(r, list) or r is None for r in vr):
        vr = vr[i]
    if isinstance(vr, list) and len(vr) == 2 and not isinstance(vr[0], list):
        return float(vr[0]), float(vr[1])
    return -1.0, 1.0


def _tensor(shape, dtype, lo, hi):
    if dtype == torch.bool:
        return torch.rand(shape) < 0.5
    if dtype.is_floating_point:
        return (torch.rand(shape, dtype=torch.float32) * (hi - lo) + lo).to(dtype)
    return torch.randint(int(lo), int(hi) + 1, shape, dtype=dtype)


def get_inputs(param, device=None):
    shapes, dtypes = _j(param["input_shape"]), _j(param["dtype"])
    vr, attrs = _j(param.get("value_range") or "null"), _j(param.get("attrs") or "{{}}") or {{}}
    out = []
    for i in range(N_INPUTS):
        shape = shapes[i] if i < len(shapes) else None
        if shape is None:  # an absent optional input
            out.append(None)
            continue
        name = dtypes[i] if i < len(dtypes) and dtypes[i] else next(d for d in reversed(dtypes) if d)
        name = name[0] if isinstance(name, list) else name  # a tensor list's dtypes: one for all
        dtype, (lo, hi) = getattr(torch, name), _range(vr, i, len(shapes))
        out.append([_tensor(s, dtype, lo, hi) for s in shape] if i in LISTS else _tensor(shape, dtype, lo, hi))
    if GET_INPUT:  # as cann-bench calls it: the inputs and the case's attrs by name
        made = _golden_get_input()(**{{**attrs, **dict(zip(INPUTS, out)), "skip2_exist": attrs.get("skip2_exist", True)}})
        made = list(made) if isinstance(made, (list, tuple)) else [made]
        out = (made + [None] * N_INPUTS)[:N_INPUTS]
    return (*out, *[attrs.get(name, default) for name, default in ATTRS])


def _golden_get_input():
    import importlib.util
    import pathlib

    spec = importlib.util.spec_from_file_location("cann_bench_inputs", pathlib.Path(__file__).with_name("golden.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.get_input


def get_init_inputs(param, device=None):
    return []


def custom_check_precision(param, outputs, outputs_new):
    outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    outputs_new = outputs_new if isinstance(outputs_new, (list, tuple)) else [outputs_new]
    ok, abs_all, rel_all = True, [], []
    for golden, actual in zip(outputs, outputs_new):
        name = str(golden.dtype).replace("torch.", "")
        if not golden.is_floating_point():
            same = torch.equal(golden, actual.to(golden.dtype))
            diff = (golden.double() - actual.double()).abs().reshape(-1)
            ok, abs_all, rel_all = ok and same, abs_all + [diff], rel_all + [diff]
            continue
        g, a = golden.double().reshape(-1), actual.double().reshape(-1)
        diff = (g - a).abs()
        finite = torch.isfinite(g)
        bad_special = (~finite & ~((g == a) | (torch.isnan(g) & torch.isnan(a)))).any()
        thr, small = THRESHOLDS.get(name, 2.0 ** -13), SMALL_VALUES.get(name, 2.0 ** -14)
        big = finite & (g.abs() >= small)
        rel = diff[big] / (g[big].abs() + 1e-7)
        mere = float(rel.mean()) if rel.numel() else 0.0
        mare = float(rel.max()) if rel.numel() else 0.0
        small_ok = bool((diff[finite & ~big] <= small).all())
        ok = ok and not bool(bad_special) and mere < thr and mare < 10 * thr and small_ok
        abs_all.append(diff[finite])
        rel_all.append(diff[finite] / (g[finite].abs() + 1e-7))
    return ok, torch.cat(abs_all), torch.cat(rel_all)
'''


def _pybind(p: Plan) -> str:
    params, body = [], []
    for n in p.inputs:
        if n in p.lists:
            params.append(f"at::TensorList {n}")
        elif n in p.optional:  # unwrapped as aclnn's callers do: an empty tensor stands for nullptr
            params.append(f"c10::optional<at::Tensor> &{n}_opt")
            body.append(f"    at::Tensor {n} = {n}_opt.has_value() ? {n}_opt.value() : at::Tensor();")
        else:
            params.append(f"at::Tensor &{n}")
    params += [f"{t} {n}" for n, t, _ in p.attrs]
    body += [f"    aclIntArray *{n}_array = ConvertType({n});" for n, t, _ in p.attrs if t == INT_LIST]
    attr_args = [
        f"{n}.c_str()" if t == "std::string" else f"{n}_array" if t == INT_LIST else n for n, t, _ in p.attrs
    ]
    args = list(p.inputs) + attr_args + list(p.outputs)
    like = next((n for n in p.inputs if n not in p.lists and n not in p.optional), None)
    like = like or f"{p.inputs[0]}[0]"
    outs = "\n".join([*body, *(f"    at::Tensor {o} = at::empty_like({like});" for o in p.outputs)])
    ret = p.outputs[0] if len(p.outputs) == 1 else "{" + ", ".join(p.outputs) + "}"
    rtype = "at::Tensor" if len(p.outputs) == 1 else "std::vector<at::Tensor>"
    return (
        f"// Generated by akgen (bench/cannbench.py) from proto.yaml: the op's call as aclnn makes it.\n"
        f'#include <torch/library.h>\n#include "pytorch_npu_helper.hpp"\n\n'
        f"{rtype} custom_pybind_api({', '.join(params)})\n{{\n{outs}\n"
        f"    EXEC_NPU_CMD(aclnn{p.name}, {', '.join(args)});\n    return {ret};\n}}\n"
    )


def _entry(p: Plan) -> str:
    params = ", ".join(
        [f"GM_ADDR {n}" for n in p.inputs + p.outputs] + ["GM_ADDR workspace", "GM_ADDR tiling"]
    )
    return (
        f"// Generated by akgen (bench/cannbench.py): the kernel entry a cann-bench answer defines.\n"
        f'#include "kernel_operator.h"\n\n'
        f'extern "C" __global__ __aicore__ void {p.op}({params})\n{{\n}}\n'
    )


def _csv(task: CannBenchTask, max_elements: int | None) -> tuple[str, list[int]]:
    """test_cases.csv of the cases that are run, and the ids of those left out for their size."""
    lines, skipped = ["case_id;input_shape;dtype;attrs;value_range"], []
    for c in task.cases:
        if max_elements is not None and case_elements(c) > max_elements:
            skipped.append(int(c["case_id"]))
            continue
        cells = [str(int(c["case_id"]))] + [
            json.dumps(c.get(k), separators=(",", ":"))
            for k in ("input_shape", "dtype", "attrs", "value_range")
        ]
        lines.append(";".join(cells))
    return "\n".join(lines) + "\n", skipped


def materialize(
    p: Plan, dest: Path, answer: Path | None = None, max_elements: int | None = None
) -> tuple[Path, list[int]]:
    """Write `p`'s task in NPUKernelBench's layout under `dest` (``level<N>/CannBench/<Name>Custom``), with `answer`
    (a folder with op_kernel/ and op_host/) as ``answer/0``; (the task folder, the case ids left out for size)."""
    if p.problem:
        raise TaskError(f"{p.task.id}: {p.problem}")
    root = dest / f"level{p.task.level}" / "CannBench" / p.name
    if root.exists():
        shutil.rmtree(root)
    (root / "validation").mkdir(parents=True)
    (root / "question" / "op_kernel").mkdir(parents=True)
    shutil.copyfile(p.task.root / "golden.py", root / "validation" / "golden.py")
    if (p.task.root / "desc.md").is_file():
        shutil.copyfile(p.task.root / "desc.md", root / "api_desc.md")
    attr_names = [n for n, _, _ in p.attrs]
    (root / "validation" / "module.py").write_text(
        _MODULE.format(
            op=p.task.op,
            n_inputs=len(p.inputs),
            inputs=list(p.inputs),
            attrs=attr_names,
            keywords=p.golden_keywords,
            all_keywords=p.golden_all_keywords,
            kop=p.op,
        ),
        encoding="utf-8",
    )
    (root / "validation" / "prepare_inputs.py").write_text(
        _PREPARE.format(
            attrs=[(n, d) for n, _, d in p.attrs],
            n_inputs=len(p.inputs),
            inputs=list(p.inputs),
            get_input=p.get_input,
            lists=[i for i, n in enumerate(p.inputs) if n in p.lists],
            thresholds=THRESHOLDS,
            small=SMALL_VALUES,
        ),
        encoding="utf-8",
    )
    (root / "validation" / "pybind.cpp").write_text(_pybind(p), encoding="utf-8")
    text, skipped = _csv(p.task, max_elements)
    (root / "validation" / "test_cases.csv").write_text(text, encoding="utf-8")
    (root / "question" / "op_kernel" / f"{p.op}.cpp").write_text(_entry(p), encoding="utf-8")
    if answer is not None:
        shutil.copytree(answer, root / "answer" / "0", ignore=shutil.ignore_patterns("*.md", "__pycache__"))
    return root, skipped


# ------------------------------------------------------------------------------------------------ a run


def answers_in(folder: Path) -> dict[str, Path]:
    """{task id (level1/exp): its answer folder} of a folder laid out ``level<N>/<op>/{op_kernel,op_host}``."""
    return {
        f"{d.parent.name}/{d.name}": d for d in sorted(folder.glob("level*/*")) if (d / "op_kernel").is_dir()
    }


def run_answers(
    checkout: Path,
    answers: Path,
    out: Path,
    *,
    tasks: Sequence[str] = (),
    max_elements: int | None = DEFAULT_MAX_ELEMENTS,
    max_cases: int | None = None,
    jobs: int | None = None,
    arch: str = "Ascend910B2",
) -> dict[str, Any]:
    """Run the answers in `answers` against their cann-bench tasks on the simulator; a summary per task: cases run,
    passed, left out for size, the estimated score."""
    from akgen_lsp.bench.runner import RunOptions, run_bench

    loaded, failed = load_cann_bench(checkout)
    by_id = {t.id: t for t in loaded if (t.root.parent.parent.name == "tasks")}
    found = answers_in(answers)
    if tasks:
        found = {k: v for k, v in found.items() if k in tasks or k.split("/")[-1] in tasks}
    if not found:
        raise TaskError(
            f"no answers in {answers}: lay them out as level<N>/<op>/op_kernel/<op>_custom.cpp and "
            "op_host/<op>_custom.cpp"
        )
    suite = out / "suite"
    report: dict[str, Any] = {"tasks": {}, "load_failed": failed}
    names: dict[str, str] = {}
    for tid, adir in found.items():
        task = by_id.get(tid)
        if task is None:
            report["tasks"][tid] = {"error": f"{tid} is not a task of {checkout / 'tasks'}"}
            continue
        p = plan(task)
        if p.problem:
            report["tasks"][tid] = {"error": p.problem}
            continue
        root, skipped = materialize(p, suite, adir, max_elements)
        names[str(root.relative_to(suite))] = tid  # the generated task's id: level1/CannBench/ExpCustom
        report["tasks"][tid] = {"cases": len(task.cases), "left_out_for_size": skipped}
    if names:
        summary = run_bench(
            RunOptions(
                suite=suite,
                tasks=tuple(names),
                mode="dynamic",
                candidates="answers",
                jobs=jobs,
                out=out / "run",
                arch=arch,
                max_cases=max_cases,
                toolchain="sim",
            )
        )
        report["run_summary"] = {k: summary.get(k) for k in ("counts", "pass_rate") if k in summary}
        _collect(out / "run" / "results.jsonl", names, by_id, report)
    return report


def _collect(
    results: Path, names: Mapping[str, str], by_id: Mapping[str, CannBenchTask], report: dict[str, Any]
) -> None:
    for line in results.read_text(encoding="utf-8").splitlines() if results.is_file() else []:
        rec = json.loads(line)
        tid = names.get(str(rec.get("task", "")))
        if tid is None:
            continue
        task = by_id[tid]
        cases = rec.get("case_results") or []
        passing = {int(c["case_id"]): c.get("estimate_us") for c in cases if c.get("status") == "pass"}
        entry = report["tasks"][tid]
        entry.update(
            {
                "status": rec.get("status"),
                "compiled": bool(rec.get("compiled")),
                "run": len(cases),
                "passed": len(passing),
                "estimate_us": {k: v for k, v in passing.items() if v is not None},
                "failed": {int(c["case_id"]): c.get("status") for c in cases if c.get("status") != "pass"},
            }
        )
        entry["score_estimated"] = cann_bench_score(bool(entry["compiled"]), passing, task.baselines)


def check_references(checkout: Path, out: Path, tasks: Sequence[str] = ()) -> dict[str, str]:
    """For every task of `checkout`'s tasks/ folder: can it be run? The call is mapped (`plan`), and golden.py
    computes the reference of the task's smallest case in the box on inputs drawn as above. {task id: "ok" or why
    not}."""
    from akgen_lsp.bench import ref_box, reference

    loaded, failed = load_cann_bench(checkout)
    report = {tid: f"does not load: {why}" for tid, why in failed.items() if tid.startswith("tasks/")}
    for t in loaded:
        if t.root.parent.parent.name != "tasks" or (tasks and t.id not in tasks and t.op not in tasks):
            continue
        p = plan(t)
        if p.problem:
            report[t.id] = p.problem
            continue
        smallest = min(t.cases, key=case_elements)
        root, _ = materialize(p, out, None, max_elements=None)
        task = _load(root)
        case = next(c for c in task.cases() if c.case_id == int(smallest["case_id"]))
        try:
            data, _ = ref_box.compute_case(
                reference, task, case, list(p.inputs) + [n for n, _, _ in p.attrs], list(p.outputs)
            )
            report[t.id] = "ok" if data.outputs else "golden.py returned no tensor"
        except (reference.ReferenceError_, reference.Skip) as exc:
            report[t.id] = f"golden.py: {str(exc).splitlines()[-1][:300] if str(exc) else type(exc).__name__}"
    return report


def _load(root: Path) -> Any:
    from akgen_lsp.bench.tasks import load_task

    return load_task(root)
