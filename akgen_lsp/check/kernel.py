"""One entry for the server and `akgen check`: check a kernel file against the bench task it belongs to.

``check_kernel(path, settings) -> CheckResult`` (check/result.py: its findings and figures). The task is found, in order:
1. from the NPUKernelBench layout around the file (``.../<Op>/answer/N/op_kernel/<op>.cpp`` or
   ``.../<Op>/question/op_kernel/<op>.cpp``): the task's cases, reference and checks apply, with the answer's
   ``op_host`` for host tiling;
2. from a ``[[task]]`` table of the nearest ``akgen.toml`` whose ``file`` is this file (see samples/akgen.toml):
   ``bench`` names a task of the suite (``bench.suite``, else the bundled suite) whose checks apply, with ``case``
   for a static-shape kernel; without ``bench``, the table itself is the task (``inputs``/``outputs`` with shapes and
   dtypes, ``params``, and ``reference``, a PyTorch expression over the input names, evaluated with NumPy
   (bench/torchlike.py), with torch only for what that evaluator does not have);
3. from the layout of a CANN operator repository (``<repo>/<category>/<op>/op_kernel/``, a header there, or its
   ``tests/ut/op_kernel``): the operator's own kernel UT, built and run on the simulator (check/op_ut.py).
With no task, it returns no findings and figures whose ``task`` is None: only lint and compile apply (the caller decides).
A task named by the caller (``akgen fix --task NAME``: a suite task's path below ``tasks/`` or its op folder name)
takes the place of both.

With `text`, that text is checked in place of the file's contents (a candidate repair): it is written to a copy of
the file's folder (its headers and sources beside it) in a temporary folder, the task is still the one of `path`,
and the findings name `path` again.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from akgen_lsp import config
from akgen_lsp.bench.pipeline import Candidate, RunSettings, evaluate
from akgen_lsp.bench.pipeline.record import record_findings
from akgen_lsp.bench.runner import default_suite
from akgen_lsp.bench.tasks import Task, TaskError, find_task_for_path, load_task, tasks_dir
from akgen_lsp.check.op_ut import check_op_command, check_op_ut, op_folder, op_layout_for
from akgen_lsp.check.result import CheckResult, Figures, Status
from akgen_lsp.check.settings import settings_of
from akgen_lsp.findings import Finding, Span
from akgen_lsp.sandbox import MODES, use_mode
from akgen_lsp.sim.later import later, pending, remove_later
from akgen_lsp.sim.op_test import A2A3, DEFAULT_SOC

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _workspace_entry(path: Path) -> tuple[Path, Mapping[str, Any]] | None:
    from akgen_lsp.config import find_config_file

    cfg = find_config_file(path.parent)
    while cfg is not None:
        try:
            data = tomllib.loads(cfg.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, OSError):
            return None
        for entry in data.get("task", []) or []:
            f = entry.get("file")
            if isinstance(f, str) and (cfg.parent / f).resolve() == path.resolve():
                return cfg.parent, entry
        parent = cfg.parent.parent
        cfg = find_config_file(parent) if parent != cfg.parent else None
    return None


def _bench_task(name: str, settings: config.Settings) -> Task | None:
    """The suite task `name`: its path below the tasks folder (``level1/Math/AddCustom``), else its op folder name
    (``AddCustom``, case-insensitive), in ``bench.suite`` and then the bundled suite."""
    roots = [Path(s) for s in (settings["bench.suite"],) if s] + [default_suite()]
    for root in roots:
        for base in (tasks_dir(root), root):
            cand = base / name
            if (cand / "validation").is_dir():
                return load_task(cand)
    if "/" not in name:
        for root in roots:
            for cand in sorted(tasks_dir(root).glob("level*/*/*")):
                if cand.name.lower() == name.lower() and (cand / "validation").is_dir():
                    return load_task(cand)
    return None


_SIBLING_SUFFIXES = (".h", ".hpp", ".hh", ".inc", ".cpp", ".cc", ".cxx", ".asc")
_SIBLING_MAX_BYTES = 1 << 20


def _candidate_copy(path: Path, text: str, work: Path) -> Path:
    """`text` as the file `path` in a copy of its folder under `work` (the headers and sources beside it copied, so
    its quote includes resolve as they do for the original); returns the copy's path."""
    folder = work / "candidate" / path.parent.name
    folder.mkdir(parents=True)
    try:
        siblings = list(path.parent.iterdir())
    except OSError:
        siblings = []
    from akgen_lsp.safety import read_regular

    for sib in siblings:
        if sib.name == path.name or sib.suffix.lower() not in _SIBLING_SUFFIXES:
            continue
        try:  # a regular file inside the folder, links resolved: a header linked to a secret outside is not copied
            data = read_regular(sib, _SIBLING_MAX_BYTES, root=path.parent)
        except OSError:
            continue
        (folder / sib.name).write_bytes(data)
    copy = folder / path.name
    copy.write_text(text, encoding="utf-8")
    return copy


