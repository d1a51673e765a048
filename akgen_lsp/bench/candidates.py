"""Where candidates come from: the tasks' reference answers, or a directory of generated kernels.

A directory may hold, for each task (a folder named by the op folder name, the snake-case op name, or a path
ending in ``<Category>/<Op>``), one entry per sample:
- NPUKernelBench's output layout: ``.../<Op>/[fixed_case_<c>/]sample<S>/`` with ``src/op_kernel/<op>.cpp`` (and
  ``src/op_host/``) or a generation log ``log/*code_gen_prompt.json`` holding the model's answer;
- ``<Op>/<S>/op_kernel/<op>.cpp`` (+ ``op_host/``), the answer layout;
- ``<Op>/<S>.txt`` / ``<Op>/<S>.md`` / ``<Op>/sample<S>.txt``: a raw model answer, parsed like NPUKernelBench does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from akgen_lsp.bench.pipeline import NO_ANSWER, Candidate
from akgen_lsp.bench.tasks import Task


def answer_candidates(tasks: Sequence[Task], samples: int | None = None) -> list[Candidate]:
    out: list[Candidate] = []
    for t in tasks:
        answers = list(t.answers)[:samples] if samples else list(t.answers)
        if not answers:
            # The checkout ships only question/ and validation/ for this task: reported as skipped (no reference
            # answer), counted apart from parse failures.
            out.append(Candidate(t.id, 0, None, None, origin=NO_ANSWER))
        for a in answers:
            host = a.root / "op_host" if (a.root / "op_host").is_dir() else None
            out.append(Candidate(t.id, a.index, a.kernel, host, origin="answer"))
    return out


_SAMPLE = re.compile(r"^(?:sample[_-]?)?(\d+)$")


def _longest_answer(obj: Any) -> str | None:
    best: str | None = None
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, str):
            if ("```" in o or "<kernel_impl>" in o) and (best is None or len(o) > len(best)):
                best = o
        elif isinstance(o, dict):
            stack.extend(o.values())
        elif isinstance(o, list):
            stack.extend(o)
    return best


def _sample_candidate(task: Task, sample: int, path: Path) -> Candidate | None:
    if path.is_file():
        return Candidate(
            task.id, sample, text=path.read_text(encoding="utf-8", errors="replace"), origin=str(path)
        )
    for base in (path / "src", path):
        k = base / "op_kernel" / f"{task.op}.cpp"
        if k.is_file():
            host = base / "op_host" if (base / "op_host" / f"{task.op}.cpp").is_file() else None
            return Candidate(task.id, sample, kernel=k, host_dir=host, origin=str(path))
    logs = sorted((path / "log").glob("*code_gen*.json")) if (path / "log").is_dir() else []
    for log in logs:
        try:
            text = _longest_answer(json.loads(log.read_text(encoding="utf-8", errors="replace")))
        except json.JSONDecodeError:
            continue
        if text:
            return Candidate(task.id, sample, text=text, origin=str(log))
    for ext in (".txt", ".md"):
        for f in sorted(path.glob(f"*{ext}")):
            return Candidate(
                task.id, sample, text=f.read_text(encoding="utf-8", errors="replace"), origin=str(f)
            )
    return None


def _task_dirs(root: Path, task: Task) -> Iterator[Path]:
    names = {task.name, task.op}
    for p in root.rglob("*"):
        if p.is_dir() and p.name in names:
            yield p


def dir_candidates(root: Path, tasks: Sequence[Task], samples: int | None = None) -> list[Candidate]:
    """Candidates found under `root` for the given tasks; a task with none gets no candidate (and the summary says
    that it had no sample)."""
    out: list[Candidate] = []
    for t in tasks:
        found: dict[int, Candidate] = {}
        for d in _task_dirs(root, t):
            entries = [d]
            entries += [c for c in d.iterdir() if c.is_dir() and c.name.startswith("fixed_case_")]
            for e in entries:
                for child in sorted(e.iterdir()):
                    m = _SAMPLE.match(child.stem if child.is_file() else child.name)
                    if not m:
                        continue
                    s = int(m.group(1))
                    if s in found:
                        continue
                    cand = _sample_candidate(t, s, child)
                    if cand is not None:
                        found[s] = cand
        picked = [found[s] for s in sorted(found)]
        out.extend(picked[:samples] if samples else picked)
    return out
