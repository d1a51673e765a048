"""Lint time of a 2,000-line kernel file (target: <= 30 ms median after warm-up).

    python benchmarks/bench_lint.py [--lines 2000] [--runs 30] [--rules]

The file is built from the correct kernels in ``samples/kernels/`` (each copy's classes, kernel entries and
file-scope constants renamed, so it reads as one translation unit with many kernels), repeated until it has at least
``--lines`` lines. It prints the median, p90 and min of `lint_text` over ``--runs`` runs after three warm-up runs,
and with ``--rules`` the parse time and each rule's share.
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
from akgen_lsp.ascendc.lint import lint_text, rules_for
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
    settings = defaults()
    catalog = load_catalog()
    for _ in range(3):
        findings = lint_text(text, "bench.cpp", settings, catalog)
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        lint_text(text, "bench.cpp", settings, catalog)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    print(f"file: {text.count(chr(10)) + 1} lines, {len(text):,} characters, {len(findings)} findings")
    print(f"lint_text: median {statistics.median(times):.1f} ms, p90 {p90:.1f} ms, min {times[0]:.1f} ms "
          f"over {args.runs} runs (target <= 30 ms median)")
    if args.rules:
        t0 = time.perf_counter()
        for _ in range(5):
            parsed = parse(text, "bench.cpp")
        print(f"  parse: {(time.perf_counter() - t0) * 1000 / 5:.1f} ms")
        arch = load_arch(settings["arch"])
        for rule in rules_for(settings):
            spent = []
            for _ in range(5):
                ctx = LintContext(parsed=parsed, catalog=catalog, arch=arch, cann_version=settings["cann.version"])
                t0 = time.perf_counter()
                list(rule.check(ctx))
                spent.append((time.perf_counter() - t0) * 1000)
            print(f"  {rule.code} {rule.name}: {statistics.median(spent):.1f} ms (alone, without shared memo)")


if __name__ == "__main__":
    main()