def _original_of(path: str, copy: Path, original: Path) -> str | None:
    """The original file of a path in the candidate copy's folder (the copy itself, or a header copied beside it)."""
    if not path:
        return None
    p = Path(path).resolve()
    if p == copy.resolve():
        return str(original)
    if p.parent == copy.parent.resolve():
        return str(original.parent / p.name)
    return None


def _named_here(f: Finding, copy: Path, original: Path) -> Finding:
    """A finding of the candidate copy (or of a header copied beside it), named at the original file."""

    def moved(span: Span) -> Span:
        where = _original_of(span.path, copy, original)
        return span.with_path(where) if where else span

    where = _original_of(f.span.path, copy, original)
    if where is None and not any(
        _original_of(e.span.path, copy, original) for fx in f.fixes for e in fx.edits
    ):
        return f
    return replace(
        f,
        span=moved(f.span),
        fixes=tuple(
            replace(fx, edits=tuple(replace(e, span=moved(e.span)) for e in fx.edits)) for fx in f.fixes
        ),
    )


_PREPARE = '''"""Inputs of a workspace task (generated by akgen from akgen.toml)."""
import json
from pathlib import Path

from akgen_lsp.bench import npref
from akgen_lsp.bench.tasks import parse_shape

SPEC = json.loads((Path(__file__).parent / "spec.json").read_text())


def _shape(spec, param):
    return spec["shape"] if "shape" in spec else parse_shape(param.get("shape", "[1]"))


def _dtype(spec, param):
    return spec.get("dtype") or param.get("dtype") or "float32"


def get_inputs(param, device=None):
    return tuple(npref.randn(_shape(i, param), _dtype(i, param)) for i in SPEC["inputs"])


def get_init_inputs(param, device=None):
    return []


def tolerance(param):
    return npref.tolerance(_dtype(SPEC["outputs"][0], param) if SPEC["outputs"] else _dtype({}, param))
'''

_REFERENCE = '''"""Reference of a workspace task: its PyTorch expression (generated by akgen from akgen.toml), evaluated
with NumPy (bench/torchlike.py), or with torch when the expression uses what the NumPy evaluator does not have."""
import json
from pathlib import Path

import numpy as np

from akgen_lsp.bench import torchlike
from akgen_lsp.bench.npref import Bf16
from akgen_lsp.bench.reference import Skip, torch_available, torch_fix

SPEC = json.loads((Path(__file__).parent / "spec.json").read_text())


def reference(param, *inputs):
    names = [spec["name"] for spec in SPEC["inputs"]]
    try:
        return torchlike.evaluate(SPEC["reference"], dict(zip(names, inputs)), SPEC.get("params", {}))
    except torchlike.Unsupported as exc:
        if not torch_available():
            raise Skip(f"the task's reference `{SPEC['reference']}` uses {exc}, which akgen's NumPy evaluator does "
                       f"not have, and torch is not installed: {torch_fix()}") from None
    import torch

    env = {"torch": torch, **SPEC.get("params", {})}
    for name, x in zip(names, inputs):
        if isinstance(x, Bf16):
            t = torch.from_numpy(np.asarray(x).view(np.int16).copy()).view(torch.bfloat16)
        else:
            t = torch.from_numpy(np.ascontiguousarray(x))
        env[name] = t
    out = eval(SPEC["reference"], {"__builtins__": {}}, env)
    return out
'''


def _cases_csv(cases: Any, inputs: Any = ()) -> str:
    """test_cases.csv of a workspace task: one row per ``cases`` entry (shape, dtype, attributes), else one row (the
    first input's shape and dtype: what a generation prompt shows as the case)."""
    rows = [c for c in cases if isinstance(c, Mapping)] if isinstance(cases, list) else []
    if not rows:
        first = next((i for i in inputs if isinstance(i, Mapping)), {}) if isinstance(inputs, list) else {}
        return (
            f"case_id;shape;dtype\n0;{json.dumps(first.get('shape', [1]))};{first.get('dtype', 'float32')}\n"
        )
    columns = ["shape", "dtype", *sorted({k for c in rows for k in c} - {"shape", "dtype"})]
    lines = [";".join(["case_id", *columns])]
    for i, case in enumerate(rows):
        cells = [str(i)]
        for col in columns:
            value = case.get(col, "")
            cells.append(json.dumps(value) if isinstance(value, (list, dict)) else str(value))
        lines.append(";".join(cells))
    return "\n".join(lines) + "\n"


