"""Verified mutants -> training data: SFT chat samples, DPO preference pairs, a manifest with provenance.

- **Deduplication.** Exact duplicates (the same broken file) and near duplicates (the same operator, the same
  signature of the primary error, and broken files whose 5-token shingles overlap by `NEAR` or more: the same mistake
  at the same place of two kernels generated from one template) are removed before the split; the first one (in
  source order) stays.
- **Split by source kernel and task.** Every sample of one task (one op name, whatever suite it comes from) lands in
  the same split, so no test kernel, nor a mutant of it, is seen in training. Ops are ordered by a hash of their
  name and cut 80 / 10 / 10 (at least one op in validation and test when there are three or more).
- **SFT** (``sft/{train,validation,test}.jsonl``): ``{"messages": [system, user, assistant], "meta": {...}}``; the user
  message is the diagnostic report of the primary error and the broken file, the assistant message a short
  reasoning (the class, what is wrong and why, where the fix is) and the corrected file (the inverse edit).
- **DPO** (``dpo/{train,validation,test}.jsonl``): ``{"prompt": [system, user], "chosen": [assistant],
  "rejected": [assistant], "meta": {"chosen_rank", "rejected_rank", ...}}`` in AscendKernelGen's order correct >
  runs but wrong numbers > does not compile: for a broken kernel's prompt, the original is chosen over another
  mutant of the same kernel that runs but computes wrong numbers, and over one that does not compile; a
  wrong-numbers mutant is chosen over a non-compiling one. Responses are the file alone (the preference is about the
  code); mutants that crash or hang rank nowhere and are left out.
- **Manifest** (``manifest.json``): the sources (with their licence), the tool versions (akgen, the compiler, the
  simulator headers, the taxonomy), the options, the counts (per operator, class, status, split), and per sample its
  provenance: source kernel, task, mutation, what failed it.
"""

from __future__ import annotations

import hashlib
import json
import platform
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from akgen_lsp.ascendc.catalog import Catalog, load_catalog
from akgen_lsp.config import Settings, defaults
from akgen_lsp.error_classes import load_taxonomy
from akgen_lsp.errors.classify import Classifier
from akgen_lsp.errors.report import build_report
from akgen_lsp.errors.samples import code_answer, repair_answer, repair_messages
from akgen_lsp.errors.store import RepairStore, unified_diff
from akgen_lsp.logs.blocks import ErrorBlock
from akgen_lsp.sim.build_cache import headers_hash
from akgen_lsp.sim.compiler import compiler_id, find_cxx

NEAR = 0.9
SPLITS = ("train", "validation", "test")
_TOKEN = re.compile(r"[A-Za-z_]\w*|\d+|\S")
RANK = {"correct": 2, "wrong_numbers": 1, "does_not_compile": 0}
_TIER = {
    "wrong_answer": "wrong_numbers",
    "no_work": "wrong_numbers",
    "compile_error": "does_not_compile",
    "parse_error": "does_not_compile",
}


def tier_of(status: str) -> str | None:
    """The preference tier of a check's status (correct > wrong_numbers > does_not_compile; None: ranks nowhere)."""
    return "correct" if status == "pass" else _TIER.get(status)


@dataclass
class DatasetReport:
    samples: int = 0
    dpo_pairs: int = 0
    dropped_exact: int = 0
    dropped_near: int = 0
    splits: dict[str, dict[str, int]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _shingles(text: str, k: int = 5) -> set[int]:
    toks = _TOKEN.findall(re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S))
    return {hash(tuple(toks[i : i + k])) for i in range(max(1, len(toks) - k + 1))}


def dedupe(records: Sequence[dict[str, Any]], near: float = NEAR) -> tuple[list[dict[str, Any]], int, int]:
    """Kept records without exact and near duplicates; returns (records, exact dropped, near dropped)."""
    seen: set[str] = set()
    groups: dict[tuple[str, str], list[set[int]]] = defaultdict(list)
    out, exact, close = [], 0, 0
    for r in records:
        text = r["mutant_text"]
        h = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        if h in seen:
            exact += 1
            continue
        seen.add(h)
        key = (r["operator"], (r.get("primary") or {}).get("signature", ""))
        sh = _shingles(text)
        if any(len(sh & o) / max(1, len(sh | o)) >= near for o in groups[key]):
            close += 1
            continue
        groups[key].append(sh)
        out.append(r)
    return out, exact, close


