"""Error blocks -> taxonomy classes (akgen_lsp/error_classes.toml), with the API catalog where the message alone
cannot tell.

In order: a code whose class the table fixes (lint, simulator and bench codes); an NPU runtime block by what its
report says (the errorStr), else its code's class; a message by the table's message rules, then refined:
- a name the compiler did not find (``no member named 'X'``, ``'X' is not a member of 'AscendC'``, ``'X' was not
  declared``) is ``renamed_api`` when the catalog has it in another CANN version (``since`` / ``removed`` /
  ``replaced_by``), ``api_mismatch`` when it is a real API of another class, ``hallucinated_api`` when the catalog
  lists it as invented or has only names close to it, or when it is called like an Ascend C API (a capitalised name
  with a LocalTensor argument, read from the file) and the file defines nothing of that name; ``scope`` otherwise
  (the kernel's own variable);
- ``no matching function`` whose candidates failed on the element type (``deduced conflicting types``, ``no known
  conversion ... LocalTensor<half> ... LocalTensor<float>``) is ``dtype``;
then the producer's class, then the default of the code or tool. `Classification.reason` says which step decided.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from akgen_lsp.ascendc.catalog import Catalog, load_catalog, parse_version
from akgen_lsp.ascendc.rules.akg103_cann_version import since_of
from akgen_lsp.error_classes import Taxonomy, load_taxonomy
from akgen_lsp.logs.blocks import ErrorBlock

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "`": "'"})
_NOT_FOUND = re.compile(
    r"no (?:member|template|type) named '(?P<a>\w+)'|'(?P<b>\w+)' is not a member of|"
    r"has no member named '(?P<c>\w+)'|'(?P<d>\w+)' was not declared|use of undeclared identifier "
    r"'(?P<e>\w+)'|unknown type name '(?P<f>\w+)'|'(?P<g>\w+)' (?:does not name a type|has not "
    r"been declared)|undefined (?:reference to|symbol:?) '(?:AscendC::)?(?P<h>\w+)|there are no arguments to "
    r"'(?P<i>\w+)' that depend on a template parameter"
)
_ELEMENT = re.compile(
    r"\b(_Float16|__bf16|half|float|bfloat16_t|float16_t|int8_t|uint8_t|int16_t|uint16_t|int32_t|uint32_t|int64_t|"
    r"uint64_t|long int|unsigned int|short int|signed char|unsigned char|int|double)\b"
)
_DEFAULT_BY_TOOL = {
    "gcc": "api_mismatch",
    "clang": "api_mismatch",
    "bisheng": "api_mismatch",
    "cmake": "harness",
    "make": "harness",
    "ninja": "harness",
    "build.sh": "harness",
    "msopgen": "harness",
    "ld": "scope",
    "npu-runtime": "runtime",
    "sim": "runtime",
    "bench": "harness",
    "lint": "api_mismatch",
}


_NAMES: dict[int, tuple[Catalog, list[str]]] = {}


def api_names(catalog: Catalog) -> list[str]:
    """The short names of the catalog's entries (sorted), computed once per catalog."""
    got = _NAMES.get(id(catalog))
    if got is None or got[0] is not catalog:
        got = _NAMES[id(catalog)] = (catalog, sorted({e.short for e in catalog if e.kind != "namespace"}))
    return got[1]


def close_names(catalog: Catalog, name: str, n: int = 3) -> list[str]:
    """ "Did you mean" candidates for `name` among the catalog's names: those of a similar length first (a typo keeps
    the length within three characters), the whole list only when none is close."""
    pool = api_names(catalog)
    near = [p for p in pool if abs(len(p) - len(name)) <= 3]
    return catalog.suggest(name, near, n=n) or catalog.suggest(name, pool, n=n)


@dataclass(frozen=True)
class Classification:
    error_class: str
    reason: str


