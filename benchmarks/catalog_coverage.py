"""How much of the newest Ascend C headers' public API the catalog knows (target: >= 98%).

    python benchmarks/catalog_coverage.py [--devkit /work/ext/asc-devkit] [--write] [--missing N]

Reads asc-devkit's headers with `akgen_lsp.ascendc.header_tree.read_tree` (names, kinds, namespaces, archs, the
argument counts of functions; no header text) and counts the public names: everything declared under ``include/``
(basic_api, adv_api, c_api, simt_api, tensor_api, utils, ...) plus, from ``impl/``, the type aliases, enums and
enumerators of the Ascend C namespaces (``using`` aliases such as ``MicroAPI = Reg``, ``RoundMode::CAST_HYBRID``).
A name is known when the hand-written catalog has an entry for it or the generated names file
(``akgen_lsp/ascendc/catalog/names/asc_devkit.tsv``) lists it. It prints the share per family, for the hand-written
entries alone and with the names file, and the first ``--missing`` unknown names.

``--write`` (re)generates the names file from this reading: one line per name of ``include/`` and ``impl/``
(tab-separated: name, kind, family, archs, argument counts, bases, header). Run it when asc-devkit moves on.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from akgen_lsp.ascendc.api_facts import read_doc_support, write_signatures, write_support
from akgen_lsp.ascendc.catalog import NAMES_FILE, SIGNATURES_FILE, SUPPORT_FILE, load_catalog
from akgen_lsp.ascendc.header_names import NameFact
from akgen_lsp.ascendc.header_tree import read_tree, signature_rows, write_names

PUBLIC_IMPL_KINDS = {"type", "enum", "enumerator", "namespace"}


def public(fact: NameFact) -> bool:
    if fact.family != "impl":
        return True
    return fact.kind in PUBLIC_IMPL_KINDS and fact.name.startswith("AscendC::")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--devkit", type=Path, default=Path("/work/ext/asc-devkit"))
    ap.add_argument("--write", action="store_true", help=f"regenerate {NAMES_FILE}")
    ap.add_argument("--missing", type=int, default=30)
    args = ap.parse_args(argv)
    if not (args.devkit / "include").is_dir():
        print(f"no asc-devkit checkout at {args.devkit}: pass --devkit", file=sys.stderr)
        return 2
    facts = read_tree(args.devkit)
    if args.write:
        write_names(facts.values(), NAMES_FILE, f"asc-devkit at {args.devkit}")
        print(f"wrote {len(facts)} names to {NAMES_FILE}")
        rows = list(signature_rows(facts.values()))
        write_signatures(rows, SIGNATURES_FILE, f"asc-devkit at {args.devkit}")
        print(f"wrote {len(rows)} declarations of the CANN 9.x families to {SIGNATURES_FILE}")
        support = read_doc_support(args.devkit / "docs" / "zh" / "api")
        write_support(support, SUPPORT_FILE, f"asc-devkit at {args.devkit} (docs/zh/api)")
        print(f"wrote the product support of {len(support)} documented names to {SUPPORT_FILE}")
        load_catalog.cache_clear()
    cat = load_catalog()
    names = cat.names
    total: Counter[str] = Counter()
    hand: Counter[str] = Counter()
    known: Counter[str] = Counter()
    missing: list[str] = []
    for fact in facts.values():
        if not public(fact):
            continue
        fam = fact.family
        total[fam] += 1
        in_hand = fact.name in cat and not cat.get(fact.name).extra.get("generated")  # type: ignore[union-attr]
        hand[fam] += in_hand
        ok = in_hand or fact.name in names
        known[fam] += ok
        if not ok:
            missing.append(f"{fact.name} ({fact.kind}, {fact.header})")
    print(f"public names in {args.devkit}: {sum(total.values())}")
    print(f"{'family':12} {'names':>7} {'hand-written':>13} {'with names file':>16}")
    for fam in sorted(total):
        print(f"{fam:12} {total[fam]:7} {100 * hand[fam] / total[fam]:12.1f}% {100 * known[fam] / total[fam]:15.1f}%")
    t = sum(total.values())
    print(f"{'all':12} {t:7} {100 * sum(hand.values()) / t:12.1f}% {100 * sum(known.values()) / t:15.1f}%")
    if missing:
        print(f"unknown ({len(missing)}), the first {min(args.missing, len(missing))}:")
        for m in missing[: args.missing]:
            print(f"  {m}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
