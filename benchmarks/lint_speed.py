"""Lint time of one kernel: parse and every rule, median of several runs (target: a 2,000-line kernel in 30 ms).

    python benchmarks/lint_speed.py path/to/kernel.cpp [--repeat 15] [--select AKG1]

Prints the median CPU time (less disturbed than wall time by other processes on a busy machine) of the whole
lint (parse + the rules, as `lint_text` runs them) and its wall time, of the parse alone, and of each rule
alone on a fresh parse (so each rule pays for the shared models it is the first to build).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import statistics
import sys
import time
from pathlib import Path

from akgen_lsp.ascendc import rules as rules_pkg
from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import parse


def load_rules(select: list[str]) -> list[Rule]:
    out = []
    for info in pkgutil.iter_modules(rules_pkg.__path__):
        if not info.name.startswith("akg"):
            continue
        try:
            rule = importlib.import_module(f"{rules_pkg.__name__}.{info.name}").RULE
        except Exception as exc:  # a module being edited by someone else
            print(f"skipping rule module {info.name}: {exc}", file=sys.stderr)
            continue
        if not select or any(rule.code.startswith(c) for c in select):
            out.append(rule)
    return sorted(out, key=lambda r: r.code)


def median_ms(fn, repeat: int, clock=time.process_time) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times) * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--select", default="", help="comma-separated rule codes or prefixes (default: every rule)")
    args = ap.parse_args(argv)
    try:
        text = args.file.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        print(f"cannot read {args.file}: {exc}; pass a kernel source file", file=sys.stderr)
        return 2
    select = [c.strip().upper() for c in args.select.split(",") if c.strip()]
    rules = load_rules(select)
    catalog = load_catalog()
    arch = load_arch("Ascend910B2")
    lint_text(text, str(args.file), catalog=catalog, rules=rules)  # warm caches (catalog, regexes)
    def whole() -> None:
        lint_text(text, str(args.file), catalog=catalog, rules=rules)

    wall = median_ms(whole, args.repeat, time.perf_counter)
    cpu = median_ms(whole, args.repeat)
    print(f"{args.file}: {text.count(chr(10))} lines, {len(rules)} rules")
    print(f"lint (parse + rules): median {cpu:.1f} ms CPU, {wall:.1f} ms wall")
    print(f"parse: median {median_ms(lambda: parse(text, str(args.file)), args.repeat):.1f} ms CPU")
    for rule in rules:
        times = []
        for _ in range(args.repeat):
            ctx = LintContext(parse(text, str(args.file)), catalog, arch, "8.5")
            t0 = time.process_time()
            list(rule.check(ctx))
            times.append(time.process_time() - t0)
        print(f"  {rule.code}: median {statistics.median(times) * 1000:.1f} ms CPU alone on a fresh parse")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