def assign_splits(ops: Iterable[str], fractions: tuple[float, float] = (0.8, 0.9)) -> dict[str, str]:
    """op -> split: ordered by a hash of the op name, cut at the fractions (train below the first, validation below
    the second, test after), with at least one op in validation and in test when there are three or more."""
    order = sorted(set(ops), key=lambda o: hashlib.sha1(o.encode()).hexdigest())
    n = len(order)
    if n == 0:
        return {}
    a, b = round(n * fractions[0]), round(n * fractions[1])
    if n >= 3:
        b = min(b, n - 1)
        a = min(a, b - 1)
        a, b = max(a, 1), max(b, a + 1)
    return {op: ("train" if i < a else "validation" if i < b else "test") for i, op in enumerate(order)}


def _reasoning(r: Mapping[str, Any], title: str) -> list[str]:
    where = f"line {r['line']}" if r.get("line") else "the kernel"
    return [
        f"This is a {title.lower()} error at {where}.",
        str(r["explanation"]),
        "The fix restores what the kernel needs there and changes nothing else.",
    ]


def _prompt(
    r: Mapping[str, Any], settings: Settings, catalog: Catalog, classifier: Classifier
) -> list[dict[str, str]]:
    block = ErrorBlock.from_json(r["primary"])
    path = r["kernel_file"]
    if block.file and Path(block.file).name == Path(path).name:
        block.file = path  # the prompt names the file as the task's layout does, not where it was run
    report = build_report(
        block, r["mutant_text"], path, settings, catalog=catalog, classifier=classifier, use_store=False
    )
    return repair_messages(report.markdown(), r["mutant_text"], path)


def licence_of(suite: Path) -> str:
    """What the source folder says about its licence (a LICENSE file's first line), or that it says nothing."""
    for base in (suite, *suite.parents[:3]):
        for name in ("LICENSE", "LICENSE.txt", "LICENSE.md", "COPYING"):
            f = base / name
            if f.is_file():
                first = next(
                    (ln.strip() for ln in f.read_text(errors="replace").splitlines() if ln.strip()), ""
                )
                return f"{first} ({f})"
    if Path(__file__).resolve().parents[1] in suite.resolve().parents:
        return "Apache-2.0 (akgen-lsp's bundled suite)"
    return (
        "no licence file found: derived data may not be redistributable; ask the authors before publishing it "
        "(NPUKernelBench has no licence file)"
    )


def _tool_versions() -> dict[str, Any]:
    try:
        version = metadata.version("akgen-lsp")
    except metadata.PackageNotFoundError:
        version = "0.1.0"
    try:
        cxx = compiler_id(find_cxx())
    except Exception as exc:  # no compiler: the manifest says so rather than failing the write
        cxx = f"unknown ({exc})"
    return {
        "akgen": version,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cxx": cxx,
        "sim_headers": headers_hash(),
        "taxonomy": load_taxonomy().version,
    }