class Classifier:
    """Classifies blocks; holds the catalog and the taxonomy (load once, classify many)."""

    def __init__(
        self, catalog: Catalog | None = None, cann_version: str = "8.5", taxonomy: Taxonomy | None = None
    ) -> None:
        self.catalog = catalog or load_catalog()
        self.taxonomy = taxonomy or load_taxonomy()
        self.cann_version = cann_version
        self._shorts = api_names(self.catalog)

    def classify(self, block: ErrorBlock) -> Classification:
        tax = self.taxonomy
        code = block.code or ""
        fixed = tax.for_code(code) if code else None
        if fixed is not None:
            if code in ("SIM-UB-OOB", "SIM-MEM-OOB") and _outside_memory(block.message):
                return Classification(
                    "memory",
                    f"code {code}: the tensor lies past the end of the memory, so "
                    "its buffer was placed beyond the budget",
                )
            return Classification(fixed, f"code {code}")
        if block.tool == "npu-runtime":
            detail = " ".join(str(block.extra.get(k, "")) for k in ("error_str", "exception"))
            by_detail = tax.for_message(detail) if detail.strip() else None
            if by_detail is not None and by_detail != "runtime":
                return Classification(by_detail, "NPU report errorStr")
            return Classification(tax.resolve(block.error_class) or "runtime", f"NPU code {code}")
        message = block.message.translate(_QUOTES)
        by_message = tax.for_message(message)
        if by_message is not None:
            refined = self._refine(by_message, message, block)
            return refined or Classification(by_message, "message rule")
        given = tax.resolve(block.error_class)
        if given is not None:
            return Classification(given, "producer's class")
        default = tax.default_for(code) if code else None
        return Classification(default or _DEFAULT_BY_TOOL.get(block.tool, "api_mismatch"), "default")

    def classify_all(self, blocks: Iterable[ErrorBlock]) -> list[ErrorBlock]:
        """Sets `error_class` on each block (and `extra["class_reason"]`); returns the blocks."""
        out = []
        for b in blocks:
            c = self.classify(b)
            b.error_class = c.error_class
            b.extra["class_reason"] = c.reason
            out.append(b)
        return out

    # ------------------------------------------------------------------------------------------- refinements

    def _refine(self, cls: str, message: str, block: ErrorBlock) -> Classification | None:
        m = _NOT_FOUND.search(message)
        if m is not None and cls in ("hallucinated_api", "scope", "api_mismatch", "renamed_api"):
            name = next(g for g in m.groups() if g)
            return self._unknown_name(cls, name, message, block)
        if cls == "api_mismatch" and "no matching" in message:
            notes = " ".join(n.message.translate(_QUOTES) for n in block.notes)
            if _dtype_mismatch(message, notes):
                return Classification("dtype", "candidates failed on the element type")
        return None

    def _unknown_name(
        self, cls: str, name: str, message: str, block: ErrorBlock | None = None
    ) -> Classification:
        cat = self.catalog
        entries = [e for e in cat.lookup(name) if e.kind != "namespace"]
        version = parse_version(self.cann_version)
        versioned = [e for e in entries if e.removed or e.replaced_by or e.deprecated or since_of(cat, e)]
        in_ascendc = "AscendC" in message
        if versioned and (in_ascendc or cls != "scope"):
            return Classification("renamed_api", f"catalog: {name} exists only in some CANN versions")
        if entries:
            if any(e.exists_in(self.cann_version) for e in entries) and not in_ascendc and cls == "scope":
                return Classification("scope", f"catalog: {name} is a real API used where it is not visible")
            if any(parse_version(since_of(cat, e) or "0") > version for e in entries):
                return Classification("renamed_api", f"catalog: {name} is not in CANN {self.cann_version}")
            return Classification(
                "api_mismatch", f"catalog: {name} is a real API, not of this class or scope"
            )
        if cat.invented_short.get(name):
            return Classification("hallucinated_api", f"catalog: {name} is a known invented name")
        if in_ascendc or cls == "hallucinated_api":
            return Classification("hallucinated_api", f"catalog: no API named {name}")
        if name[:1].isupper() and close_names(cat, name, n=1):
            return Classification("hallucinated_api", f"catalog: {name} is close to a real API name")
        if (
            block is not None
            and name[:1].isupper()
            and name not in cat.names_by_short
            and _api_like_call(name, block)
        ):
            return Classification(
                "hallucinated_api",
                f"{name} is called like an Ascend C API (on LocalTensor "
                "arguments), defined nowhere in the file and not in the catalog",
            )
        return Classification(cls, "message rule")


