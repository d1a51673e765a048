"""The classifier measured on blocks whose class is known (`label`): accuracy, the confusion matrix and per-class
precision and recall (`akgen errors classify F.jsonl --evaluate`)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from akgen_lsp.logs.blocks import ErrorBlock


def confusion(blocks: Iterable[ErrorBlock]) -> dict[str, Any]:
    """Over the blocks with a `label`: {"n", "correct", "accuracy", "labels", "matrix" (label -> predicted ->
    count), "per_class" (label -> n, recall, precision), "mistakes" (a few examples of each confusion)}."""
    matrix: defaultdict[str, Counter[str]] = defaultdict(Counter)
    predicted: Counter[str] = Counter()
    mistakes: defaultdict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    n = correct = 0
    for b in blocks:
        if not b.label:
            continue
        pred = b.error_class or "unclassified"
        n += 1
        correct += pred == b.label
        matrix[b.label][pred] += 1
        predicted[pred] += 1
        if pred != b.label and len(mistakes[(b.label, pred)]) < 3:
            mistakes[(b.label, pred)].append(
                {
                    "message": b.message[:200],
                    "where": b.where,
                    "tool": b.tool,
                    "origin": {k: b.origin.get(k) for k in ("mutation", "log", "task") if b.origin.get(k)},
                }
            )
    labels = sorted(set(matrix) | set(predicted), key=lambda c: (-sum(matrix[c].values()), c))
    per_class = {}
    for lab in labels:
        total = sum(matrix[lab].values())
        hits = matrix[lab][lab]
        per_class[lab] = {
            "n": total,
            "recall": round(hits / total, 4) if total else None,
            "precision": round(hits / predicted[lab], 4) if predicted[lab] else None,
        }
    return {
        "n": n,
        "correct": correct,
        "accuracy": round(correct / n, 4) if n else None,
        "labels": labels,
        "matrix": {lab: dict(matrix[lab]) for lab in labels if matrix[lab]},
        "per_class": per_class,
        "mistakes": [{"label": a, "predicted": p, "examples": ex} for (a, p), ex in mistakes.items()],
    }


def render_confusion(result: dict[str, Any]) -> str:
    """The confusion matrix as text (rows: the known class, columns: the predicted one)."""
    labels = result["labels"]
    if not labels:
        return 'no labelled blocks (a block\'s "label" is its known class)'
    short = {lab: lab[:10] for lab in labels}
    width = max(len(lab) for lab in labels)
    head = " " * (width + 2) + " ".join(f"{short[lab]:>10}" for lab in labels) + "      n  recall"
    lines = [head]
    for lab in labels:
        row = result["matrix"].get(lab, {})
        pc = result["per_class"][lab]
        if not pc["n"]:
            continue
        cells = " ".join(f"{row.get(p, 0) or '.':>10}" for p in labels)
        lines.append(f"{lab:>{width}}  {cells} {pc['n']:>6}  {pc['recall']:.3f}")
    lines.append(f"accuracy {result['accuracy']:.4f} ({result['correct']}/{result['n']} labelled blocks)")
    return "\n".join(lines)
