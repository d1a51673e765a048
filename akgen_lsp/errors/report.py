"""The diagnostic report of one error: what a person reads in a hover, and what a model gets as its repair prompt.

`build_report(item, text, path, settings)` takes a `Finding` (what the server has) or an `ErrorBlock` (what
`akgen errors mine` wrote), the document's text and path, and the `Settings` (arch, CANN version), and returns a
`DiagnosticReport`; ``.markdown()`` for prompts and hover, ``.to_json()`` for code. It parses the document (no
compile), reads the catalog (loaded once per process) and, when one exists, the local store of repairs: fast enough
for a code-action resolve.

What it holds: the block (class, tool, code, message, notes, context frames); the faulty line with its numbered
neighbours, its enclosing function and the kernel class members the line touches; the catalog's real signatures,
dtypes on the configured arch, constraints and CANN availability of every Ascend C name in the message or on the
line, with "did you mean" candidates for names that do not exist; the hardware facts of the arch (UB size and usable
bytes, alignment, cores, repeat limits); and similar errors already fixed, found by signature in the repair store.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from akgen_lsp.ascendc.arch import ArchProfile, load_arch
from akgen_lsp.ascendc.catalog import Catalog, Entry, load_catalog
from akgen_lsp.ascendc.syntax import parse, user_defined_names
from akgen_lsp.config import Settings, defaults
from akgen_lsp.error_classes import load_taxonomy
from akgen_lsp.errors.classify import Classifier, close_names
from akgen_lsp.errors.context import CodeContext, code_context
from akgen_lsp.errors.store import Repair, RepairStore, default_path
from akgen_lsp.findings import Finding
from akgen_lsp.logs.blocks import ErrorBlock
from akgen_lsp.logs.findings import block_from_finding

_IDENT = re.compile(r"[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*")
_QUOTED_NAME = re.compile(r"['\u2018`]([A-Za-z_]\w*)['\u2019`]")
_SKIP_KINDS = ("namespace", "enumerator", "variable")
MAX_APIS = 6


@dataclass
class ApiFact:
    name: str
    kind: str
    doc: str
    pipe: str
    signatures: list[str]
    dtypes: list[str]
    constraints: list[str]
    available: bool  # in the targeted CANN version
    supported_on_arch: bool
    since: str | None = None
    removed: str | None = None
    replaced_by: str | None = None
    deprecated: bool = False

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class UnknownName:
    name: str
    suggestions: list[str]
    replacement: str | None = None
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class DiagnosticReport:
    block: ErrorBlock
    error_class: str
    class_title: str
    class_definition: str
    context: CodeContext
    apis: list[ApiFact] = field(default_factory=list)
    unknown: list[UnknownName] = field(default_factory=list)
    hardware: dict[str, Any] = field(default_factory=dict)
    similar: list[Repair] = field(default_factory=list)
    cann_version: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "error_class": self.error_class,
            "class_title": self.class_title,
            "class_definition": self.class_definition,
            "block": self.block.to_json(),
            "context": self.context.to_json(),
            "apis": [a.to_json() for a in self.apis],
            "unknown_names": [u.to_json() for u in self.unknown],
            "hardware": self.hardware,
            "similar": [r.to_json() for r in self.similar],
            "cann_version": self.cann_version,
        }

    def markdown(self, max_similar: int = 2) -> str:
        b, ctx = self.block, self.context
        out = [
            f"## {self.error_class}: {self.class_title}",
            f"`{b.where}` {b.severity}[{b.code or b.tool}] ({b.tool}): {b.message}",
        ]
        if b.count > 1:
            out.append(f"(reported {b.count} times: the same cause at {b.count} places)")
        out.extend(f"> note{f' {n.file}:{n.line}' if n.file else ''}: {n.message}" for n in b.notes[:6])
        out.extend(f"> {c}" for c in b.context[:4])
        out.append(f"\n*{self.class_title}*: {self.class_definition}")
        if ctx.window:
            out.append("\n### Code\n```cpp\n" + ctx.numbered() + "\n```")
            where = []
            if ctx.function:
                lines = (
                    f" (lines {ctx.function_lines[0]}-{ctx.function_lines[1]})" if ctx.function_lines else ""
                )
                where.append(f"In `{ctx.function_signature or ctx.function}`{lines}.")
            if ctx.members:
                where.append(
                    "Members of `"
                    + (ctx.class_name or "the class")
                    + "` on this line: "
                    + ", ".join(f"`{m.name}` (`{m.type}`, line {m.line})" for m in ctx.members)
                    + "."
                )
            if where:
                out.append(" ".join(where))
        if self.unknown:
            out.append("\n### Names that do not exist")
            for u in self.unknown:
                text = f"- `{u.name}`"
                if u.replacement:
                    text += f": use `{u.replacement}`"
                elif u.suggestions:
                    text += ": did you mean " + " or ".join(f"`{s}`" for s in u.suggestions) + "?"
                else:
                    text += ": no close name in the Ascend C API"
                out.append(text + (f" ({u.note})" if u.note else ""))
        if self.apis:
            out.append(f"\n### The real API (CANN {self.cann_version}, {self.hardware.get('arch', '')})")
            for a in self.apis:
                head = f"- `{a.name}` ({a.kind}{', pipe ' + a.pipe if a.pipe not in ('', 'none') else ''})"
                out.append(head + (f": {a.doc}" if a.doc else ""))
                out.extend(f"  - `{s}`" for s in a.signatures[:4])
                if len(a.signatures) > 4:
                    out.append(f"  - ... and {len(a.signatures) - 4} more overloads")
                if a.dtypes:
                    out.append(
                        f"  - dtypes on {self.hardware.get('arch', 'this arch')}: {', '.join(a.dtypes)}"
                    )
                out.extend(f"  - {c}" for c in a.constraints[:3])
                if not a.available:
                    life = [
                        f"since {a.since}" if a.since else "",
                        f"removed in {a.removed}" if a.removed else "",
                    ]
                    use = f"; use `{a.replaced_by}`" if a.replaced_by else ""
                    out.append(
                        f"  - not in CANN {self.cann_version} ({', '.join(x for x in life if x)}){use}"
                    )
                elif a.deprecated:
                    out.append(f"  - deprecated{'; use `' + a.replaced_by + '`' if a.replaced_by else ''}")
                if not a.supported_on_arch:
                    out.append(f"  - not supported on {self.hardware.get('arch', 'this arch')}")
        if self.hardware:
            h = self.hardware
            out.append(
                f"\n### Hardware ({h['arch']})\nUB {h['ub_bytes']} bytes per core ({h['ub_usable_bytes']} "
                f"usable), addresses and DataCopy lengths {h['ub_align']}-byte aligned; {h['aiv_cores']} "
                f"vector and {h['aic_cores']} cube cores; a repeat is {h['repeat_bytes']} bytes, repeatTime "
                f"at most {h['max_repeat']}."
            )
        if self.similar:
            out.append("\n### Similar errors already fixed")
            for r in self.similar[:max_similar]:
                who = ", ".join(x for x in (r.task, r.model, r.provenance) if x)
                out.append(f"- {r.message} ({who})\n```diff\n{_clip(r.diff, 1500)}\n```")
        return "\n".join(out)


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[:n] + "\n... (cut)"


def _hardware(arch: ArchProfile) -> dict[str, Any]:
    return {
        "arch": arch.name,
        "soc": arch.soc,
        "npu_arch": arch.npu_arch,
        "ub_bytes": arch.ub_bytes,
        "ub_usable_bytes": arch.ub_usable_bytes,
        "ub_align": int(arch.alignment.get("ub", 32)),
        "datacopy_align": int(arch.alignment.get("datacopy", 32)),
        "aiv_cores": arch.aiv_cores,
        "aic_cores": arch.aic_cores,
        "repeat_bytes": int(arch.limits.get("repeat_bytes", 256)),
        "max_repeat": int(arch.limits.get("max_repeat", 255)),
        "block_bytes": int(arch.limits.get("block_bytes", 32)),
    }


def _fact(e: Entry, arch: ArchProfile, version: str) -> ApiFact:
    return ApiFact(
        e.name,
        e.kind,
        e.doc,
        e.pipe,
        [o.label() for o in e.overloads],
        list(e.dtypes_for(arch.npu_arch)),
        list(e.constraints),
        e.exists_in(version),
        e.supported_on(arch.npu_arch),
        e.since,
        e.removed,
        e.replaced_by,
        e.deprecated,
    )


def _apis(
    cat: Catalog, block: ErrorBlock, ctx: CodeContext, own: frozenset[str] = frozenset()
) -> tuple[list[Entry], list[str]]:
    """Catalog entries named on the line or in the message (resolved calls first), and names that exist nowhere.
    Names the document defines itself (`own`) and plain C++ types are not the API."""
    found: list[Entry] = []

    def add(e: Entry | None) -> None:
        if e is None or e.kind in _SKIP_KINDS or e in found or e.short in own:
            return
        if e.kind == "type" and "::" not in e.name:
            return  # float, half: the table says nothing a repair needs
        found.append(e)

    for name in ctx.calls:
        add(cat.get(name))
    texts = [ctx.code_line, block.message, *(n.message for n in block.notes[:3])]
    for text in texts:
        for m in _IDENT.finditer(text):
            name = m.group(0)
            if name in cat:
                add(cat.get(name))
                continue
            short = name.rsplit("::", 1)[-1]
            hits = [e for e in cat.lookup(short) if e.kind not in _SKIP_KINDS]
            if len(hits) == 1 or (hits and name.startswith("AscendC::")):
                add(hits[0])
    missing = [
        n
        for n in _QUOTED_NAME.findall(block.message)
        if not cat.lookup(n) and n not in ("AscendC", "std") and n not in own
    ]
    return found[:MAX_APIS], list(dict.fromkeys(missing))


def _unknown(cat: Catalog, names: Sequence[str], found: list[Entry]) -> list[UnknownName]:
    out = []
    for name in names:
        invented = next(iter(cat.invented_short.get(name, ())), None)
        sugg = close_names(cat, name, n=3)
        out.append(
            UnknownName(
                name, sugg, invented.replacement if invented else None, invented.note if invented else ""
            )
        )
        for s in ([invented.replacement] if invented else []) + sugg[:1]:
            e = cat.get(s) or next(iter(cat.lookup(s.rsplit("::", 1)[-1])), None)
            if e is not None and e not in found and len(found) < MAX_APIS:
                found.append(e)
    return out


_CLASSIFIERS: dict[tuple[int, str], Classifier] = {}


def _classifier(cat: Catalog, version: str) -> Classifier:
    got = _CLASSIFIERS.get((id(cat), version))
    if got is None or got.catalog is not cat:
        got = _CLASSIFIERS[(id(cat), version)] = Classifier(cat, version)
    return got


def build_report(
    item: Finding | ErrorBlock,
    text: str,
    path: str,
    settings: Settings | None = None,
    *,
    catalog: Catalog | None = None,
    store: RepairStore | None = None,
    classifier: Classifier | None = None,
    k_similar: int = 3,
    use_store: bool = True,
) -> DiagnosticReport:
    """The diagnostic report of `item` in the document `text` at `path` (see the module docstring). Without a
    `store`, the default repair store is read when it exists (it is never created here); `use_store=False` reads
    none (training prompts must not carry repairs of other kernels)."""
    settings = settings or defaults()
    cat = catalog or load_catalog()
    version = str(settings["cann.version"])
    arch = load_arch(str(settings["arch"]))
    block = item if isinstance(item, ErrorBlock) else block_from_finding(item)
    clf = classifier or _classifier(cat, version)
    cls = clf.classify(block).error_class
    info = load_taxonomy().classes[cls]
    pf = parse(text, path) if text else None
    ctx = (
        code_context(text, path, block.line, cat, parsed=pf)
        if block.line and pf
        else CodeContext(path, 0, "")
    )
    entries, missing = _apis(cat, block, ctx, user_defined_names(pf) if pf else frozenset())
    unknown = _unknown(cat, missing, entries) if missing else []
    if store is None and use_store and default_path().is_file():
        store = RepairStore()
    similar = store.similar(block.signature, k_similar, cls) if store is not None and use_store else []
    return DiagnosticReport(
        block,
        cls,
        info.title,
        info.definition,
        ctx,
        [_fact(e, arch, version) for e in entries],
        unknown,
        _hardware(arch),
        similar,
        version,
    )
