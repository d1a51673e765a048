"""Aggregate candidate records into the run summary (``summary.json`` and ``akgen bench run --json``).

Per task, the samples are combined: the task's row shows its best sample (most passed cases), pass@k uses every
sample, and the score is the mean task score over samples (NPUKernelBench's score for one sample per task).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from akgen_lsp.bench.metrics import (
    error_histogram,
    fast_p,
    mean_pass_at_k,
    stage_rates,
    weighted_score,
)
from akgen_lsp.bench.pipeline import NO_ANSWER

K_VALUES = (1, 5, 10, 100)


def _first_finding(rec: Mapping[str, Any]) -> str | None:
    for f in rec.get("findings", []):
        if f.get("severity", "error") == "error":
            loc = ""
            if f.get("path") and f.get("line"):
                loc = f"{f['path'].rsplit('/', 1)[-1]}:{f['line']}: "
            return f"{loc}{f.get('message', '')}"
    return None


def _level_of(task_id: str) -> int:
    head = task_id.split("/", 1)[0]
    return int(head[5:]) if head.startswith("level") and head[5:].isdigit() else 0


def is_no_answer(rec: Mapping[str, Any]) -> bool:
    """A record of a task that the checkout ships without a reference answer (``--candidates answers``)."""
    return rec.get("status") == "skipped" and rec.get("error_class") == NO_ANSWER


def summarise(records: Sequence[Mapping[str, Any]], meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Tasks without a reference answer are listed apart (``no_answer``; per level ``no_answer``) and take no part
    in the task counts, pass rates, pass@k or score: there was no candidate to evaluate."""
    by_task: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    no_answer: list[dict[str, Any]] = []
    for r in records:
        if is_no_answer(r):
            no_answer.append(
                {
                    "task": str(r.get("task")),
                    "level": int(r.get("level") or _level_of(str(r.get("task")))),
                    "reason": r.get("skip_reason") or "the checkout has no reference answer for this task",
                }
            )
            continue
        by_task[str(r.get("task"))].append(r)
    records = [r for r in records if not is_no_answer(r)]
    tasks: list[dict[str, Any]] = []
    levels: dict[str, dict[str, int]] = {}
    level_scores: dict[int, list[float]] = defaultdict(list)
    comp_counts: list[tuple[int, int]] = []
    corr_counts: list[tuple[int, int]] = []
    fast_rows: list[tuple[bool, float | None]] = []
    for task_id in sorted(by_task):
        recs = sorted(by_task[task_id], key=lambda r: int(r.get("sample", 0)))
        best = max(
            recs,
            key=lambda r: (bool(r.get("correct")), int(r.get("passed_cases", 0)), bool(r.get("compiled"))),
        )
        level = int(best.get("level") or _level_of(task_id))
        n = len(recs)
        comp_counts.append((n, sum(1 for r in recs if r.get("compiled"))))
        corr_counts.append((n, sum(1 for r in recs if r.get("correct"))))
        fast_rows.append((bool(best.get("correct")), best.get("speedup")))
        scores = [float(r.get("score", 0.0)) for r in recs]
        level_scores[level].append(sum(scores) / len(scores))
        row = {
            "task": task_id,
            "level": level,
            "status": best.get("status"),
            "compiled": bool(best.get("compiled")),
            "passed_cases": int(best.get("passed_cases", 0)),
            "cases": int(best.get("cases", 0)),
            "error_class": best.get("error_class"),
            "estimate_us": best.get("estimate_us"),
            "baseline_us": best.get("baseline_us"),
            "speedup": best.get("speedup"),
            "samples": n,
            "first_finding": _first_finding(best),
        }
        tasks.append(row)
        lv = levels.setdefault(str(level), {"tasks": 0, "compiled": 0, "passed": 0})
        lv["tasks"] += 1
        lv["compiled"] += int(row["compiled"])
        lv["passed"] += int(row["status"] == "pass")
    for na in no_answer:
        lv = levels.setdefault(str(na["level"]), {"tasks": 0, "compiled": 0, "passed": 0})
        lv["no_answer"] = lv.get("no_answer", 0) + 1
    n_max = max((n for n, _ in comp_counts), default=0)
    ks = [k for k in K_VALUES if k <= max(n_max, 1)]
    timings = _timings(records)
    return {
        **dict(meta or {}),
        "levels": dict(sorted(levels.items())),
        "tasks": tasks,
        "score": round(weighted_score(level_scores), 4),
        "level_scores": {str(k): round(sum(v) / len(v), 4) for k, v in sorted(level_scores.items()) if v},
        "pass_at_k": {
            "compile": {str(k): round(mean_pass_at_k(comp_counts, k), 4) for k in ks},
            "correct": {str(k): round(mean_pass_at_k(corr_counts, k), 4) for k in ks},
        },
        "stage_rates": {k: round(v, 4) for k, v in stage_rates(records).items()},
        "fast_p": {str(p): round(fast_p(fast_rows, p), 4) for p in (0.0, 0.5, 0.8, 1.0)},
        "error_classes": error_histogram(r.get("error_class") for r in records),
        "candidates": len(records),
        "no_answer": sorted(no_answer, key=lambda d: d["task"]),
        "timings": timings,
    }


def _timings(records: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    keys = ("parse", "reference", "host", "compile", "run", "compare", "harness", "total")
    out = dict.fromkeys(keys, 0.0)
    for r in records:
        for k in keys:
            out[k] += float(r.get("timings", {}).get(k, 0.0) or 0.0)
    out = {k: round(v, 3) for k, v in out.items()}
    inner = out["total"] - out["harness"]
    out["harness_overhead_ratio"] = round(out["harness"] / out["total"], 4) if out["total"] else 0.0
    out["compile_and_run"] = round(inner, 3)
    return out


def compact(summary: Mapping[str, Any]) -> dict[str, Any]:
    """The `--json` shape of `akgen bench run`: levels, tasks (the documented keys) and score, plus the metrics."""
    keys = (
        "task",
        "level",
        "status",
        "compiled",
        "passed_cases",
        "cases",
        "error_class",
        "estimate_us",
        "speedup",
    )
    return {
        "levels": summary["levels"],
        "tasks": [{k: t.get(k) for k in keys} for t in summary["tasks"]],
        "score": summary["score"],
        "pass_at_k": summary["pass_at_k"],
        "stage_rates": summary["stage_rates"],
        "fast_p": summary["fast_p"],
        "error_classes": summary["error_classes"],
        "no_answer": [d["task"] for d in summary.get("no_answer", [])],
    }
