"""Lint real kernels and count findings: every rule must stay silent on correct code.

    python benchmarks/real_kernels.py /work/ref/NPUKernelBench/tasks /work/ref/asc-devkit/examples \
        [--select AKG101,AKG102] [--show 20] [--errors] [--cann-version 9.1]

Folders are searched recursively for ``*.cpp`` and ``*.asc`` files (for NPUKernelBench, only the answer kernels
``answer/*/op_kernel/*.cpp`` are taken, the host code is not AscendC). Files are read in place, never copied. It
prints how many files were checked, the findings per rule, the findings themselves (up to ``--show`` per rule), the
files whose tree still has error nodes after masking (``--errors``), and the median and slowest lint time.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from akgen_lsp.ascendc import rules as rules_pkg
from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import error_nodes, parse
from akgen_lsp.config import defaults
from akgen_lsp.findings import Finding


def kernel_files(folder: Path) -> list[Path]:
    files = sorted(p for ext in ("*.cpp", "*.asc") for p in folder.rglob(ext) if p.is_file())
    if any("op_kernel" in p.parts and "answer" in p.parts for p in files):
        # an NPUKernelBench-like tree: the answer kernels only
        files = [p for p in files if "op_kernel" in p.parts and "answer" in p.parts]
    return files


def load_rules() -> list[Rule]:
    """Every rule module that imports (one being edited by someone else must not stop the measurement)."""
    out = []
    for info in pkgutil.iter_modules(rules_pkg.__path__):
        if not info.name.startswith("akg"):
            continue
        try:
            mod = importlib.import_module(f"{rules_pkg.__name__}.{info.name}")
        except Exception as exc:  # report and go on with the others
            print(f"skipping rule module {info.name}: {exc}", file=sys.stderr)
            continue
        out.append(mod.RULE)
    return sorted(out, key=lambda r: r.code)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--select", default="", help="comma-separated rule codes or prefixes (default: every rule)")
    ap.add_argument("--show", type=int, default=20, help="findings to print per rule")
    ap.add_argument("--errors", action="store_true", help="list the files that still have error nodes")
    ap.add_argument("--cann-version", default="", help="target CANN version (default: the settings' default)")
    args = ap.parse_args(argv)
    select = [c.strip().upper() for c in args.select.split(",") if c.strip()]
    rules = [r for r in load_rules() if not select or any(r.code.startswith(c) for c in select)]
    catalog = load_catalog()
    settings = defaults()
    if args.cann_version:
        settings = settings.with_overrides({"cann.version": args.cann_version}, "command line")
    per_rule: Counter[str] = Counter()
    examples: dict[str, list[tuple[Path, Finding]]] = defaultdict(list)
    times: list[float] = []
    with_errors: list[Path] = []
    total = 0
    for folder in args.folders:
        if not folder.is_dir():
            print(f"not a folder: {folder}; pass folders that hold kernels", file=sys.stderr)
            return 2
        for path in kernel_files(folder):
            text = path.read_text(encoding="utf-8", errors="replace")
            total += 1
            t0 = time.perf_counter()
            findings = lint_text(text, str(path), settings=settings, catalog=catalog, rules=rules)
            times.append(time.perf_counter() - t0)
            if args.errors and error_nodes(parse(text, str(path))):
                with_errors.append(path)
            for f in findings:
                per_rule[f.code] += 1
                examples[f.code].append((path, f))
    print(f"files checked: {total}; CANN {settings['cann.version']}; rules: {', '.join(r.code for r in rules)}")
    print(f"lint time per file: median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
          if times else "no files")
    print(f"findings: {sum(per_rule.values())}")
    for code in sorted(per_rule):
        print(f"  {code}: {per_rule[code]}")
        for path, f in examples[code][: args.show]:
            print(f"    {path}:{f.span.line}:{f.span.column}: {f.message}")
    if args.errors:
        print(f"files with error nodes after masking: {len(with_errors)}")
        for p in with_errors:
            print(f"    {p}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
