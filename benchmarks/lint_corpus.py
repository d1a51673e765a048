"""The static checker over production AscendC code: files, findings per rule, time per file, every error judged.

    nice python benchmarks/lint_corpus.py [--root /work/ext] [--extra DIR ...] [--per-repo N] [--json out.json]

Collects every AscendC kernel file (`is_ascendc`: ``.asc``, or C++ that includes an Ascend C header or uses
``__aicore__``) under the ``op_kernel`` folders of ops-math and ops-nn (not their ``tests/`` folders: host-side unit tests),
under asc-devkit's ``examples``, the contest kernels of NPUKernelBench's ``tasks``, MultiKernelBench and
cann-bench, and under each ``--extra`` folder, and lints each in this one process with the settings the
CLI uses (the CANN version and arch are read from the project, as `akgen check` does). It prints the number of
files, findings per rule and severity, time per file (median, p90, max), and every error with its judgement from
``benchmarks/lint_corpus_judgements.toml``: ``TRUE`` (a real bug), ``FALSE`` (the checker is wrong), or ``NEW``
(not judged yet: read the code and CANN's headers, then add a judgement). A judgement is keyed by the file (relative
to ``--root``), the rule and a hash of the error line's stripped text, so it survives lines moving.

The figures the issue tracks: false errors (target 0) and true errors kept. ``--per-repo N`` lints the first N
files of each repository (sorted paths), for a quick run; ``--grep Flag --select AKG17`` lints only the files
that mention the string, with only the named rules.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.ascendc.lint import is_ascendc, lint_text
from akgen_lsp.ascendc.rules import select_rules
from akgen_lsp.config import defaults

HERE = Path(__file__).resolve().parent
JUDGEMENTS = HERE / "lint_corpus_judgements.toml"
SOURCES = (("ops-math", "op_kernel"), ("ops-nn", "op_kernel"), ("asc-devkit/examples", ""),
           ("NPUKernelBench/tasks", ""), ("MultiKernelBench", ""), ("cann-bench", ""))
SUFFIXES = {".cpp", ".cc", ".h", ".hpp", ".asc", ".cce"}


def collect(root: Path, extra: list[Path], per_repo: int | None) -> list[tuple[str, Path]]:
    """(group, path) of every AscendC kernel file, sorted within each group."""
    settings = defaults()
    out: list[tuple[str, Path]] = []
    groups = [(name, root / name, part) for name, part in SOURCES] + [(str(p), p, "") for p in extra]
    for name, base, part in groups:
        if not base.is_dir():
            print(f"note: {base} is missing; skipped", file=sys.stderr)
            continue
        files = []
        for dirpath, dirs, names in os.walk(base):
            dirs[:] = [d for d in dirs if d != "tests"]  # the operators' host-side unit tests are not kernels
            if part and part not in Path(dirpath).parts:
                continue
            for n in names:
                p = Path(dirpath) / n
                if p.suffix.lower() in SUFFIXES and is_ascendc(p, None, settings):
                    files.append(p)
        files.sort()
        if per_repo:
            files = files[:per_repo]
        out.extend((name, p) for p in files)
    return out


def line_hash(text: str, line: int) -> str:
    lines = text.splitlines()
    src = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return hashlib.sha1(src.encode()).hexdigest()[:12]


def load_judgements(path: Path = JUDGEMENTS) -> dict[tuple[str, str, str], tuple[bool, str]]:
    if not path.is_file():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {(j["file"], j["rule"], j["hash"]): (bool(j["true"]), j.get("reason", "")) for j in data.get("judgement", ())}


def rel(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=Path("/work/ext"))
    ap.add_argument("--extra", type=Path, action="append", default=[], help="another folder of kernels")
    ap.add_argument("--per-repo", type=int, default=None)
    ap.add_argument("--json", type=Path, default=None, help="write every finding here")
    ap.add_argument("--show-warnings", action="store_true", help="list warnings too, not only errors")
    ap.add_argument("--grep", default=None, help="lint only the files whose text contains this string")
    ap.add_argument("--select", default=None, help="only these rules (comma-separated code prefixes)")
    args = ap.parse_args(argv)

    files = collect(args.root, args.extra, args.per_repo)
    catalog = load_catalog()
    settings = defaults()
    judged = load_judgements()
    per_rule: Counter[tuple[str, str]] = Counter()
    per_group: Counter[str] = Counter()
    times: list[float] = []
    errors: list[dict[str, object]] = []
    every: list[dict[str, object]] = []
    crashed: list[str] = []
    rules = select_rules(args.select.split(",")) if args.select else None
    for group, path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        if args.grep and args.grep not in text:
            continue
        per_group[group] += 1
        t0 = time.perf_counter()
        try:
            findings = lint_text(text, str(path), settings, catalog, rules)
        except Exception as exc:  # the benchmark reports a crash and goes on
            crashed.append(f"{rel(path, args.root)}: {type(exc).__name__}: {exc}")
            continue
        times.append((time.perf_counter() - t0) * 1000)
        for f in findings:
            per_rule[(f.code, f.severity.value)] += 1
            item = {"file": rel(path, args.root), "rule": f.code, "severity": f.severity.value, "line": f.span.line,
                    "message": f.message, "hash": line_hash(text, f.span.line)}
            every.append(item)
            if f.severity.value == "error" or args.show_warnings:
                errors.append(item)

    print(f"files: {len(times)} linted ({', '.join(f'{g}: {n}' for g, n in per_group.items())}); crashes: {len(crashed)}")
    for c in crashed:
        print(f"  CRASH {c}")
    if times:
        ts = sorted(times)
        p90 = ts[min(len(ts) - 1, int(0.9 * len(ts)))]
        print(f"time per file: median {statistics.median(ts):.1f} ms, p90 {p90:.1f} ms, max {ts[-1]:.1f} ms, "
              f"total {sum(ts) / 1000:.1f} s (load average {os.getloadavg()[0]:.2f})")
    print("findings per rule:")
    for (code, sev), n in sorted(per_rule.items()):
        print(f"  {code} {sev:8} {n}")
    verdicts: Counter[str] = Counter()
    print("errors:" if not args.show_warnings else "errors and warnings:")
    for e in errors:
        key = (str(e["file"]), str(e["rule"]), str(e["hash"]))
        if key in judged:
            ok, reason = judged[key]
            tag = "TRUE " if ok else "FALSE"
        else:
            tag, reason = "NEW  ", ""
        if e["severity"] == "error":
            verdicts[tag.strip()] += 1
        print(f"  {tag} {e['file']}:{e['line']}: {e['rule']} {e['message']}  [hash {e['hash']}]")
        if reason:
            print(f"        judged: {reason}")
    n_err = sum(verdicts.values())
    print(f"errors: {n_err}; judged true {verdicts['TRUE']}, judged false {verdicts['FALSE']}, "
          f"not judged {verdicts['NEW']}")
    if args.json:
        args.json.write_text(json.dumps(every, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