def _read_unit(block: ErrorBlock) -> str:
    """The text of the file the block points at (its translation unit as far as this machine has it), or ""."""
    if not block.file:
        return ""
    try:
        from pathlib import Path

        return Path(block.file).read_text(encoding="utf-8", errors="replace")[:1_000_000]
    except (OSError, ValueError):
        return ""


def _api_like_call(name: str, block: ErrorBlock) -> bool:
    """Whether `name` is called, at the block's line, with an argument that is a LocalTensor (declared so in the
    file, or taken from a queue or buffer), and the file defines no function, macro or type of that name."""
    unit = _read_unit(block)
    line = block.source_line or ""
    if not line and unit and block.line:
        lines = unit.splitlines()
        line = lines[block.line - 1] if 0 < block.line <= len(lines) else ""
    text = "\n".join((line, *block.context))
    m = re.search(rf"\b{re.escape(name)}\s*(?:<[^;()]*>)?\s*\(([^;]*)\)", text)
    if m is None:
        return False
    n = re.escape(name)
    if unit and re.search(
        rf"#\s*define\s+{n}\b|\b(?:class|struct|using|typedef)\s+{n}\b|"
        rf"\b{n}\s*(?:<[^;(){{}}]*>)?\s*\([^;{{}})]*\)\s*(?:const\s*)?\{{",
        unit,
    ):
        return False  # the unit defines it (a helper of the kernel's own)
    args = set(re.findall(r"[A-Za-z_]\w*", m.group(1)))
    for a in args:
        if unit and re.search(
            rf"LocalTensor\s*<[^;>]*>\s*&?\s*{a}\b|\b{a}\s*=\s*[\w.\->\[\]]*"
            r"(?:AllocTensor|DeQue|Get)\s*<",
            unit,
        ):
            return True
        if not unit and re.fullmatch(r"\w*(?:Local|LocalTensor|Ub|UB)\d*", a):
            return True
    return False


_AT_OFFSET = re.compile(
    r"at (?:UB|L1|L0A|L0B|L0C|BT) offset (\d+)[^;]*?;\s*(?:UB|L1|L0A|L0B|L0C|BT) has (\d+) bytes"
)


def _outside_memory(message: str) -> bool:
    """An out-of-bounds access whose tensor starts at or past the end of the memory: not an index off by some
    elements but a buffer handed out beyond the memory (InitBuffer past the UB budget)."""
    m = _AT_OFFSET.search(message)
    return m is not None and int(m.group(1)) >= int(m.group(2))


_CONFLICT = re.compile(r"deduced conflicting types for parameter '\w+' \('([^']+)' (?:and|vs\.) '([^']+)'\)")
_CONVERSION = re.compile(
    r"(?:no known conversion for argument \d+|cannot convert) from '[^']*?Tensor<([^<>']+)>[^']*' "
    r"to '[^']*?Tensor<([^<>']+)>"
)


def _dtype_mismatch(message: str, notes: str) -> bool:
    """Whether a candidate of the call failed on an element type (LocalTensor<half> where LocalTensor<float> is
    needed, T deduced as both half and float), not on the number or kind of the arguments."""
    text = message + " " + notes
    for rx in (_CONFLICT, _CONVERSION):
        for a, b in rx.findall(text):
            if a.strip() != b.strip() and (_ELEMENT.search(a) or _ELEMENT.search(b)):
                return True
    return False
