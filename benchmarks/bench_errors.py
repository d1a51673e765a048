"""The figures of `akgen errors` (issue 12): synthesis throughput, classifier accuracy, the distribution of a bench
run over mutated candidates, the SFT / DPO set sizes, and the latency of a diagnostic report.

    python benchmarks/bench_errors.py throughput [--tasks N] [--per-kernel M] [--jobs 2] [--max-cases 4]
    python benchmarks/bench_errors.py throughput --reuse SYNTH_OUT [--jobs 2]   # the warm pass over a past run
    python benchmarks/bench_errors.py accuracy SYNTH_OUT...          # labelled corpus: mutants + hand-labelled logs
    python benchmarks/bench_errors.py distribution SYNTH_OUT --out DIR [--jobs 2] [--max-cases 0]
    python benchmarks/bench_errors.py sizes SYNTH_OUT...
    python benchmarks/bench_errors.py report-latency [--repeat 20]

- ``throughput``: mutants of the first N tasks of the bundled suite, run twice in one output folder (the second
  time with its records removed). Pass 1 (after a warm-up run of the reference answers: precompiled header,
  launcher, host runners and task references warm) compiles every mutant; pass 2 runs the same mutants again with
  the build cache warm (the issue's measure: a build's key holds its sources' paths, and the mutants' files are
  where they were, so their builds are found). Prints verified mutants (kept: they really fail) per minute of wall
  time, and the load average, since the machine's two cores are shared. With ``--reuse SYNTH_OUT`` only the warm
  pass runs, over the mutants of an earlier synthesis (its options from its manifest; its records restored after).
- ``accuracy``: the classifier on every block whose class is known: the primary block of each kept mutant of an
  observable operator (labelled with the injected class) and the hand-labelled blocks of tests/errors/fixtures;
  prints the confusion matrix and accuracy, and the share of all kept mutants (observable or not) whose real log is
  classified as the injected class.
- ``distribution``: the kept mutants exported as generated candidates, `akgen bench run --candidates` over them, then
  `akgen errors mine results.jsonl` + `classify --html`: the distribution a bench run of a model would give.
- ``sizes``: the SFT / DPO set sizes (per split) of synthesis outputs, from their manifests.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
SUITE = REPO / "akgen_lsp" / "bench" / "suite" / "tasks"


def _load() -> str:
    la = os.getloadavg()
    return f"load average {la[0]:.1f} {la[1]:.1f} {la[2]:.1f} on {os.cpu_count()} cores"


def throughput(args: argparse.Namespace) -> None:
    from akgen_lsp.bench.runner import RunOptions, run_bench
    from akgen_lsp.bench.tasks import discover_tasks
    from akgen_lsp.errors.synthesis import SynthOptions, make_executor, run_synthesis

    if args.reuse:
        _throughput_again(args)
        return
    names = [t.name for t in discover_tasks(SUITE)][: args.tasks]
    print(f"tasks: {', '.join(names)}; {_load()}")
    t0 = time.perf_counter()
    run_bench(RunOptions(tasks=tuple(names), out=Path(tempfile.mkdtemp(prefix="akgen-warmup-")), jobs=args.jobs,
                         max_cases=args.max_cases))
    print(f"warm-up (reference answers): {time.perf_counter() - t0:.1f} s")
    out = Path(tempfile.mkdtemp(prefix="akgen-synth-"))
    for label in ("cold mutants (each compiled)", "warm build cache (the same mutants again)"):
        for done in ("mutants.jsonl", "originals.jsonl"):  # run them all again, at the same paths (cache keys)
            (out / done).unlink(missing_ok=True)
        opts = SynthOptions(sources=[SUITE], out=out, per_kernel=args.per_kernel, jobs=args.jobs,
                            max_cases=args.max_cases, tasks=tuple(names))
        _print_run(label, run_synthesis(opts, make_executor("local", args.jobs)), args.jobs)


def _print_run(label: str, run: Any, jobs: int) -> None:
    per = [r["timings"].get("total", 0.0) for r in run.records]
    print(f"[{label}] {run.ran} mutants in {run.seconds:.1f} s, {run.kept_now} verified (really fail): "
          f"{run.verified_per_minute} verified mutants per minute on {jobs} workers "
          f"({run.ran / (run.seconds / 60):.1f} mutants per minute; median {statistics.median(per):.2f} s per "
          f"mutant in the pipeline); {_load()}")


def _throughput_again(args: argparse.Namespace) -> None:
    """The warm pass alone, over a synthesis output made before (`--reuse OUT`, with its own options from its
    manifest): its records are set aside, every mutant runs again where it was (its build is in the cache), and
    the records are put back as they were."""
    import shutil

    from akgen_lsp.errors.synthesis import SynthOptions, make_executor, run_synthesis

    out = Path(args.reuse)
    o = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["options"]
    tasks = tuple(ast.literal_eval(o["tasks"])) if o.get("tasks") not in (None, "None", "()") else ()
    opts = SynthOptions(sources=[Path(p) for p in ast.literal_eval(o["sources"].replace("PosixPath", ""))], out=out,
                        per_kernel=int(o["per_kernel"]), jobs=args.jobs, max_cases=int(o["max_cases"]), tasks=tasks)
    saved = out / "bench-throughput-saved"
    saved.mkdir(exist_ok=True)
    for done in ("mutants.jsonl", "originals.jsonl"):
        shutil.copy(out / done, saved / done)
    try:
        for done in ("mutants.jsonl", "originals.jsonl"):
            (out / done).unlink()
        print(f"{out}: {opts.per_kernel} per kernel, {opts.max_cases} cases, tasks {tasks or 'all'}; {_load()}")
        _print_run("warm build cache (the mutants of that run again)", run_synthesis(opts, make_executor(
            "local", args.jobs)), args.jobs)
    finally:
        for done in ("mutants.jsonl", "originals.jsonl"):
            shutil.copy(saved / done, out / done)
        shutil.rmtree(saved, ignore_errors=True)


def _hand_labelled() -> list[Any]:
    sys.path.insert(0, str(REPO))
    from akgen_lsp.errors.classify import Classifier
    from akgen_lsp.logs.mine import mine_log
    from tests.errors.conftest import LOGS, hand_labels, label_blocks

    clf = Classifier()
    out = []
    for name in hand_labels():
        out.extend(label_blocks(name, clf.classify_all(mine_log(LOGS / name))))
    return out


def accuracy(args: argparse.Namespace) -> None:
    from akgen_lsp.bench.executor import ResultStore
    from akgen_lsp.errors.classify import Classifier
    from akgen_lsp.errors.evaluate import confusion, render_confusion
    from akgen_lsp.logs.blocks import ErrorBlock

    clf = Classifier()
    labelled: list[ErrorBlock] = []
    kept = []
    seen: set[str] = set()  # a mutant in several outputs (the same source and mutation) counts once
    for d in args.synth:
        for r in ResultStore(Path(d) / "mutants.jsonl").load():
            if not r.get("kept") or not r.get("primary") or r.get("id") in seen:
                continue
            seen.add(str(r.get("id")))
            kept.append(r)
            b = ErrorBlock.from_json(r["primary"])
            b.error_class = clf.classify(b).error_class  # classified again now, by the current rules
            r["_now"] = b.error_class
            if r.get("observable"):
                b.label = r["injected_class"]
                b.origin["mutation"] = r["operator"]
                labelled.append(b)
    hand = _hand_labelled()
    result = confusion([*labelled, *hand])
    print(f"labelled corpus: {len(labelled)} mutant blocks (observable operators) + {len(hand)} hand-labelled log "
          f"blocks = {result['n']}")
    print(render_confusion(result))
    for m in result["mistakes"][:12]:
        print(f"  {m['label']} -> {m['predicted']}: {m['examples'][0]['message'][:110]}")
    same = sum(1 for r in kept if r["_now"] == r["injected_class"])
    print(f"share of kept mutants whose real log is classified as the injected class: {same}/{len(kept)} = "
          f"{same / max(1, len(kept)):.3f}")
    per_op: dict[str, Counter[str]] = {}
    for r in kept:
        per_op.setdefault(r["operator"], Counter())[r["_now"]] += 1
    for op, c in sorted(per_op.items()):
        inj = next(r["injected_class"] for r in kept if r["operator"] == op)
        print(f"  {op:20s} injected {inj:18s} classified {dict(c.most_common())}")


def distribution(args: argparse.Namespace) -> None:
    from akgen_lsp.bench.executor import ResultStore
    from akgen_lsp.bench.runner import RunOptions, run_bench
    from akgen_lsp.errors.classify import Classifier
    from akgen_lsp.errors.distribution import distribution as dist_of
    from akgen_lsp.errors.html_report import write_html
    from akgen_lsp.errors.synthesis import export_candidates
    from akgen_lsp.logs.mine import mine_log

    out = Path(args.out)
    records = ResultStore(Path(args.synth) / "mutants.jsonl").load()
    cands = out / "candidates"
    n = export_candidates(records, cands, link=True)  # the synthesis' builds are found in the cache again
    tasks = sorted({p.name for p in cands.iterdir()})
    suites = {str(r.get("suite")) for r in records if r.get("kept")}
    suite = Path(suites.pop()) if len(suites) == 1 else SUITE  # the mutants' own suite (NPUKernelBench's tasks/)
    t0 = time.perf_counter()
    summary = run_bench(RunOptions(suite=suite, tasks=tuple(tasks), candidates=str(cands), out=out / "bench",
                                   jobs=args.jobs, max_cases=args.max_cases or None))
    print(f"bench run over {n} mutated candidates of {len(tasks)} tasks: {time.perf_counter() - t0:.1f} s; "
          f"statuses {dict(Counter(r['status'] for r in ResultStore(out / 'bench' / 'results.jsonl').load()))}")
    print(f"  bench error classes: {summary['error_classes']}")
    blocks = Classifier().classify_all(mine_log(out / "bench" / "results.jsonl", model="mutants"))
    d = dist_of(blocks)
    (out / "distribution.json").write_text(json.dumps(d, indent=1), encoding="utf-8")
    write_html(d, out / "distribution.html", "akgen errors: a bench run over mutated candidates")
    print(f"  {d['blocks']} error blocks ({d['occurrences']} reports), {d['kernel_errors']} kernel errors:")
    for c in d["classes"]:
        if c["count"]:
            top = (d["top_signatures"].get(c["class"]) or [{}])[0].get("signature", "")
            print(f"    {c['class']:18s} {c['count']:4d}  {100 * c['share']:5.1f}%  {top[:70]}")
    print(f"  per tool: { {k: sum(v.values()) for k, v in d['by_tool'].items()} }")
    print(f"  per level: { {k: sum(v.values()) for k, v in d['by_level'].items()} }")
    print(f"wrote {out / 'distribution.json'} and {out / 'distribution.html'}")


def sizes(args: argparse.Namespace) -> None:
    for d in args.synth:
        m = json.loads((Path(d) / "manifest.json").read_text())
        c = m["counts"]
        print(f"{d}: {c['mutants']} mutants, {c['kept']} kept, {c['after_dedupe']} after removing "
              f"{c['dropped_exact']} exact and {c['dropped_near']} near duplicates -> {c['samples']} SFT samples, "
              f"{c['dpo_pairs']} DPO pairs; per split {c['splits']}")
        print(f"  per operator {c['per_operator']}")
        print(f"  per status {c['per_status']}; sources {[s['path'] for s in m['sources']]}")


def report_latency(args: argparse.Namespace) -> None:
    from akgen_lsp.ascendc.lint import lint_text
    from akgen_lsp.errors.report import build_report

    path = REPO / "samples" / "broken" / "akg101_unknown_api.cpp"
    text = path.read_text()
    (f,) = [f for f in lint_text(text, str(path)) if f.code == "AKG101"]
    t0 = time.perf_counter()
    build_report(f, text, str(path))
    first = time.perf_counter() - t0
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        build_report(f, text, str(path))
        times.append(time.perf_counter() - t0)
    print(f"build_report on {path.name} ({len(text.splitlines())} lines): first {first * 1000:.0f} ms (catalog load), "
          f"then median {statistics.median(times) * 1000:.1f} ms over {args.repeat}; {_load()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("throughput")
    p.add_argument("--tasks", type=int, default=6)
    p.add_argument("--per-kernel", type=int, default=10)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--max-cases", type=int, default=4)
    p.add_argument("--reuse", metavar="SYNTH_OUT", help="only the warm pass, over this synthesis output")
    p = sub.add_parser("accuracy")
    p.add_argument("synth", nargs="+")
    p = sub.add_parser("distribution")
    p.add_argument("synth")
    p.add_argument("--out", required=True)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--max-cases", type=int, default=0, help="cases per candidate (0: all, as a bench run of a "
                   "model; the first N cases are often of one dtype, and a mistake in another dtype's branch passes)")
    p = sub.add_parser("sizes")
    p.add_argument("synth", nargs="+")
    p = sub.add_parser("report-latency")
    p.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    {"throughput": throughput, "accuracy": accuracy, "distribution": distribution, "sizes": sizes,
     "report-latency": report_latency}[args.what](args)


if __name__ == "__main__":
    main()
