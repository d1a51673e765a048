"""The metrics of a generation run, from its round lines (results.jsonl) alone, so a resumed or finished run is
summarised the same way (`akgen bench report` of a model run too):

- compile and correctness pass@k after each correctness round r (KernelBench's multi-turn metric: a sample counts
  from the first round <= r at which it compiled / passed), per level and overall, the unbiased estimator of
  `bench.metrics.pass_at_k` over the instances (a task in dynamic shape, a (task, case) in static shape); with fewer
  samples than k the estimate is pass@n, and ``samples`` says how many there were;
- fast_p of each sample's best correct kernel against the roofline baseline (speedup = baseline / estimate);
- NPUKernelBench's weighted score of the final kernels (0.2 L1 + 0.3 L2 + 0.5 L3 of the mean task score);
- error classes per round, tokens and wall time per task, and the loop's own share of the wall time.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from akgen_lsp.bench.metrics import error_histogram, fast_p, mean_pass_at_k, task_score, weighted_score

K_VALUES = (1, 10)
FAST_P = (0.0, 0.5, 0.8, 1.0)


def _instance(line: Mapping[str, Any]) -> tuple[str, str, str]:
    return (str(line.get("task")), str(line.get("case")), str(line.get("mode", "static")))


def _by_sample(
    lines: Sequence[Mapping[str, Any]],
) -> dict[tuple[str, str, str], dict[int, list[Mapping[str, Any]]]]:
    out: dict[tuple[str, str, str], dict[int, list[Mapping[str, Any]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for ln in lines:
        out[_instance(ln)][int(ln.get("sample", 0))].append(ln)
    for samples in out.values():
        for s in samples:
            samples[s].sort(key=lambda x: int(x.get("round", 0)))
    return out


def _reached(rounds: Sequence[Mapping[str, Any]], r: int, key: str) -> bool:
    return any(bool(x.get(key)) for x in rounds if x.get("kind") != "perf" and int(x.get("round", 0)) <= r)


def _final(rounds: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    kept = [x for x in rounds if x.get("kept")]
    return kept[-1] if kept else rounds[-1]


def summarise_rounds(
    lines: Sequence[Mapping[str, Any]], meta: Mapping[str, Any] | None = None, ks: Sequence[int] = K_VALUES
) -> dict[str, Any]:
    meta = dict(meta or {})
    groups = _by_sample(lines)
    n_rounds = int(meta.get("rounds") or 0) or 1 + max(
        (int(x.get("round", 0)) for x in lines if x.get("kind") != "perf"), default=0
    )
    levels: dict[int, list[tuple[str, str, str]]] = defaultdict(list)
    for inst, samples in groups.items():
        first = next(iter(samples.values()))[0]
        levels[int(first.get("level") or 0)].append(inst)
    table: list[dict[str, Any]] = []
    for level in [*sorted(levels), None]:
        insts = list(groups) if level is None else levels[level]
        if not insts:
            continue
        n_min = min(len(groups[i]) for i in insts)
        for r in range(n_rounds):
            comp = [
                (len(groups[i]), sum(_reached(rs, r, "compiled") for rs in groups[i].values())) for i in insts
            ]
            corr = [
                (len(groups[i]), sum(_reached(rs, r, "correct") for rs in groups[i].values())) for i in insts
            ]
            table.append(
                {
                    "level": "all" if level is None else level,
                    "round": r,
                    "instances": len(insts),
                    "samples": n_min,
                    "compile": {str(k): round(mean_pass_at_k(comp, k), 4) for k in ks},
                    "correct": {str(k): round(mean_pass_at_k(corr, k), 4) for k in ks},
                }
            )
    finals = {(inst, s): _final(rs) for inst, samples in groups.items() for s, rs in samples.items()}
    fast_rows = [(bool(f.get("correct")), f.get("speedup")) for f in finals.values()]
    task_scores: dict[str, list[float]] = defaultdict(list)
    task_level: dict[str, int] = {}
    for (inst, _s), f in finals.items():
        task_scores[inst[0]].append(task_score(int(f.get("passed_cases") or 0), int(f.get("cases") or 0)))
        task_level[inst[0]] = int(f.get("level") or 0)
    level_scores: dict[int, list[float]] = defaultdict(list)
    for t, scores in task_scores.items():
        level_scores[task_level[t]].append(sum(scores) / len(scores))
    per_round_errors = {
        str(r): error_histogram(
            x.get("error_class") for x in lines if int(x.get("round", 0)) == r and not x.get("correct")
        )
        for r in sorted({int(x.get("round", 0)) for x in lines})
    }
    tasks: dict[str, dict[str, Any]] = {}
    for x in lines:
        t = tasks.setdefault(
            str(x.get("task")),
            {
                "task": x.get("task"),
                "level": x.get("level"),
                "rounds": 0,
                "tokens": 0,
                "prompt_tokens": 0,
                "wall_s": 0.0,
                "model_s": 0.0,
                "eval_s": 0.0,
                "loop_s": 0.0,
                "score": None,
            },
        )
        t["rounds"] += 1
        t["tokens"] += int(x.get("tokens") or 0)
        t["prompt_tokens"] += int(x.get("prompt_tokens") or 0)
        for k in ("model_s", "eval_s", "loop_s"):
            t[k] += float(x.get(k) or 0.0)
    for t in tasks.values():
        t["wall_s"] = round(t["model_s"] + t["eval_s"] + t["loop_s"], 3)
        for k in ("model_s", "eval_s", "loop_s"):
            t[k] = round(t[k], 4)
        scores = task_scores.get(str(t["task"]), [])
        t["score"] = round(sum(scores) / len(scores), 2) if scores else None
    wall = sum(t["wall_s"] for t in tasks.values())
    loop = sum(t["loop_s"] for t in tasks.values())
    notes = sorted({str(x["note"]) for x in lines if x.get("note")})
    stopped = sorted({str(x["stopped"]) for x in lines if x.get("stopped")})
    return {
        **meta,
        "instances": len(groups),
        "samples": len(finals),
        "rounds_run": len(lines),
        "pass_at_k": table,
        "fast_p": {str(p): round(fast_p(fast_rows, p), 4) for p in FAST_P},
        "score": round(weighted_score(level_scores), 4),
        "level_scores": {str(k): round(sum(v) / len(v), 4) for k, v in sorted(level_scores.items()) if v},
        "error_classes_per_round": per_round_errors,
        "tasks": sorted(tasks.values(), key=lambda t: str(t["task"])),
        "loop_overhead_ratio": round(loop / wall, 5) if wall else 0.0,
        "notes": notes,
        "stopped": stopped,
    }


def pass_table(summary: Mapping[str, Any], rounds: Sequence[int] = (0, 1, 3)) -> list[str]:
    """The table "pass@1 / pass@10 at round 0, 1, 3" per level as markdown lines (a round the run did not reach is
    left out)."""
    have = {int(r["round"]) for r in summary.get("pass_at_k", [])}
    cols = [r for r in rounds if r in have]
    head = "| level | instances | samples | " + " | ".join(f"pass@1 r{r} | pass@10 r{r}" for r in cols) + " |"
    out = [head, "|" + "---|" * (3 + 2 * len(cols))]
    by_level: dict[str, dict[int, Mapping[str, Any]]] = defaultdict(dict)
    for row in summary.get("pass_at_k", []):
        by_level[str(row["level"])][int(row["round"])] = row
    for level, rows in by_level.items():
        any_row = next(iter(rows.values()))
        cells = []
        for r in cols:
            c = rows[r]["correct"]
            cells += [f"{c['1']:.3f}", f"{c['10']:.3f}"]
        out.append(f"| {level} | {any_row['instances']} | {any_row['samples']} | " + " | ".join(cells) + " |")
    return out
