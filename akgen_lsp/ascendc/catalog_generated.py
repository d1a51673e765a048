"""Catalog entries generated from the CANN headers' declarations (``catalog/names/asc_devkit_signatures.tsv``, written
by ``benchmarks/catalog_coverage.py --write``): the functions of the CANN 9.x families that no hand-written entry
describes, with their declarations, so hover, completion and signature help work for them. `generated_facts` gives
the facts of each entry; `akgen_lsp.ascendc.catalog` makes the entries (``extra["generated"]``, no description, pipe
or dtypes). Docs and facts that repeat are one shared object each, since the catalog stays resident in the server."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, overload

from akgen_lsp.ascendc.api_facts import PRODUCT_NAME, read_signatures


class GeneratedFacts(NamedTuple):
    name: str
    kind: str  # function | method | class
    doc: str
    header: str
    family: str
    extra: Mapping[str, Any]
    declarations: tuple[tuple[str, str], ...]  # (template head, ``ret name(params)``)


# (template head, declaration) -> its parsed overload (None: it does not parse), shared by every entry that has it
_PARSED: dict[tuple[str, str], Any] = {}


class LazyOverloads(Sequence[Any]):
    """A generated entry's overloads, parsed from its declarations on first use (hover, signature help, completion
    or an arity check of a call to that name) and shared by every entry with the same declaration (Reg and
    MicroAPI). Parsed at load, the 5,290 declarations cost the server about 5 MB, and a session uses few of them.
    Pickled (the catalog's cache) as the declarations alone. `parse`: catalog.py's ``parse_signature`` (a
    declaration that does not parse, a ValueError, is left out)."""

    __slots__ = ("_parsed", "declarations", "parse")

    def __init__(self, declarations: tuple[tuple[str, str], ...], parse: Callable[..., Any]) -> None:
        self.declarations = declarations
        self.parse = parse
        self._parsed: tuple[Any, ...] | None = None

    def _all(self) -> tuple[Any, ...]:
        if self._parsed is None:
            for key in self.declarations:
                if key not in _PARSED:
                    try:
                        _PARSED[key] = self.parse(key[1], template=key[0])
                    except ValueError:
                        _PARSED[key] = None
            self._parsed = tuple(ov for key in self.declarations if (ov := _PARSED[key]) is not None)
        return self._parsed

    def __len__(self) -> int:
        return len(self._all())

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Any, ...]: ...
    def __getitem__(self, index: int | slice) -> Any:
        return self._all()[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LazyOverloads({len(self.declarations)} declarations)"

    def __reduce__(self) -> tuple[Any, ...]:
        return (LazyOverloads, (self.declarations, self.parse))


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
