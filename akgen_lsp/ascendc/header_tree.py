"""An Ascend C header tree read as one set of name facts, and the generated names files written from it.

`read_tree(root)` runs `header_names.scan` over every header of asc-devkit's ``include/`` and ``impl/`` (or any tree
laid out the same way), each with its family (the folder under ``include/``: ``basic_api``, ``adv_api``, ``c_api``,
``simt_api``, ``tensor_api``, ...; ``impl`` for ``impl/``) and the archs of its ``dav_<arch>/`` folders, and merges the
facts by qualified name (archs joined; a namespace alias such as ``MicroAPI = Reg`` names the same functions).
`write_names` writes ``catalog/names/asc_devkit.tsv`` from that reading and `signature_rows` the rows of
``asc_devkit_signatures.tsv`` (the CANN 9.x families' declarations); ``benchmarks/catalog_coverage.py --write`` runs
both.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from akgen_lsp.ascendc.header_names import NameFact, scan

ARCH_DIRS = {
    "dav_3510": "3510",
    "dav_c220": "2201",
    "dav_m200": "2002",
    "dav_c100": "1001",
    "dav_m300": "3002",
    "dav_m310": "3102",
    "dav_l300": "3003",
    "dav_l311": "3113",
    "dav_m510": "5102",
}


def family_of(rel: Path) -> str:
    parts = rel.parts
    if parts[0] == "include" and len(parts) > 2:
        return parts[1]
    if parts[0] == "include":
        return "basic_api"
    return "impl"


def read_tree(root: Path) -> dict[str, NameFact]:
    """Every name of ``root/include`` and ``root/impl``, merged by qualified name (archs joined; a name seen
    without an arch anywhere is available on every arch)."""
    merged: dict[str, NameFact] = {}
    everywhere: set[str] = set()
    for sub in ("include", "impl"):
        base = root / sub
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            if path.suffix not in (".h", ".hpp", ".inc") or not path.is_file():
                continue
            rel = path.relative_to(root)
            file_archs = {ARCH_DIRS[p] for p in rel.parts if p in ARCH_DIRS}
            text = path.read_text(encoding="utf-8", errors="replace")
            for fact in scan(text, family_of(rel), str(rel), file_archs):
                old = merged.get(fact.name)
                if not fact.archs:
                    everywhere.add(fact.name)
                if old is None:
                    merged[fact.name] = fact
                else:
                    old.archs |= fact.archs
                    if old.family == "impl" and fact.family != "impl":
                        # the public declaration's argument counts, not those of internal overloads
                        old.family, old.header, old.arities = fact.family, fact.header, set(fact.arities)
                        old.signatures = set(fact.signatures)
                    elif (old.family == "impl") == (fact.family == "impl"):
                        old.arities |= fact.arities
                        old.signatures |= fact.signatures
    for name in everywhere:
        merged[name].archs = set()
    for alias in [f for f in merged.values() if f.kind == "namespace" and f.alias]:
        target = (
            alias.alias
            if "::" in alias.alias
            else f"{alias.name.rpartition('::')[0]}::{alias.alias}".lstrip(":")
        )
        prefix = target + "::"
        for f in list(merged.values()):
            if f.name.startswith(prefix):
                name = alias.name + "::" + f.name[len(prefix) :]
                merged.setdefault(
                    name,
                    NameFact(
                        name,
                        f.kind,
                        f.family,
                        set(f.archs),
                        f.header,
                        set(f.arities),
                        signatures=set(f.signatures),
                    ),
                )
    return merged


NEW_FAMILIES = ("c_api", "simt_api", "tensor_api")  # CANN 9.x; with the register API (below)
_REG = ("AscendC::MicroAPI::", "AscendC::Reg::")


def in_new_families(fact: NameFact) -> bool:
    """A name of the CANN 9.x families: Reg/MicroAPI, SIMT, the C API ``asc_*``, the Tensor API."""
    return fact.family in NEW_FAMILIES or (fact.family != "impl" and fact.name.startswith(_REG))


def signature_rows(facts: Iterable[NameFact]) -> Iterator[tuple[str, ...]]:
    """The rows of `api_facts.write_signatures` for the functions of the CANN 9.x families."""
    for f in facts:
        if (
            f.kind in ("function", "method")
            and in_new_families(f)
            and not f.name.startswith("_")
            and (f.name.startswith("AscendC::") or "::" not in f.name)
        ):
            for template, sig in f.signatures:
                yield (
                    f.name,
                    f.kind,
                    f.family,
                    ",".join(sorted(f.archs)),
                    f.header.removeprefix("include/"),
                    template,
                    sig,
                )


def write_names(facts: Iterable[NameFact], path: Path, source: str) -> None:
    """The names file: a comment head, then one tab-separated line per name (see `akgen_lsp.ascendc.catalog`)."""
    lines = [
        "# Generated by benchmarks/catalog_coverage.py --write from the headers of " + source + ".",
        "# Facts only: name, kind, family, archs (__NPU_ARCH__ values; empty: all), argument counts (min-max, * for",
        "# variadic), bases (classes), header. Do not edit by hand; the hand-written catalog/*.toml entries win.",
    ]
    for f in sorted(facts, key=lambda f: f.name):
        ar = ";".join(f"{lo}-{'*' if hi < 0 else hi}" for lo, hi in sorted(f.arities))
        header = (
            "" if f.family == "impl" else f.header.removeprefix("include/")
        )  # impl/: many, and not the API
        lines.append(
            "\t".join(
                (f.name, f.kind, f.family, ",".join(sorted(f.archs)), ar, ",".join(sorted(f.bases)), header)
            )
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
