"""The distribution of error classes over blocks: counts and shares per class, per tool, per task and level, per
model, and the top signatures of each class with an example (`akgen errors classify F.jsonl --json`).

Counts are of blocks (root causes: one undeclared name reported at 20 uses is one block); `occurrences` sums the
reports. Classes of the whole taxonomy are listed, zeros included, in the table's order of frequency; `harness`
(not a kernel error) is counted but kept out of `kernel_errors` and of the shares of kernel classes.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from akgen_lsp.error_classes import Taxonomy, load_taxonomy
from akgen_lsp.logs.blocks import ErrorBlock

TOP_SIGNATURES = 5


def _nested(counter: Mapping[str, Counter[str]]) -> dict[str, dict[str, int]]:
    return {k: dict(v.most_common()) for k, v in sorted(counter.items(), key=lambda kv: -sum(kv[1].values()))}


def distribution(blocks: Iterable[ErrorBlock], taxonomy: Taxonomy | None = None) -> dict[str, Any]:
    tax = taxonomy or load_taxonomy()
    per_class: Counter[str] = Counter()
    occurrences = 0
    by: dict[str, defaultdict[str, Counter[str]]] = {
        k: defaultdict(Counter) for k in ("tool", "task", "level", "model")
    }
    sigs: dict[str, Counter[str]] = defaultdict(Counter)
    example: dict[tuple[str, str], ErrorBlock] = {}
    n = 0
    for b in blocks:
        n += 1
        cls = tax.resolve(b.error_class) or "unclassified"
        per_class[cls] += 1
        occurrences += b.count
        by["tool"][b.tool][cls] += 1
        for key in ("task", "level", "model"):
            v = b.origin.get(key)
            if v is not None and v != "":
                by[key][str(v)][cls] += 1
        sigs[cls][b.signature] += 1
        example.setdefault((cls, b.signature), b)
    kernel = sum(v for k, v in per_class.items() if k in tax.classes and tax.classes[k].kernel_error)
    order = sorted(tax.ids, key=lambda c: (-per_class.get(c, 0), tax.ids.index(c)))
    classes = []
    for c in order + [c for c in per_class if c not in tax.classes]:
        info = tax.classes.get(c)
        count = per_class.get(c, 0)
        classes.append(
            {
                "class": c,
                "title": info.title if info else c,
                "count": count,
                "share": round(count / n, 4) if n else 0.0,
                "kernel_share": round(count / kernel, 4) if kernel and info and info.kernel_error else None,
            }
        )
    top = {}
    for c, counter in sigs.items():
        rows = []
        for sig, count in counter.most_common(TOP_SIGNATURES):
            ex = example[(c, sig)]
            rows.append(
                {
                    "signature": sig,
                    "count": count,
                    "example": {
                        "message": ex.message,
                        "where": ex.where,
                        "tool": ex.tool,
                        "task": ex.origin.get("task"),
                    },
                }
            )
        top[c] = rows
    return {
        "taxonomy_version": tax.version,
        "blocks": n,
        "occurrences": occurrences,
        "kernel_errors": kernel,
        "classes": classes,
        "by_tool": _nested(by["tool"]),
        "by_task": _nested(by["task"]),
        "by_level": _nested(by["level"]),
        "by_model": _nested(by["model"]),
        "top_signatures": top,
    }