def build_dataset(
    records: Sequence[dict[str, Any]],
    out: Path,
    options: Mapping[str, Any],
    settings: Settings | None = None,
    store: RepairStore | None = None,
) -> DatasetReport:
    """Write sft/, dpo/, repairs.jsonl and manifest.json under `out` from the records of `run_synthesis` (reading
    each mutant's text from its file). Returns the counts."""
    settings = settings or defaults()
    catalog = load_catalog()
    classifier = Classifier(catalog, str(settings["cann.version"]))
    tax = load_taxonomy()
    kept = []
    for r in sorted(
        (r for r in records if r.get("kept") and r.get("primary")), key=lambda r: (r["source"], r["id"])
    ):
        p = Path(r["mutant_path"])
        if not p.is_file() or not Path(r["source_path"]).is_file():
            continue  # a mutant or its source removed since the run: nothing to write for it
        kept.append({**r, "mutant_text": p.read_text(encoding="utf-8", errors="replace")})
    unique, exact, close = dedupe(kept)
    split_of = assign_splits(r["op"] for r in unique)
    originals: dict[str, str] = {}  # source id -> its text (read once)
    rep = DatasetReport(dropped_exact=exact, dropped_near=close)
    for kind in ("sft", "dpo"):
        (out / kind).mkdir(parents=True, exist_ok=True)
    files = {
        s: {kind: (out / kind / f"{s}.jsonl").open("w", encoding="utf-8") for kind in ("sft", "dpo")}
        for s in SPLITS
    }
    repairs = (out / "repairs.jsonl").open("w", encoding="utf-8")
    provenance = []
    counts: dict[str, Counter[str]] = {s: Counter() for s in SPLITS}
    try:
        by_source: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in unique:
            by_source[r["source"]].append(r)
        for src, rows in by_source.items():
            original = originals.setdefault(
                src, Path(rows[0]["source_path"]).read_text(encoding="utf-8", errors="replace")
            )
            for r in rows:
                split = split_of[r["op"]]
                cls = r["injected_class"]
                title = tax.classes[cls].title if cls in tax.classes else cls
                prompt = _prompt(r, settings, catalog, classifier)
                answer = repair_answer(_reasoning(r, title), original)
                meta = {
                    "id": r["id"],
                    "task": r["task"],
                    "op": r["op"],
                    "source": src,
                    "split": split,
                    "operator": r["operator"],
                    "injected_class": cls,
                    "classified_as": r.get("classified_as"),
                    "status": r["status"],
                    "failed_by": r["failed_by"],
                }
                files[split]["sft"].write(
                    json.dumps(
                        {"messages": [*prompt, {"role": "assistant", "content": answer}], "meta": meta},
                        ensure_ascii=False,
                    )
                    + "\n"
                )
                counts[split]["sft"] += 1
                repairs.write(
                    json.dumps(
                        {
                            "signature": r["primary"]["signature"],
                            "error_class": cls,
                            "message": r["primary"]["message"],
                            "before": r["mutant_text"],
                            "after": original,
                            "diff": unified_diff(r["mutant_text"], original, r["kernel_file"]),
                            "task": r["task"],
                            "provenance": "synthesized",
                            "mutation": r["operator"],
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )
                if store is not None:
                    store.add(
                        r["primary"]["signature"],
                        r["mutant_text"],
                        original,
                        error_class=cls,
                        message=r["primary"]["message"],
                        task=r["task"],
                        model="synthesized",
                        provenance="synthesized",
                        path=r["kernel_file"],
                    )
                for pair in _pairs(r, rows, original, prompt):
                    files[split]["dpo"].write(
                        json.dumps({**pair, "meta": {**meta, **pair["meta"]}}, ensure_ascii=False) + "\n"
                    )
                    counts[split]["dpo"] += 1
                provenance.append(meta)
    finally:
        for kinds in files.values():
            for fh in kinds.values():
                fh.close()
        repairs.close()
    rep.samples = sum(c["sft"] for c in counts.values())
    rep.dpo_pairs = sum(c["dpo"] for c in counts.values())
    rep.splits = {s: dict(c) for s, c in counts.items()}
    rep.files = [str(out / k / f"{s}.jsonl") for s in SPLITS for k in ("sft", "dpo")] + [
        str(out / "repairs.jsonl")
    ]
    suites = sorted({r["suite"] for r in records})
    manifest = {
        "format": "akgen-errors-dataset",
        "version": 1,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "tools": _tool_versions(),
        "options": dict(options),
        "sources": [{"path": s, "licence": licence_of(Path(s))} for s in suites],
        "counts": {
            "mutants": len(records),
            "kept": sum(1 for r in records if r.get("kept")),
            "after_dedupe": len(unique),
            "dropped_exact": exact,
            "dropped_near": close,
            "samples": rep.samples,
            "dpo_pairs": rep.dpo_pairs,
            "splits": rep.splits,
            "per_operator": dict(Counter(r["operator"] for r in unique)),
            "per_class": dict(Counter(r["injected_class"] for r in unique)),
            "per_status": dict(Counter(r["status"] for r in unique)),
        },
        "splits": {op: s for op, s in sorted(split_of.items())},
        "samples": provenance,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False), encoding="utf-8")
    return rep


def _pairs(
    r: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], original: str, prompt: list[dict[str, str]]
) -> list[dict[str, Any]]:
    """The preference pairs of one broken kernel's prompt (see the module docstring)."""
    tiers: dict[str, Mapping[str, Any] | None] = {"wrong_numbers": None, "does_not_compile": None}
    for other in rows:
        t = _TIER.get(str(other["status"]))
        if (
            other["id"] != r["id"]
            and t
            and tiers[t] is None
            and (other.get("failed_by") or "").startswith("sim")
        ):
            tiers[t] = other
    out = []

    def pair(chosen: str, c_rank: str, rejected: str, r_rank: str, rejected_id: str | None) -> dict[str, Any]:
        return {
            "prompt": prompt,
            "chosen": [{"role": "assistant", "content": code_answer(chosen)}],
            "rejected": [{"role": "assistant", "content": code_answer(rejected)}],
            "meta": {"chosen_rank": c_rank, "rejected_rank": r_rank, "rejected_mutant": rejected_id},
        }

    wrong, broken = tiers["wrong_numbers"], tiers["does_not_compile"]
    if wrong is not None:
        out.append(pair(original, "correct", wrong["mutant_text"], "wrong_numbers", wrong["id"]))
    if broken is not None:
        out.append(pair(original, "correct", broken["mutant_text"], "does_not_compile", broken["id"]))
    if wrong is not None and broken is not None:
        out.append(
            pair(
                wrong["mutant_text"], "wrong_numbers", broken["mutant_text"], "does_not_compile", broken["id"]
            )
        )
    return out
