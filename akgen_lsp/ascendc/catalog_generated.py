"""Catalog entries generated from the CANN headers' declarations (``catalog/names/asc_devkit_signatures.tsv``, written
by ``benchmarks/catalog_coverage.py --write``): the functions of the CANN 9.x families that no hand-written entry
describes, with their declarations, so hover, completion and signature help work for them. `generated_facts` gives
the facts of each entry; `akgen_lsp.ascendc.catalog` makes the entries (``extra["generated"]``, no description, pipe
or dtypes). Docs and facts that repeat are one shared object each, since the catalog stays resident in the server."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from akgen_lsp.ascendc.api_facts import PRODUCT_NAME, read_signatures


class GeneratedFacts(NamedTuple):
    name: str
    kind: str  # function | method | class
    doc: str
    header: str
    family: str
    extra: Mapping[str, Any]
    declarations: tuple[tuple[str, str], ...]  # (template head, ``ret name(params)``)


def generated_facts(
    path: Path, hand: set[str], support: Mapping[str, tuple[frozenset[str], frozenset[str]]] | None = None
) -> list[GeneratedFacts]:
    """The facts of an entry for each function of the signatures file that `hand` (the hand-written names) lacks,
    and for each class whose methods these are (``MicroAPI::RegTensor``)."""
    by_name: dict[str, list[tuple[str, ...]]] = {}
    for row in read_signatures(path):
        if row[0] not in hand:
            by_name.setdefault(row[0], []).append(row)
    out: list[GeneratedFacts] = []
    docs: dict[str, str] = {}
    extras: dict[str, dict[str, Any]] = {}  # read-only facts, one dict per arch list
    for name, rows in by_name.items():
        _name, kind, family, archs, header, _t, _s = rows[0]
        # the header is shown beside the doc; the doc texts are a few shared strings
        doc = (
            "Declared in the CANN headers"
            + (", for Ascend 950 only (__NPU_ARCH__ 3510)" if archs == "3510" else "")
            + ". No hand-written description: see the Ascend C API reference."
        )
        # only for global names (asc_*): a short name in a namespace may title another family's page (Simt::Abs)
        documented = (support or {}).get(name) if "::" not in name else None
        if documented and documented[0]:
            doc += (
                " The reference lists it for: "
                + ", ".join(PRODUCT_NAME.get(p, p) for p in sorted(documented[0]))
                + "."
            )
        extra = extras.setdefault(
            archs, {"generated": True, "header_archs": tuple(filter(None, archs.split(",")))}
        )
        out.append(
            GeneratedFacts(
                name,
                kind,
                docs.setdefault(doc, doc),
                sys.intern(header),
                family,
                extra,
                tuple((row[5], row[6]) for row in rows),
            )
        )
    done = hand | set(by_name)
    for cls in sorted({f.name.rsplit("::", 1)[0] for f in out if f.kind == "method"} - done):
        first = next(f for f in out if f.name.rsplit("::", 1)[0] == cls)
        out.append(
            GeneratedFacts(
                cls,
                "class",
                f"A class of the CANN headers ({first.header}).",
                first.header,
                first.family,
                {"generated": True},
                (),
            )
        )
    return out
