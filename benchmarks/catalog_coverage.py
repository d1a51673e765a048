"""How much of the Ascend C API that real kernels use is in the catalog.

    python benchmarks/catalog_coverage.py --api-root /work/ref/asc-devkit KERNEL_PATH [KERNEL_PATH ...]

KERNEL_PATH is a kernel file or a folder searched for *.cpp, *.asc and *.h files. With --api-root, unqualified
calls and method calls are counted when the name is declared in that tree's include/ and impl/ headers (so local
helpers of a kernel are not counted); `AscendC::X` references are always counted. Prints the figures and the names
that are missing from the catalog. Reads the given paths only; copies nothing.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from akgen_lsp.ascendc.catalog import Catalog, load_catalog

_QUAL = re.compile(r"\bAscendC::(\w+)(?:::(\w+))?")
_FREE = re.compile(r"(?<![\w.:>])([A-Z]\w*)\s*(?:<[^;(){}]*?>)?\s*\(")
_METHOD = re.compile(r"(?:\.|->)\s*(?:template\s+)?([A-Za-z]\w*)\s*(?:<[^;(){}]*?>)?\s*\(")
_DECL = re.compile(r"__aicore__[^;{()]*?\b([A-Za-z]\w*)\s*\(")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_LOCAL_DEF = re.compile(r"\b([A-Za-z_]\w*)\s*(?:<[^;(){}]*?>)?\s*\([^;{}]*\)\s*(?:const\s*)?(?:noexcept\s*)?(?::[^;{]*)?\{")
_LOCAL_TYPE = re.compile(r"\b(?:class|struct|using|define)\s+([A-Za-z_]\w*)")


def source_files(paths: list[str], suffixes: tuple[str, ...] = (".cpp", ".asc", ".h")) -> list[Path]:
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_file():
            out.append(p)
        elif p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.suffix in suffixes and f.is_file()))
        else:
            print(f"warning: {raw} is neither a file nor a folder; skipped", file=sys.stderr)
    return out


def declared_names(api_root: Path) -> set[str]:
    """Names of functions and methods declared `__aicore__` in the API headers."""
    names: set[str] = set()
    for sub in ("include", "impl"):
        for f in (api_root / sub).rglob("*.h"):
            text = _COMMENT.sub("", f.read_text(encoding="utf-8", errors="replace"))
            names.update(_DECL.findall(text))
    return names


def qualified_present(cat: Catalog, outer: str, inner: str | None) -> bool:
    if inner:
        return f"AscendC::{outer}::{inner}" in cat or cat.member(f"AscendC::{outer}", inner) is not None
    return f"AscendC::{outer}" in cat


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", help="kernel files or folders")
    ap.add_argument("--api-root", type=Path, help="asc-devkit checkout; enables unqualified and method counts")
    ap.add_argument("--show", type=int, default=40, help="how many missing names to list per kind")
    args = ap.parse_args(argv)
    cat = load_catalog()
    files = source_files(args.paths)
    if not files:
        print("no kernel sources found under the given paths", file=sys.stderr)
        return 2
    declared = declared_names(args.api_root) if args.api_root else None
    member_shorts = {e.short for e in cat if e.kind in ("method", "variable") and e.parent}
    qual: Counter[tuple[str, str | None]] = Counter()
    free: Counter[str] = Counter()
    meth: Counter[str] = Counter()
    for f in files:
        text = _COMMENT.sub("", f.read_text(encoding="utf-8", errors="replace"))
        for m in _QUAL.finditer(text):
            qual[(m.group(1), m.group(2))] += 1
        if declared is not None:
            local = set(_LOCAL_DEF.findall(text)) | set(_LOCAL_TYPE.findall(text))
            for m in _FREE.finditer(text):
                if m.group(1) in declared and m.group(1) not in local:
                    free[m.group(1)] += 1
            for m in _METHOD.finditer(text):
                if m.group(1) in declared and m.group(1) not in local:
                    meth[m.group(1)] += 1
    rows = []
    miss_q = sorted((f"AscendC::{o}" + (f"::{i}" if i else ""), n) for (o, i), n in qual.items() if not qualified_present(cat, o, i))
    rows.append(("AscendC:: references", len(qual), sum(qual.values()), miss_q))
    if declared is not None:
        miss_f = sorted((n, c) for n, c in free.items() if not cat.lookup(n) and n not in cat)
        rows.append(("unqualified API calls", len(free), sum(free.values()), miss_f))
        miss_m = sorted((n, c) for n, c in meth.items() if n not in member_shorts)
        rows.append(("API method calls", len(meth), sum(meth.values()), miss_m))
    print(f"catalog entries: {len(cat)}; kernel files: {len(files)}")
    for label, distinct, uses, missing in rows:
        missed_uses = sum(n for _, n in missing)
        print(f"{label}: {distinct - len(missing)}/{distinct} distinct names present "
              f"({100.0 * (distinct - len(missing)) / max(distinct, 1):.1f}%), "
              f"{uses - missed_uses}/{uses} uses ({100.0 * (uses - missed_uses) / max(uses, 1):.1f}%)")
        for name, n in missing[: args.show]:
            print(f"    missing: {name} ({n})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
