"""Lint time of a 2,000-line kernel file (target: <= 30 ms median after warm-up).

    python benchmarks/bench_lint.py [--lines 2000] [--runs 30] [--rules]

The file is built from the correct kernels in ``samples/kernels/`` (each copy's classes, kernel entries and
file-scope constants renamed, so it reads as one translation unit with many kernels), added one after the other until
it has at least ``--lines`` lines (whole kernels, so a little more). It prints the median, p90 and min of `lint_text` over ``--runs`` runs after three warm-up runs, in
wall time and in CPU time (on a machine shared with other work the CPU time is the steadier figure), and the same
per 1,000 lines (the file is a little longer than asked for, since kernels are not cut). With ``--rules`` it also
prints the parse time and each rule's share: as `lint_text` runs them (in order on one fresh parse, so a rule pays
for the shared models it is the first to ask for) and alone on a fresh parse (paying for every model it uses).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.lint import lint_parsed, lint_text, rules_for
from akgen_lsp.ascendc.syntax import parse
from akgen_lsp.config import defaults

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples" / "kernels"


def build_file(min_lines: int) -> str:
    kernels = [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.cpp"))]
    if not kernels:
        sys.exit(f"no kernels in {SAMPLES}; the benchmark needs the samples")
    parts: list[str] = []
    lines = 0
    copy = 0
    while lines < min_lines:
        for text in kernels:
            if lines >= min_lines:  # stop at the first kernel that reaches the size, not at the end of a pass
                break
            names = set(re.findall(r"\bclass\s+(\w+)", text))
            names |= set(re.findall(r'extern\s+"C"\s+__global__\s+__aicore__\s+void\s+(\w+)', text))
            names |= set(re.findall(r"^(?:constexpr|const)\s+[\w:]+\s+(\w+)\s*=", text, re.M))
            body = text if copy == 0 else re.sub(r"^#include[^\n]*\n|^using namespace[^\n]*\n", "", text, flags=re.M)
            for name in names:
                body = re.sub(rf"\b{name}\b", f"{name}_{copy}", body)
            parts.append(body)
            lines += body.count("\n")
            copy += 1
    return "\n".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--rules", action="store_true", help="also time the parse and each rule")
    args = ap.parse_args()

    text = build_file(args.lines)
    n_lines = text.count("\n") + 1
    settings = defaults()
    catalog = load_catalog()
    for _ in range(3):
        findings = lint_text(text, "bench.cpp", settings, catalog)
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(args.runs):
        c0, t0 = time.process_time(), time.perf_counter()
        lint_text(text, "bench.cpp", settings, catalog)
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    per_k = 1000 / n_lines
    print(f"file: {n_lines} lines, {len(text):,} characters, {len(findings)} findings")
    for label, times in (("wall", wall), ("CPU ", cpu)):
        times.sort()
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        med = statistics.median(times)
        print(f"lint_text {label}: median {med:.1f} ms, p90 {p90:.1f} ms, min {times[0]:.1f} ms over {args.runs} runs "
              f"({med * per_k:.1f} ms per 1,000 lines; target <= 30 ms median for 2,000 lines)")
    # The server's path: each change re-lints the document, re-parsing incrementally from its previous parse
    # (tree-sitter edits and reuses the old tree); the models and every rule still run from scratch.
    mid = text.index("\n", len(text) // 2) + 1
    edited = text[:mid] + "    // an edit in the middle of the file\n" + text[mid:]
    versions = (text, edited)
    previous = parse(text, "bench.cpp")
    inc_wall: list[float] = []
    inc_cpu: list[float] = []
    for i in range(args.runs + 3):
        current = versions[(i + 1) % 2]
        c0, t0 = time.process_time(), time.perf_counter()
        parsed = parse(current, "bench.cpp", previous)
        lint_parsed(parsed, settings, catalog)
        if i >= 3:
            inc_wall.append((time.perf_counter() - t0) * 1000)
            inc_cpu.append((time.process_time() - c0) * 1000)
        previous = parsed
    for label, times in (("wall", inc_wall), ("CPU ", inc_cpu)):
        times.sort()
        print(f"re-lint after a one-line edit (incremental parse) {label}: median {statistics.median(times):.1f} ms, "
              f"min {times[0]:.1f} ms over {args.runs} runs")
    if args.rules:
        arch = load_arch(settings["arch"])
        rules = rules_for(settings)
        parse_ms: list[float] = []
        in_order: dict[str, list[float]] = {r.code: [] for r in rules}
        alone: dict[str, list[float]] = {r.code: [] for r in rules}
        for _ in range(5):
            c0 = time.process_time()
            parsed = parse(text, "bench.cpp")
            parse_ms.append((time.process_time() - c0) * 1000)
            ctx = LintContext(parsed=parsed, catalog=catalog, arch=arch, cann_version=settings["cann.version"])
            for rule in rules:
                c0 = time.process_time()
                list(rule.check(ctx))
                in_order[rule.code].append((time.process_time() - c0) * 1000)
            for rule in rules:
                ctx = LintContext(parsed=parse(text, "bench.cpp"), catalog=catalog, arch=arch,
                                  cann_version=settings["cann.version"])
                c0 = time.process_time()
                list(rule.check(ctx))
                alone[rule.code].append((time.process_time() - c0) * 1000)
        print(f"  parse: {statistics.median(parse_ms):.1f} ms CPU")
        for rule in rules:
            print(f"  {rule.code} {rule.name}: {statistics.median(in_order[rule.code]):.1f} ms CPU as lint_text runs it, "
                  f"{statistics.median(alone[rule.code]):.1f} ms alone on a fresh parse")


if __name__ == "__main__":
    main()
