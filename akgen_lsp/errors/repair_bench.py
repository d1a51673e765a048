"""The repair benchmark (`akgen errors bench --corpus DIR`): do the fixers restore broken kernels to compiling and
passing their cases on the simulator?

The corpus is the output of `akgen errors synthesize` (its held-out ``test`` split by default: tasks never seen in
training). For each broken kernel each fixer proposes up to `samples` corrected files; every candidate is linted
and run through the bench's pipeline by the bench's `Executor`, like any candidate. A candidate **verifies** when
the bench passes it and the linter finds no error the correct kernel does not have. Reported per fixer and per
class (the injected mistake's): broken kernels, top-1 (the first candidate verifies), pass@k (unbiased, over the
candidates proposed), candidates proposed, verified, and those that did not verify; what an editor may offer is
only what verified, so its count of unverified offers is 0 by construction, and the benchmark says how many it
had to hold back. ``both`` asks the deterministic fixer first and the model only where no deterministic candidate
verified.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.bench.executor import Executor, Job, LocalPoolExecutor, ResultStore, SerialExecutor
from akgen_lsp.bench.metrics import pass_at_k
from akgen_lsp.bench.pipeline import Candidate
from akgen_lsp.config import Settings, defaults
from akgen_lsp.errors.fixers import BrokenKernel, CandidateEdit, Fixer, get_fixer
from akgen_lsp.errors.synthesis import SynthOptions, bench_settings
from akgen_lsp.findings import Finding, Severity, finding_from_json
from akgen_lsp.logs.blocks import ErrorBlock


class CorpusError(ValueError):
    """A corpus folder that cannot be read; the message says what to do."""


def _lint_keys(text: str, path: str, settings: Settings) -> set[tuple[str, str]]:
    return {
        (f.code, f.message)
        for f in lint_text(text, path, settings, load_catalog())
        if f.severity is Severity.ERROR
    }


def load_corpus(corpus: Path, split: str = "test", settings: Settings | None = None) -> list[BrokenKernel]:
    """The kept mutants of one split of a synthesis output (``manifest.json`` + ``mutants.jsonl``)."""
    settings = settings or defaults()
    manifest_path = corpus / "manifest.json"
    if not manifest_path.is_file():
        raise CorpusError(
            f"{corpus} has no manifest.json: give the --out folder of `akgen errors synthesize`"
        )
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    ids = {s["id"] for s in manifest.get("samples", ()) if split == "all" or s.get("split") == split}
    if not ids:
        raise CorpusError(
            f"{corpus}: no sample in the {split!r} split (splits: "
            f"{sorted({s.get('split') for s in manifest.get('samples', ())})})"
        )
    out = []
    originals: dict[str, frozenset[tuple[str, str]]] = {}
    for r in ResultStore(corpus / "mutants.jsonl").load():
        if r.get("id") not in ids or not r.get("kept"):
            continue
        file = Path(r["mutant_path"])
        if not file.is_file():
            continue
        src = r["source_path"]
        if src not in originals:
            text = Path(src).read_text(encoding="utf-8", errors="replace") if Path(src).is_file() else ""
            originals[src] = frozenset(_lint_keys(text, r["kernel_file"], settings))
        task_root = Path(r["suite"]) / r["task"]
        host = Path(src).parent.parent / "op_host"
        out.append(
            BrokenKernel(
                r["id"],
                r["task"],
                str(task_root),
                r["kernel_file"],
                file,
                file.read_text(encoding="utf-8", errors="replace"),
                host if host.is_dir() else None,
                r["injected_class"],
                ErrorBlock.from_json(r["primary"]) if r.get("primary") else None,
                originals[src],
                tuple(r.get("findings") or ()),
            )
        )
    return out


def findings_of(broken: BrokenKernel, settings: Settings) -> list[Finding]:
    """What a fixer is given: the linter's findings on the broken file and the errors of its real run."""
    lint = lint_text(broken.text, broken.path, settings, load_catalog())
    run = []
    for d in broken.run_findings:
        try:
            f = finding_from_json(
                {
                    **d,
                    "path": broken.path
                    if d.get("path") == str(broken.file)
                    else d.get("path") or broken.path,
                    "line": d.get("line") or 1,
                }
            )
        except (KeyError, ValueError, TypeError):
            continue
        if f.severity is Severity.ERROR:
            run.append(f)
    return [*lint, *run]


@dataclass
class Attempt:
    broken: BrokenKernel
    fixer: str
    candidates: list[CandidateEdit]
    verified: list[bool] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)


def _verify(
    attempts: Sequence[Attempt], out: Path, opts: SynthOptions, settings: Settings, executor: Executor
) -> None:
    """Run every candidate of every attempt through the bench and the linter; fills `verified` and `records`."""
    jobs: dict[str, tuple[Job, Attempt, int]] = {}
    bench = bench_settings(opts)
    for a in attempts:
        a.verified = [False] * len(a.candidates)
        a.records = [{} for _ in a.candidates]
        for i, cand in enumerate(a.candidates):
            kdir = out / "candidates" / a.broken.id / a.fixer / str(i) / "op_kernel"
            kdir.mkdir(parents=True, exist_ok=True)
            for f in a.broken.file.parent.iterdir():
                if f.is_file() and f.name != a.broken.file.name:
                    (kdir / f.name).write_bytes(f.read_bytes())
            kernel = kdir / a.broken.file.name
            kernel.write_text(cand.text, encoding="utf-8")
            sample = int(hashlib.sha1(f"{a.broken.id}/{a.fixer}/{i}".encode()).hexdigest()[:9], 16)
            job = Job(
                a.broken.task_root,
                Candidate(a.broken.task_id, sample, kernel, a.broken.host_dir, origin="repair"),
                bench,
                opts.timeout_s,
            )
            jobs[job.key] = (job, a, i)

    def on_result(job: Job, rec: dict[str, Any]) -> None:
        _j, a, i = jobs[job.key]
        new_lint = _lint_keys(a.candidates[i].text, a.broken.path, settings) - set(a.broken.original_lint)
        a.records[i] = {"status": rec.get("status"), "new_lint": sorted(new_lint)}
        a.verified[i] = rec.get("status") == "pass" and not new_lint

    executor.run([j for j, _a, _i in jobs.values()], on_result)


