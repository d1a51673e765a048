"""Training data from the loop, in the errors package's formats (docs/errors.md), so a team's own generation runs
become supervision:

- ``sft/repair.jsonl``: a repair round whose kernel passes: [system, the round's feedback (the diagnostic report and
  the failing file: the repair prompt of `errors.samples`), the answer] with the synthesized samples' ``meta``
  (`errors/schemas/sft.schema.json`; operator ``generate:repair``, the class of the error it repaired);
- ``sft/generate.jsonl``: a first answer that passes, and a performance round that was kept: [system, that round's
  prompt, the answer] (the same message shape; ``meta.operator`` ``generate:generate`` / ``generate:perf``);
- ``dpo/generate.jsonl``: per instance, the task prompt with its rounds' kernels ranked correct > wrong numbers >
  does not compile (`errors/schemas/dpo.schema.json`).
Splits are by op, as `akgen errors synthesize` cuts them (`errors.dataset.assign_splits`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from akgen_lsp.errors.dataset import assign_splits, tier_of
from akgen_lsp.errors.samples import code_answer
from akgen_lsp.errors.store_samples import KERNEL_CLASSES
from akgen_lsp.generate.attempt import Attempt, Round
from akgen_lsp.generate.feedback import target_finding

_ORDER = ("correct", "wrong_numbers", "does_not_compile")


def _id(*parts: str) -> str:
    return hashlib.sha1("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _answer(r: Round) -> str:
    """The answer as the schema has it: the model's words outside the code, then the kernel in one ```cpp block."""
    text = r.answer
    code = r.code or ""
    words = text.split("```")[0].replace("<kernel_impl>", "").strip() if "```" in text else ""
    body = code_answer(code)
    return f"{words}\n\n{body}" if words else body


def _sft(
    a: Attempt, r: Round, prev: Round | None, split: str, model: str
) -> tuple[str, dict[str, Any]] | None:
    if not r.messages or r.code is None:
        return None
    system = next((m for m in r.messages if m["role"] == "system"), None)
    user = r.messages[-1]
    if system is None or user["role"] != "user":
        return None
    status = r.outcome.status if r.outcome else "pass"
    meta: dict[str, Any] = {
        "id": _id(a.key, str(r.index), r.answer),
        "task": a.task.id,
        "op": a.task.op,
        "source": f"generate:{model}",
        "split": split,
        "operator": f"generate:{r.kind}",
        "status": status,
        "failed_by": "sim",
        "round": r.index,
        "case": a.case_id,
        "sample": a.sample,
    }
    kind = "generate"
    if r.kind == "repair" and prev is not None and prev.outcome is not None:
        target = target_finding(prev.outcome)
        cls = (target.error_class if target is not None else None) or prev.record.get("error_class")
        if cls in KERNEL_CLASSES:
            meta.update(injected_class=cls, classified_as=cls)
            kind = "repair"
    if kind == "generate":
        meta.update(injected_class="performance" if r.kind == "perf" else None, classified_as=None)
    msgs = [dict(system), dict(user), {"role": "assistant", "content": _answer(r)}]
    return kind, {"messages": msgs, "meta": meta}


def _dpo(a: Attempt, split: str) -> list[dict[str, Any]]:
    prompt = [dict(m) for m in a.task_msgs]
    tiers: dict[str, Round] = {}
    for r in a.rounds:
        t = tier_of(r.status) if r.code is not None and r.outcome is not None else None
        if t is None:
            continue
        if t == "correct" and a.best is not None:
            tiers[t] = a.best
        tiers.setdefault(t, r)
    out = []
    for i, hi in enumerate(_ORDER):
        for lo in _ORDER[i + 1 :]:
            if hi in tiers and lo in tiers and tiers[hi].code != tiers[lo].code:
                c, rj = tiers[hi], tiers[lo]
                out.append(
                    {
                        "prompt": prompt,
                        "chosen": [{"role": "assistant", "content": code_answer(c.code or "")}],
                        "rejected": [{"role": "assistant", "content": code_answer(rj.code or "")}],
                        "meta": {
                            "id": _id(a.key, hi, lo, c.code or "", rj.code or ""),
                            "task": a.task.id,
                            "split": split,
                            "chosen_rank": hi,
                            "rejected_rank": lo,
                            "rejected_mutant": None,
                            "chosen_round": c.index,
                            "rejected_round": rj.index,
                        },
                    }
                )
    return out


def write_training(attempts: Sequence[Attempt], out: Path, model: str = "model") -> dict[str, int]:
    """Write the files of the module docstring under `out` (each rewritten from the attempts); returns the counts."""
    splits = assign_splits(a.task.op for a in attempts)
    rows: dict[str, list[dict[str, Any]]] = {
        "sft/repair.jsonl": [],
        "sft/generate.jsonl": [],
        "dpo/generate.jsonl": [],
    }
    for a in attempts:
        split = splits.get(a.task.op, "train")
        prev: Round | None = None
        for r in a.rounds:
            if r.correct and r.kind != "given" and (r.kind != "perf" or r.kept):
                got = _sft(a, r, prev, split, model)
                if got is not None:
                    rows[f"sft/{got[0]}.jsonl"].append(got[1])
            prev = r
        rows["dpo/generate.jsonl"].extend(_dpo(a, split))
    counts = {}
    for name, items in rows.items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in items), encoding="utf-8")
        counts[name] = len(items)
    return counts
