"""Metrics over candidate results: unbiased pass@k, fast_p, NPUKernelBench's weighted score, stage pass rates and
error classes.

pass@k (Chen et al. 2021): with n samples of which c are correct, the probability that at least one of k drawn
without replacement is correct, 1 - C(n-c, k) / C(n, k), computed as a running product so it never overflows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from akgen_lsp.error_classes import normalize

LEVEL_WEIGHTS: Mapping[int, float] = {1: 0.2, 2: 0.3, 3: 0.5}


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k. Needs 0 <= c <= n and 1 <= k; with k > n the estimate uses k = n."""
    if n <= 0:
        raise ValueError("pass@k needs at least one sample (n >= 1)")
    if not 0 <= c <= n:
        raise ValueError(f"the number of correct samples c={c} must lie in [0, n={n}]")
    if k < 1:
        raise ValueError("k must be at least 1")
    k = min(k, n)
    if n - c < k:
        return 1.0
    # C(n-c, k) / C(n, k) = prod_{i=n-c+1}^{n} (1 - k / i)
    prod = 1.0
    for i in range(n - c + 1, n + 1):
        prod *= 1.0 - k / i
    return 1.0 - prod


def mean_pass_at_k(counts: Iterable[tuple[int, int]], k: int) -> float:
    """The mean of pass@k over tasks given (n, c) per task; 0 for no tasks."""
    vals = [pass_at_k(n, c, k) for n, c in counts if n > 0]
    return sum(vals) / len(vals) if vals else 0.0


def fast_p(results: Sequence[tuple[bool, float | None]], p: float) -> float:
    """KernelBench's fast_p: the fraction of tasks that are correct AND have speedup > p (speedup = baseline time /
    candidate time). fast_0 is the correctness rate; a correct task without a speedup counts only for p <= 0."""
    if not results:
        return 0.0
    good = 0
    for correct, speedup in results:
        if not correct:
            continue
        if (p <= 0 and speedup is None) or (speedup is not None and speedup > p):
            good += 1
    return good / len(results)


def task_score(passed_cases: int, cases: int) -> float:
    """NPUKernelBench's task score: passed cases / all cases x 100."""
    return 100.0 * passed_cases / cases if cases else 0.0


def weighted_score(level_scores: Mapping[int, Sequence[float]]) -> float:
    """0.2 L1 + 0.3 L2 + 0.5 L3 over the mean task score of each level; levels with no task contribute 0 and their
    weight is dropped (renormalised) so that a run over one level scores on the same 0-100 scale."""
    total_w = 0.0
    acc = 0.0
    for lvl, scores in level_scores.items():
        if not scores:
            continue
        w = LEVEL_WEIGHTS.get(int(lvl), 0.0)
        acc += w * (sum(scores) / len(scores))
        total_w += w
    return acc / total_w if total_w else 0.0


STAGES = ("parse", "compile", "run", "correct")


def stage_rates(records: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """The fraction of candidates that passed each stage (a candidate record has booleans ``parsed``, ``compiled``,
    ``ran``, ``correct``)."""
    keys = {"parse": "parsed", "compile": "compiled", "run": "ran", "correct": "correct"}
    n = len(records)
    return {s: (sum(1 for r in records if r.get(keys[s])) / n if n else 0.0) for s in STAGES}


def error_class_of(findings: Sequence[Mapping[str, Any]], status: str) -> str | None:
    """The error class of a failed candidate (a class of akgen_lsp/error_classes.toml): the first error finding's
    class, else the class its status implies."""
    if status in ("pass", "ok"):
        return None
    for f in findings:
        if f.get("severity", "error") == "error" and f.get("error_class"):
            return normalize(str(f.get("code", "")), str(f["error_class"]), str(f.get("message", ""))) or str(
                f["error_class"]
            )
    return {
        "parse_error": "syntax",
        "compile_error": "api_mismatch",
        "compile_timeout": "runtime",
        "timeout": "runtime",
        "runtime_error": "runtime",
        "crash": "runtime",
        "wrong_answer": "precision",
        "no_work": "precision",
        "skipped": "harness",
        "harness_error": "harness",
    }.get(status, "harness")


def error_histogram(classes: Iterable[str | None]) -> dict[str, int]:
    return dict(Counter(c for c in classes if c).most_common())
