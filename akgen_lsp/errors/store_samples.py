"""The store of repairs as training data (`akgen errors synthesize --from-store`): the repairs users accepted in the
editor ("Fix with KernelGen-LM", provenance ``editor``) and wrote with `akgen fix --apply` (``cli``) become SFT
samples in the same chat format as the synthesized ones, so a team's own accepted fixes become supervision.

Each stored repair has the error's message and class, the file before and after and its task; the error's line is
the first line the repair changes (the store keeps no line), which is where its diagnostic report looks. The
samples go to ``OUT/sft/store.jsonl`` (a file of their own, training data: they are the user's kernels, which
may be of a task of any split), each with the synthesized samples' ``meta`` (operator ``accepted:editor`` /
``accepted:cli``) and its provenance and model. Synthesized repairs in the store (provenance ``synthesized``)
are left out: they are the synthesis' own samples already.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from akgen_lsp.config import Settings, defaults
from akgen_lsp.error_classes import load_taxonomy
from akgen_lsp.errors.report import build_report
from akgen_lsp.errors.samples import repair_answer, repair_messages
from akgen_lsp.errors.store import Repair, RepairStore
from akgen_lsp.logs.blocks import ErrorBlock

USER_PROVENANCES = ("editor", "cli", "history", "user")
KERNEL_CLASSES = frozenset(
    {
        "api_mismatch",
        "hallucinated_api",
        "renamed_api",
        "dtype",
        "scope",
        "memory",
        "syntax",
        "device_restriction",
        "tiling",
        "precision",
        "runtime",
        "performance",
    }
)


def _first_changed_line(before: str, after: str) -> int:
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    for tag, i1, _i2, _j1, _j2 in matcher.get_opcodes():
        if tag != "equal":
            return i1 + 1
    return 1


def store_sample(rep: Repair, settings: Settings) -> dict[str, object] | None:
    """One SFT sample of a stored repair (None for a repair of no class of the taxonomy's kernel classes)."""
    cls = rep.error_class or ""
    if cls not in KERNEL_CLASSES:
        return None
    path = rep.path or "kernel.cpp"
    line = _first_changed_line(rep.before, rep.after)
    block = ErrorBlock(
        tool="akgen",
        message=rep.message,
        file=path,
        line=line,
        severity="error",
        error_class=rep.error_class,
        signature=rep.signature,
        raw=rep.message,
    )
    report = build_report(block, rep.before, path, settings, use_store=False)
    prompt = repair_messages(report.markdown(), rep.before, path)
    who = "the model's repair" if rep.provenance == "editor" else "the fix"
    answer = repair_answer(
        [
            f"The error at line {line}: {rep.message}.",
            f"This is {who} the user accepted after it compiled and passed on the simulator.",
        ],
        rep.after,
    )
    key = hashlib.sha1("\0".join((rep.signature, rep.before, rep.after)).encode("utf-8", "surrogatepass"))
    stage = load_taxonomy().classes[cls].stage if cls in load_taxonomy().classes else "compile"
    # the synthesized samples' meta (sft.schema.json), for a repair a user accepted: its own "operator"
    meta = {
        "id": key.hexdigest()[:16],
        "task": rep.task or "",
        "op": Path(path).stem,
        "source": f"store:{rep.id}",
        "split": "train",
        "operator": f"accepted:{rep.provenance}",
        "injected_class": cls,
        "classified_as": cls,
        "status": _STATUS.get(stage, "compile_error"),
        "failed_by": "sim",
        "provenance": rep.provenance,
        "model": rep.model,
    }
    return {"messages": [*prompt, {"role": "assistant", "content": answer}], "meta": meta}


_STATUS = {
    "compile": "compile_error",
    "run": "runtime_error",
    "verify": "wrong_answer",
    "any": "compile_error",
}


def write_store_samples(
    store: RepairStore,
    out: Path,
    settings: Settings | None = None,
    provenances: Sequence[str] = USER_PROVENANCES,
) -> int:
    """Write ``out/sft/store.jsonl`` from the store's repairs of `provenances`; returns how many."""
    settings = settings or defaults()
    rows_file = out / "store-repairs.jsonl"
    out.mkdir(parents=True, exist_ok=True)
    store.export(rows_file)
    n = 0
    (out / "sft").mkdir(parents=True, exist_ok=True)
    with (out / "sft" / "store.jsonl").open("w", encoding="utf-8") as fh:
        for line in rows_file.read_text(encoding="utf-8").splitlines():
            rep = Repair(**json.loads(line))
            if rep.provenance not in provenances:
                continue
            sample = store_sample(rep, settings)
            if sample is None:
                continue
            fh.write(json.dumps(sample, ensure_ascii=False) + "\n")
            n += 1
    rows_file.unlink()
    return n