def _workspace_task(root: Path, entry: Mapping[str, Any], work: Path) -> Task:
    kernel = str(entry.get("kernel") or Path(str(entry["file"])).stem)
    name = str(entry.get("name") or kernel)
    troot = work / "tasks" / "level0" / "Workspace" / name
    v = troot / "validation"
    v.mkdir(parents=True)
    spec = {
        "inputs": list(entry.get("inputs", [])),
        "outputs": list(entry.get("outputs", [])),
        "params": dict(entry.get("params", {})),
        "reference": str(entry["reference"]),
    }
    (v / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    (v / "prepare_inputs.py").write_text(_PREPARE, encoding="utf-8")
    (v / "reference_np.py").write_text(_REFERENCE, encoding="utf-8")
    (v / "test_cases.csv").write_text(_cases_csv(entry.get("cases"), entry.get("inputs")), encoding="utf-8")
    return Task(root=troot, level="level0", category="Workspace", name=name, op=kernel)


def kernel_task(path: str | Path, settings: config.Settings, work: Path) -> Task | None:
    """The task a kernel file answers, for "Generate kernel" / "Improve performance": the NPUKernelBench layout
    around it, else its akgen.toml ``[[task]]``: the suite task its ``bench`` names, or the table itself made a task
    in `work` (its api_desc.md written from the table, the file as the question's kernel). None when it has none;
    TaskError for a layout that is broken."""
    p = Path(path).resolve()
    found = find_task_for_path(p)
    if found is not None:
        return found[0]
    ws = _workspace_entry(p)
    if ws is None:
        return None
    root, entry = ws
    if entry.get("bench"):
        bt = _bench_task(str(entry["bench"]), settings)
        if bt is not None:
            return bt
    if not {"reference", "inputs", "outputs"} <= set(entry):
        return None
    task = _workspace_task(root, entry, work)
    (task.root / "api_desc.md").write_text(_api_desc(entry, task), encoding="utf-8")
    task.question_kernel.parent.mkdir(parents=True, exist_ok=True)
    task.question_kernel.write_text(p.read_text(encoding="utf-8", errors="replace"), encoding="utf-8")
    return task


def _api_desc(entry: Mapping[str, Any], task: Task) -> str:
    """A workspace task's description in api_desc.md's place: what the kernel computes, from its akgen.toml table."""

    def tensors(specs: Any) -> str:
        return "\n".join(
            f"- `{s.get('name')}`: {s.get('dtype', 'the case dtype')}, shape {s.get('shape', 'of the case')}"
            for s in specs
            if isinstance(s, Mapping)
        )

    outs = ", ".join(str(s.get("name")) for s in entry.get("outputs", []) if isinstance(s, Mapping))
    params = entry.get("params") or {}
    lines = [
        f"# {task.name}",
        "",
        f'The Ascend C kernel `{task.op}` (an `extern "C" __global__ __aicore__` function taking its inputs, '
        f"then its outputs, as `GM_ADDR`) computes, in PyTorch terms:",
        "",
        f"    {outs} = {entry['reference']}",
        "",
        "Inputs:",
        tensors(entry.get("inputs", [])),
        "",
        "Outputs:",
        tensors(entry.get("outputs", [])),
    ]
    if params:
        lines += [
            "",
            "Parameters (constants of the task): " + ", ".join(f"`{k} = {v}`" for k, v in params.items()),
        ]
    if entry.get("block_dim"):
        lines += ["", f"It is launched on {entry['block_dim']} cores."]
    return "\n".join(lines) + "\n"


def _named_task(name: str, settings: config.Settings) -> tuple[Task, int | None]:
    found = _bench_task(name, settings)
    if found is None:
        raise TaskError(
            f"no task named {name!r} in the suite; name a folder below tasks/ (level1/Math/AddCustom) or "
            "an op folder (AddCustom), or set bench.suite to a checkout of NPUKernelBench"
        )
    return found, 0


def warm_toolchain(settings: config.Settings | Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Build what every check of the sim toolchain reuses (the precompiled header of our Ascend C headers and the
    launcher object), so the first save of a session compiles only the kernel. Returns what was prepared."""
    from akgen_lsp.bench.cann import select_toolchain

    settings = settings_of(settings)
    toolchain = select_toolchain(str(settings["toolchain.name"]))
    if toolchain != "sim":
        return {"toolchain": toolchain, "warmed": []}
    from akgen_lsp.sim.build import ensure_launcher, ensure_pch, find_cxx

    cxx = str(settings["toolchain.cxx"]) or find_cxx()
    return {"toolchain": toolchain, "warmed": [str(ensure_pch(cxx)), str(ensure_launcher(cxx))]}


def prime_process(settings: config.Settings | Mapping[str, Any] | None = None) -> None:
    """Do now the work every check does once per process (the sandbox's trial box and seccomp programs, the
    reference cache's key parts, the arch profile), so that checks forked from this process (the server's check
    worker) do not each redo it: a few tenths of a second a check on a busy machine."""
    from akgen_lsp.bench import refcache
    from akgen_lsp.sandbox import prime
    from akgen_lsp.sim import cost
    from akgen_lsp.sim.build_cache import cache_dir

    prime()
    refcache.prime()
    cache_dir()
    cost.profile_for(str(settings_of(settings)["arch"]))
    _prime_op_ut()


def _prime_op_ut() -> None:
    """What a save's check of an operator's kernel UT (check/op_ut.py) computes before any build: the toolkit's key
    (every SoC's arch profile read, our headers hashed) and the compiler's identity, about 0.3 s a save otherwise."""
    from akgen_lsp.sim.compiler import ToolchainError, compiler_id, find_cxx
    from akgen_lsp.sim.toolkit import toolkit_key

    try:
        toolkit_key()
        compiler_id(find_cxx())
    except (ToolchainError, OSError):
        pass  # the check says what is missing


def _keep_trace(work: Path, trace_to: str | Path, checked: Path, original: Path) -> str | None:
    """Copy the Chrome trace of the first case that made one (the pipeline's work folder under `work`) to
    `trace_to`, its events named at the user's file when `checked` is a copy of it (a check of the editor's text).
    In a check job the traces are written after the answer (sim/later.py), and so is this copy."""
    pattern = "*/case*/out/trace.json"
    traces = sorted({*work.glob(pattern), *pending(work, pattern)}, key=lambda t: (len(str(t)), str(t)))
    if not traces:
        return None
    dest = Path(trace_to)
    later(functools.partial(_copy_trace, traces[0], dest, checked, original), makes=dest)
    return str(dest)


def _copy_trace(trace: Path, dest: Path, checked: Path, original: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    if checked == original:
        shutil.copyfile(trace, dest)
    else:
        text = trace.read_text(encoding="utf-8")
        dest.write_text(text.replace(json.dumps(str(checked)), json.dumps(str(original))), encoding="utf-8")


def check_kernel(
    path: str | Path,
    settings: config.Settings | Mapping[str, Any] | None = None,
    trace_to: str | Path | None = None,
    *,
    text: str | None = None,
    task_name: str | None = None,
    host_dir: Path | None = None,
    max_cases: int | None = None,
    required: Sequence[int] = (),
) -> CheckResult:
    """Compile the kernel, run its task's cases on the simulator, compare, estimate. Never raises for a bad kernel or
    task: problems come back as findings (with ``figures.task`` None when the task itself is the problem).
    With `trace_to`, the first case's Chrome trace is copied there and named in ``figures.trace``; with `text`,
    that text is checked as the file (see the module docstring); `task_name` names the suite task to check against,
    `host_dir` the kernel's op_host folder when it is not beside it (a mutant of a task's answer), `max_cases` how
    many of the task's cases to run (all by default), `required` the cases a repair candidate must pass (run
    first; no case runs after one of them fails)."""
    started = time.perf_counter()
    p = Path(path).resolve()
    settings = settings_of(settings)
    arch = str(settings["arch"])
    mode = str(settings["bench.mode"])
    timeout = float(settings["toolchain.timeout_s"])
    toolchain = str(settings["toolchain.name"])
    checks = str(settings["sim.checks"])
    sandbox = str(settings["sim.sandbox"])
    if sandbox not in MODES:
        sandbox = "on"
    work = Path(tempfile.mkdtemp(prefix="akgen-check-"))
    try:
        try:
            found = _named_task(task_name, settings) if task_name else find_task_for_path(p)
        except TaskError as exc:
            return CheckResult(
                (
                    Finding(
                        "BENCH-TASK",
                        str(exc),
                        Span.point(str(p), 1),
                        source="akgen-bench",
                        error_class="harness",
                    ),
                ),
                Figures.no_task(str(exc)),
                time.perf_counter() - started,
            )
        cand_host: Path | None = None
        case_ids: tuple[int, ...] | None = None
        block_dim: int | None = None
        if found is not None:
            task, idx = found
            host = p.parent.parent / "op_host"
            cand_host = host if (host / f"{task.op}.cpp").is_file() else None
            if host_dir is not None:
                cand_host = host_dir
            if idx is None and mode == "static":
                cand_host = None
        else:
            ws = _workspace_entry(p)
            if ws is None:
                layout = op_layout_for(p)  # an operator of a CANN operator repository: its own kernel UT
                command = str(settings["ops.test_command"] or "")
                folder = op_folder(p)
                if layout is None and command and folder is not None:  # a layout it cannot infer: the command
                    with use_mode(sandbox):
                        return check_op_command(p, folder, command, max(timeout, 300.0))
                if layout is None:
                    return CheckResult((), Figures.no_task(), time.perf_counter() - started)
                soc = arch if A2A3.match(arch) else DEFAULT_SOC
                with use_mode(sandbox):
                    return check_op_ut(p, layout, settings, soc, timeout, text=text)
            root, entry = ws
            mode = str(entry.get("mode", mode))
            if entry.get("op_host"):
                cand_host = (root / str(entry["op_host"])).resolve()
            block_dim = int(entry["block_dim"]) if "block_dim" in entry else None
            if entry.get("bench"):
                bt = _bench_task(str(entry["bench"]), settings)
                if bt is None:
                    msg = (
                        f"bench task {entry['bench']!r} (akgen.toml) is not in the suite; set bench.suite to a "
                        "checkout of NPUKernelBench or remove `bench` to use the table's own inputs/reference"
                    )
                    if not {"reference", "inputs", "outputs"} <= set(entry):
                        return CheckResult(
                            (
                                Finding(
                                    "BENCH-TASK",
                                    msg,
                                    Span.point(str(p), 1),
                                    source="akgen-bench",
                                    error_class="harness",
                                ),
                            ),
                            Figures.no_task(msg),
                            time.perf_counter() - started,
                        )
                    task = _workspace_task(root, entry, work)
                else:
                    task = bt
                    if "case" in entry:
                        case_ids = (int(entry["case"]),)
            elif {"reference", "inputs", "outputs"} <= set(entry):
                task = _workspace_task(root, entry, work)
            else:
                return CheckResult((), Figures.no_task(), time.perf_counter() - started)
        kernel = _candidate_copy(p, text, work) if text is not None else p
        cand = Candidate(task.id, 0, kernel=kernel, host_dir=cand_host, origin="check")
        with use_mode(sandbox):  # the caller's sim.sandbox, not the one of the folder this process runs in
            rec = evaluate(
                task,
                cand,
                RunSettings(
                    mode=mode,
                    arch=arch,
                    compile_timeout_s=max(timeout, 30.0),
                    run_timeout_s=timeout,
                    case_ids=case_ids,
                    max_cases=max_cases,
                    work_dir=work if trace_to else None,
                    keep_work=trace_to is not None,
                    block_dim=block_dim,
                    toolchain=toolchain,
                    checks=checks,
                    run_warnings=True,
                    required=tuple(required),
                ),
            )
        trace = _keep_trace(work, trace_to, kernel, p) if trace_to else None
    finally:
        remove_later(work)
    findings = tuple((_named_here(f, kernel, p) if text is not None else f) for f in record_findings(rec))
    figures = dataclasses.replace(record_figures(rec, mode, arch), trace=trace)
    return CheckResult(findings, figures, time.perf_counter() - started)


def record_figures(rec: Mapping[str, Any], mode: str, arch: str) -> Figures:
    """What a check reports of a candidate's record (`check_kernel`'s figures): status, cases, the estimate and its
    baseline, the worst error, per-case results."""
    worst = max(
        (c for c in rec.get("case_results", []) if c.get("max_abs") is not None),
        key=lambda c: float(c["max_abs"]) if isinstance(c["max_abs"], (int, float)) else float("inf"),
        default=None,
    )
    return Figures(
        task=rec.get("task"),
        mode=mode,
        status=Status.of(rec.get("status")),
        passed_cases=rec.get("passed_cases"),
        cases=rec.get("cases"),
        estimate_us=rec.get("estimate_us"),
        baseline_us=rec.get("baseline_us"),
        speedup=rec.get("speedup"),
        bound=rec.get("bound"),
        max_abs=worst.get("max_abs") if worst else None,
        max_rel=worst.get("max_rel") if worst else None,
        arch=arch,
        estimate_label="estimate",
        timings=rec.get("timings", {}),
        trace=None,
        case_results=tuple(
            {
                k: c.get(k)
                for k in (
                    "case_id",
                    "status",
                    "max_abs",
                    "max_rel",
                    "estimate_us",
                    "bound",
                    "pipes",
                    "blocks",
                    "cores",
                )
            }
            for c in rec.get("case_results", [])
        ),
    )
