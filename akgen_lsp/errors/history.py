"""Repairs from a user's own history: the fix of a failing kernel taken from a later passing version of it.

A bench run of a model (``akgen bench run --candidates DIR``) holds successive samples of each task; where sample
`s` fails and a later sample `p` of the same task passes, (`s` -> `p`) is a real repair: the failing sample's real
log (its findings), its blocks, and the corrected file a model wrote. `history_records` turns a run folder into
records of the same shape as the synthesized mutants' (``kept``, ``primary``, ``mutant_path``, ``source_path``), so
`errors.dataset.build_dataset` writes them as SFT samples and preference pairs like any other, split by task.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from akgen_lsp.bench.candidates import dir_candidates
from akgen_lsp.bench.executor import ResultStore
from akgen_lsp.bench.extract import ExtractError, extract_answer
from akgen_lsp.bench.pipeline import Candidate
from akgen_lsp.bench.tasks import Task, TaskError, discover_tasks
from akgen_lsp.errors.classify import Classifier
from akgen_lsp.errors.store import unified_diff
from akgen_lsp.logs.findings import blocks_from_finding_json


class HistoryError(ValueError):
    """A run folder that cannot be read as history; the message says what is missing."""


def _text(c: Candidate, task: Task) -> str | None:
    if c.kernel is not None and c.kernel.is_file():
        return c.kernel.read_text(encoding="utf-8", errors="replace")
    if c.text is not None:
        try:
            return extract_answer(c.text, task.op).kernel
        except ExtractError:
            return None
    return None


def history_records(run: Path, out: Path, classifier: Classifier | None = None) -> list[dict[str, Any]]:
    """The (failing sample -> later passing sample) repairs of a bench run folder; the two files of each are written
    under ``OUT/history/<id>/``."""
    summary_path = run / "summary.json"
    results = run / "results.jsonl"
    if not results.is_file() or not summary_path.is_file():
        raise HistoryError(
            f"{run} is not a bench run folder (results.jsonl and summary.json); give the --out of "
            "`akgen bench run --candidates DIR`"
        )
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    cands_dir = Path(str(summary.get("candidates_from", "")))
    if not cands_dir.is_dir():
        raise HistoryError(
            f"{run}: its candidates folder {cands_dir} is gone (summary.json candidates_from); the "
            "kernels' text is needed for the repairs"
        )
    try:
        tasks = {t.id: t for t in discover_tasks(Path(str(summary.get("suite", ""))))}
    except TaskError as exc:
        raise HistoryError(f"{run}: {exc}") from None
    classifier = classifier or Classifier()
    by_task: dict[str, dict[int, dict[str, Any]]] = {}
    for rec in ResultStore(results).load():
        by_task.setdefault(str(rec.get("task")), {})[int(rec.get("sample", 0))] = rec
    out_records = []
    for task_id, samples in sorted(by_task.items()):
        task = tasks.get(task_id)
        if task is None:
            continue
        texts = {c.sample: _text(c, task) for c in dir_candidates(cands_dir, [task])}
        order = sorted(samples)
        for i, s in enumerate(order):
            rec = samples[s]
            if rec.get("status") == "pass" or texts.get(s) is None:
                continue
            later = next(
                (p for p in order[i + 1 :] if samples[p].get("status") == "pass" and texts.get(p)), None
            )
            if later is None:
                continue
            out_records.append(
                _record(task, rec, s, later, str(texts[s]), str(texts[later]), run, out, classifier)
            )
    return out_records


def _record(
    task: Task,
    rec: dict[str, Any],
    s: int,
    p: int,
    broken: str,
    fixed: str,
    run: Path,
    out: Path,
    classifier: Classifier,
) -> dict[str, Any]:
    rid = hashlib.sha1(f"history\0{run}\0{task.id}\0{s}\0{p}".encode()).hexdigest()[:16]
    folder = out / "history" / rid
    (folder / "broken" / "op_kernel").mkdir(parents=True, exist_ok=True)
    (folder / "fixed" / "op_kernel").mkdir(parents=True, exist_ok=True)
    name = f"{task.op}.cpp"
    (folder / "broken" / "op_kernel" / name).write_text(broken, encoding="utf-8")
    (folder / "fixed" / "op_kernel" / name).write_text(fixed, encoding="utf-8")
    origin = {"task": task.id, "level": task.level_number, "sample": s, "model": rec.get("model")}
    blocks = classifier.classify_all(blocks_from_finding_json(rec.get("findings") or (), origin))
    primary = blocks[0] if blocks else None
    cls = primary.error_class if primary else "harness"
    return {
        "task": task.id,
        "sample": s,
        "mode": rec.get("mode", "static"),
        "id": rid,
        "source": f"history:{task.id}#{p}",
        "suite": str(task.root.parents[2]),
        "op": task.op,
        "level": task.level_number,
        "kernel_file": f"op_kernel/{name}",
        "mutant_path": str(folder / "broken" / "op_kernel" / name),
        "source_path": str(folder / "fixed" / "op_kernel" / name),
        "operator": "history",
        "injected_class": cls,
        "observable": False,
        "description": f"sample {s} failed ({rec.get('status')}); sample {p} of the same task passes",
        "explanation": (f"{primary.message}" if primary else "the kernel fails") + f". Sample {p} of the "
        "same task fixes it.",
        "line": primary.line if primary else None,
        "status": rec.get("status"),
        "failed_by": "sim",
        "kept": primary is not None and cls != "harness",
        "findings": rec.get("findings") or [],
        "lint": [],
        "blocks": [b.to_json() for b in blocks],
        "primary": primary.to_json() if primary else None,
        "classified_as": cls,
        "diff": unified_diff(fixed, broken, f"op_kernel/{name}"),
        "provenance": "history",
    }