def _summary(attempts: Iterable[Attempt], k: int) -> dict[str, Any]:
    per: dict[str, list[Attempt]] = defaultdict(list)
    for a in attempts:
        per[a.broken.error_class].append(a)
        per["all"].append(a)

    def row(items: Sequence[Attempt]) -> dict[str, Any]:
        n = len(items)
        proposed = sum(len(a.candidates) for a in items)
        verified = sum(sum(a.verified) for a in items)
        top1 = sum(1 for a in items if a.verified[:1] == [True])
        pk = [
            pass_at_k(len(a.candidates), sum(a.verified), min(k, len(a.candidates))) if a.candidates else 0.0
            for a in items
        ]
        return {
            "broken": n,
            "top1": round(top1 / n, 4) if n else None,
            f"pass@{k}": round(sum(pk) / n, 4) if n else None,
            "repaired": sum(1 for a in items if any(a.verified)),
            "proposed": proposed,
            "verified": verified,
            "not_verified": proposed - verified,
            "no_candidate": sum(1 for a in items if not a.candidates),
            "offered_unverified": 0,
        }

    return {cls: row(items) for cls, items in sorted(per.items(), key=lambda kv: (kv[0] != "all", kv[0]))}


def run_repair_bench(
    corpus: Path,
    fixers: Sequence[str],
    samples: int = 1,
    split: str = "test",
    out: Path | None = None,
    jobs: int | None = None,
    settings: Settings | None = None,
    executor: Executor | None = None,
    fixer_objects: Mapping[str, Fixer] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    max_cases: int | None = None,
) -> dict[str, Any]:
    """Run the benchmark; returns {"split", "samples", "fixers": {name: {class: row}}, "corpus"}. Candidates run
    every case of their task unless `max_cases` says fewer."""
    settings = settings or defaults()
    out = out or corpus / "repair-bench"
    broken = load_corpus(corpus, split, settings)
    opts = SynthOptions(
        sources=[],
        out=out,
        max_cases=max_cases,
        arch=str(settings["arch"]),
        cann_version=str(settings["cann.version"]),
        checks=str(settings["sim.checks"]),
    )
    executor = executor or (SerialExecutor() if jobs == 1 else LocalPoolExecutor(jobs))
    objects = dict(fixer_objects or {})
    made: dict[
        str, Fixer
    ] = {}  # the fixers this run made (one each, reused by every step): closed at its end
    results: dict[str, Any] = {}
    done: dict[str, list[Attempt]] = {}
    for name in fixers:
        chain = ["deterministic", "model"] if name == "both" else [name]
        attempts: list[Attempt] = []
        for step in chain:
            fixer = objects.get(step) or made.get(step) or made.setdefault(step, get_fixer(step))
            todo = [
                b
                for b in broken
                if not (
                    step == "model"
                    and name == "both"
                    and any(a.broken.id == b.id and any(a.verified) for a in attempts)
                )
            ]
            step_attempts = []
            for i, b in enumerate(todo):
                if progress:
                    progress(f"{step}: proposing", i, len(todo))
                step_attempts.append(
                    Attempt(b, step, fixer.candidates(b, findings_of(b, settings), settings, samples))
                )
            if progress:
                progress(f"{step}: verifying", len(todo), len(todo))
            _verify(step_attempts, out / name, opts, settings, executor)
            attempts = _merge(attempts, step_attempts)
        done[name] = attempts
        results[name] = _summary(attempts, samples)
    for made_fixer in made.values():
        close = getattr(made_fixer, "close", None)
        if callable(close):
            close()
    rows = [
        {
            "id": a.broken.id,
            "task": a.broken.task_id,
            "class": a.broken.error_class,
            "fixer": name,
            "candidates": [
                {"title": c.title, "fixer": c.fixer, "verified": v, **r}
                for c, v, r in zip(a.candidates, a.verified, a.records, strict=True)
            ],
        }
        for name, attempts in done.items()
        for a in attempts
    ]
    out.mkdir(parents=True, exist_ok=True)
    (out / "repair_results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return {
        "corpus": str(corpus),
        "split": split,
        "samples": samples,
        "broken": len(broken),
        "fixers": results,
    }


def _merge(before: list[Attempt], after: list[Attempt]) -> list[Attempt]:
    """One attempt per broken kernel: a later step's candidates appended to the earlier step's."""
    by = {a.broken.id: a for a in before}
    for a in after:
        if a.broken.id in by:
            prev = by[a.broken.id]
            prev.candidates += a.candidates
            prev.verified += a.verified
            prev.records += a.records
            prev.fixer = f"{prev.fixer}+{a.fixer}"
        else:
            by[a.broken.id] = a
    return list(by.values())
