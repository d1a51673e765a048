"""Recall of the static synchronisation audit (AKG170-AKG174) on synthesized mutants (target: >= 90%).

    nice python benchmarks/sync_recall.py [--root /work/ext] [--files 200] [--show-missed 10]

Takes kernels with literal ``SetFlag<HardEvent::...>`` / ``WaitFlag`` calls (our fixture
``tests/ascendc/rules/fixtures/sync_good.cpp``, then files of ops-math, ops-nn and asc-devkit's examples, sorted,
at most ``--files``), applies each mutation of `akgen_lsp.errors.mutations.sync.SYNC_OPERATORS` alone (drop a
WaitFlag, drop a SetFlag, flip a pair's HardEvent, an early return between a SetFlag and its WaitFlag, the
``if (i > 0)`` guard of a pipelined loop's previous-tile work made ``if (true)``), lints the
mutant at the original's path, and counts a mutant as caught when an AKG17x finding appears that the original does
not have (compared by code and message, so moved lines do not count). It prints recall per operator, for any
finding and for errors only. False errors on the unmutated corpus are counted by ``benchmarks/lint_corpus.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.ascendc.rules import select_rules
from akgen_lsp.config import defaults
from akgen_lsp.errors.mutations import MutationContext
from akgen_lsp.errors.mutations.sync import SYNC_OPERATORS

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "ascendc" / "rules" / "fixtures" / "sync_good.cpp"


def sources(root: Path, limit: int) -> list[Path]:
    out = [FIXTURE]
    for sub in ("asc-devkit/examples", "ops-math", "ops-nn"):
        found = []
        for dirpath, _dirs, names in os.walk(root / sub):
            for n in names:
                if n.endswith((".cpp", ".h", ".asc", ".hpp")):
                    p = Path(dirpath) / n
                    try:
                        t = p.read_text(encoding="utf-8", errors="replace")
                    except OSError:
                        continue
                    if "SetFlag<HardEvent::" in t.replace("AscendC::", "") and "WaitFlag<" in t:
                        found.append(p)
        out.extend(sorted(found))
    return out[: limit + 1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=Path("/work/ext"))
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--show-missed", type=int, default=10)
    args = ap.parse_args(argv)
    cat = load_catalog()
    settings = defaults()
    rules = select_rules(["AKG17"])
    total: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    caught_err: Counter[str] = Counter()
    missed: list[str] = []
    files = sources(args.root, args.files)
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        # the fixture is linted alone: its folder holds the bad fixture too, which a project index would read
        where = path.name if path == FIXTURE else str(path)
        base = Counter((f.code, f.message) for f in lint_text(text, where, settings, cat, rules))
        ctx = MutationContext(text, where, cat)
        for name, op in SYNC_OPERATORS.items():
            for m in op(ctx):
                total[name] += 1
                after = lint_text(m.apply(text), where, settings, cat, rules)
                new = Counter((f.code, f.message) for f in after) - base
                if new:
                    caught[name] += 1
                    errs = {(f.code, f.message) for f in after if f.severity.value == "error"}
                    if any(k in errs for k in new):
                        caught_err[name] += 1
                else:
                    missed.append(f"{path}:{m.line}: {name}: {m.description}")
    print(f"kernels: {len(files)} (the fixture and files with literal SetFlag/WaitFlag pairs)")
    print(f"{'operator':22} {'mutants':>8} {'caught':>8} {'recall':>8} {'by an error':>12}")
    for name in SYNC_OPERATORS:
        n = total[name]
        if n:
            print(f"{name:22} {n:8} {caught[name]:8} {100 * caught[name] / n:7.1f}% {100 * caught_err[name] / n:11.1f}%")
    n = sum(total.values())
    if n:
        print(f"{'all':22} {n:8} {sum(caught.values()):8} {100 * sum(caught.values()) / n:7.1f}% "
              f"{100 * sum(caught_err.values()) / n:11.1f}%")
    for line in missed[: args.show_missed]:
        print(f"  missed {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
