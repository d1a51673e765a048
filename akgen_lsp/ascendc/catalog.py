"""The Ascend C API catalog: versioned data files describing the API as it really is, loaded once.

The data lives in ``akgen_lsp/ascendc/catalog/*.toml`` (one file per family). Each file has a ``[meta]`` table
(``schema = 1``, ``family``, ``sources``: where the facts were read) and ``[[entry]]`` tables::

    [[entry]]
    name = "AscendC::Add"                 # qualified name; methods are AscendC::Class::Method
    kind = "function"                     # class | method | function | macro | enum | type | variable | enumerator
    pipe = "V"                            # S | V | M | MTE1 | MTE2 | MTE3 | FIX | none
    header = "basic_api/kernel_operator_vec_binary_intf.h"
    doc = "dst = src0 + src1, element by element."
    since = "5.0"                         # optional: first CANN version that has it
    removed = "9.1"                       # optional: first CANN version that no longer has it under this name
    replaced_by = "AscendC::ReduceRepeat" # optional: the name to use from `removed` on (or the older name)
    deprecated = false                    # optional: still compiles but the vendor says use replaced_by
    archs = ["2201"]                      # optional: the only __NPU_ARCH__ values that support it (Entry.supported_on)
    constraints = ["count * sizeof(T) ..."]
    bases = ["AscendC::TQueBind"]         # classes only
    template = "template <typename T>"    # classes: the class template header
    dtypes = { "2201" = ["half", "float", "int16_t", "int32_t"], "2002" = ["half", "float"] }
      [[entry.overload]]
      form = "count"                      # count | mask_repeat | mask_bits | scalar | operator | params | ... (free text)
      template = "template <typename T>"  # optional
      signature = "void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count)"

Keys outside the schema are kept in ``Entry.extra``; the bundled files use: ``type`` and ``default`` (struct fields and
constants, kind ``variable``), ``archs`` (see above), ``side = "host"`` (host-side tiling helpers), ``pipe_by_direction``
(DataCopy: the pipe per direction, e.g. ``ub_to_gm = "MTE3"``), ``conversions`` (Cast: ``"src->dst"`` pairs per arch)
and ``operator`` (the LocalTensor operator spelling of a vector op, e.g. ``"dst = src0 + src1"``).
Overload forms beginning with ``3510-only`` exist only for Ascend 950 (``__NPU_ARCH__`` 3510).

and ``[[invented]]`` tables for names that models invent::

    [[invented]]
    name = "AscendC::Softmax"
    replacement = "AscendC::SoftMax"
    certain = true                        # a single deterministic rename
    note = "SoftMax (capital M) also takes a SoftMaxTiling argument."
    # negate = 2                          # the replacement takes that argument negated (Subs -> Adds)

Hardware profiles are in ``catalog/arch/`` and are read by `akgen_lsp.ascendc.arch`.
"""

from __future__ import annotations

import difflib
import functools
import gc
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.ascendc.api_facts import read_support
from akgen_lsp.ascendc.catalog_generated import LazyOverloads, generated_facts
from akgen_lsp.ascendc.commas import split_top_level  # re-exported: completion reads it here

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CATALOG_DIR = Path(__file__).with_name("catalog")
NAMES_FILE = CATALOG_DIR / "names" / "asc_devkit.tsv"
SUPPORT_FILE = CATALOG_DIR / "names" / "asc_devkit_support.tsv"
SIGNATURES_FILE = CATALOG_DIR / "names" / "asc_devkit_signatures.tsv"
SCHEMA = 1
KINDS = ("class", "method", "function", "macro", "enum", "enumerator", "type", "variable", "namespace")
PIPES = ("S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL", "none")


class CatalogError(ValueError):
    """A catalog data file that does not follow the schema."""


# ----------------------------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: str
    default: str | None = None

    def render(self) -> str:
        text = f"{self.type} {self.name}".strip()
        return f"{text} = {self.default}" if self.default is not None else text


@dataclass(frozen=True, slots=True)
class Overload:
    signature: str
    returns: str
    params: tuple[Param, ...]
    form: str = ""
    template: str = ""
    variadic: bool = False

    @property
    def min_args(self) -> int:
        return sum(1 for p in self.params if p.default is None)

    @property
    def max_args(self) -> int | None:
        return None if self.variadic else len(self.params)

    def accepts(self, nargs: int) -> bool:
        top = self.max_args
        return self.min_args <= nargs and (top is None or nargs <= top)

    def label(self) -> str:
        return f"{self.template} {self.signature}".strip() if self.template else self.signature


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    kind: str
    doc: str = ""
    pipe: str = "none"
    header: str = ""
    overloads: Sequence[Overload] = ()  # a tuple; for a generated entry, parsed on first use (LazyOverloads)
    template: str = ""
    bases: tuple[str, ...] = ()
    dtypes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    constraints: tuple[str, ...] = ()
    since: str | None = None
    removed: str | None = None
    replaced_by: str | None = None
    deprecated: bool = False
    value: str | None = None
    snippet: str | None = None
    family: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def short(self) -> str:
        return self.name.rsplit("::", 1)[-1]

    @property
    def parent(self) -> str:
        return self.name.rsplit("::", 1)[0] if "::" in self.name else ""

    def exists_in(self, version: str) -> bool:
        v = parse_version(version)
        if self.since and v < parse_version(self.since):
            return False
        return not (self.removed and v >= parse_version(self.removed))

    def dtypes_for(self, npu_arch: str) -> tuple[str, ...]:
        return tuple(self.dtypes.get(npu_arch, ()))

    def supported_on(self, npu_arch: str) -> bool:
        """False when the entry lists the architectures it runs on (``archs = ["2201"]``) and `npu_arch` is not one."""
        archs = self.extra.get("archs")
        return not archs or str(npu_arch) in {str(a) for a in archs}


@dataclass(frozen=True)
class Invented:
    name: str
    replacement: str
    certain: bool = False
    note: str = ""
    # the replacement applies only below this CANN version (Divs -> Muls on < 9)
    max_version: str | None = None
    # the replacement takes this argument (0-based) negated: Subs(d, s, v, n) = Adds(d, s, -v, n)
    negate: int | None = None


@dataclass(frozen=True, slots=True)
class KnownName:
    """A name the newest headers declare (the generated names file): facts only, no signature or doc."""

    name: str
    kind: str  # function | method | class | enum | enumerator | type | variable | namespace
    family: str  # basic_api, adv_api, c_api, simt_api, tensor_api, utils, impl, ...
    archs: tuple[str, ...] = ()  # __NPU_ARCH__ values where only those have it; () for all or not known
    arities: tuple[tuple[int, int], ...] = ()  # (min, max) arguments per declaration; max -1: variadic
    bases: tuple[str, ...] = ()
    header: str = ""

    @property
    def short(self) -> str:
        return self.name.rsplit("::", 1)[-1]

    def accepts(self, nargs: int) -> bool:
        return any(lo <= nargs and (hi < 0 or nargs <= hi) for lo, hi in self.arities)


def read_names(path: Path) -> dict[str, KnownName]:
    """The names file written by ``benchmarks/catalog_coverage.py --write`` (tab-separated, ``#`` comments)."""
    out: dict[str, KnownName] = {}
    if not path.is_file():
        return out
    shared_counts: dict[str, tuple[tuple[int, int], ...]] = {}
    shared_archs: dict[str, tuple[str, ...]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 7:
            raise CatalogError(f"{path.name}: a line has {len(cols)} columns, not 7: {line!r}")
        name, kind, family, archs, arities, bases, header = cols[:7]
        ar = shared_counts.get(arities)
        if ar is None:
            counts = []
            for piece in filter(None, arities.split(";")):
                lo, _, hi = piece.partition("-")
                counts.append((int(lo), -1 if hi == "*" else int(hi)))
            ar = shared_counts[arities] = tuple(counts)
        arch_list = shared_archs.get(archs)
        if arch_list is None:
            arch_list = shared_archs[archs] = tuple(sys.intern(a) for a in archs.split(",") if a)
        # kinds, families, argument counts, arch lists and headers repeat over 30,000 lines: one object each
        out[name] = KnownName(
            name,
            sys.intern(kind),
            sys.intern(family),
            arch_list,
            ar,
            tuple(sys.intern(b) for b in bases.split(",") if b),
            sys.intern(header),
        )
    return out


def parse_version(text: str) -> tuple[int, ...]:
    parts = re.findall(r"\d+", text)
    return tuple(int(p) for p in parts[:3]) or (0,)


# ----------------------------------------------------------------------------------------------- signatures

_SIG = re.compile(
    r"^(?P<ret>.*?)(?P<name>[A-Za-z_~][\w]*|operator\s*\S+)\s*\((?P<params>.*)\)\s*(?P<tail>[\w\s&]*)$", re.S
)


def parse_param(text: str) -> Param:
    default = None
    pieces = split_top_level(text, "=")
    if len(pieces) > 1:
        text, default = pieces[0], "=".join(pieces[1:]).strip()
    text = text.strip()
    m = re.match(r"^(?P<type>.*?)(?P<name>[A-Za-z_]\w*)\s*(?P<arr>(\[[^\]]*\])*)$", text, re.S)
    if not m or not m.group("type").strip() or m.group("type").strip().endswith("::"):
        # an unnamed parameter: the whole text is its type
        return Param("", sys.intern(text), default)
    ptype = (m.group("type") + m.group("arr")).strip()
    # interned: thousands of parameters share a few hundred names and types (the catalog stays resident)
    return Param(
        sys.intern(m.group("name")), sys.intern(ptype), None if default is None else sys.intern(default)
    )


def parse_signature(signature: str, form: str = "", template: str = "") -> Overload:
    """Parse ``ret Name(params) [const]`` into an `Overload`; raises `CatalogError` when it does not parse."""
    m = _SIG.match(" ".join(signature.split()))
    if not m:
        raise CatalogError(f"signature does not parse: {signature!r}")
    params_text = m.group("params").strip()
    variadic = False
    params: list[Param] = []
    if params_text and params_text != "void":
        for piece in split_top_level(params_text):
            if not piece:
                raise CatalogError(f"empty parameter in signature: {signature!r}")
            if piece.endswith("...") or piece == "...":
                variadic = True
                if piece == "...":
                    continue
            params.append(parse_param(piece))
    return Overload(
        signature=" ".join(signature.split()),
        returns=sys.intern(m.group("ret").strip()),
        params=tuple(params),
        form=form,
        template=sys.intern(template),
        variadic=variadic,
    )


# ----------------------------------------------------------------------------------------------- catalog


class Catalog:
    """All entries, indexed by qualified name, by short name and by parent class."""

    def __init__(
        self,
        entries: Iterable[Entry],
        invented: Iterable[Invented] = (),
        sources: Iterable[str] = (),
        names: Mapping[str, KnownName] | None = None,
        support: Mapping[str, tuple[frozenset[str], frozenset[str]]] | None = None,
    ) -> None:
        self.names: dict[str, KnownName] = dict(names or {})
        # the API reference's product support by page name: (products supported, products not)
        self.support: dict[str, tuple[frozenset[str], frozenset[str]]] = dict(support or {})
        self.names_by_short: dict[str, list[KnownName]] = {}
        for kn in self.names.values():
            if kn.kind in ("function", "method"):
                self.names_by_short.setdefault(kn.short, []).append(kn)
        self.entries: dict[str, Entry] = {}
        self.by_short: dict[str, list[Entry]] = {}
        self.children: dict[str, list[Entry]] = {}
        for e in entries:
            if e.name in self.entries:
                raise CatalogError(f"duplicate catalog entry {e.name!r}")
            self.entries[e.name] = e
            self.by_short.setdefault(e.short, []).append(e)
            self.children.setdefault(e.parent, []).append(e)
        self.invented: dict[str, Invented] = {i.name: i for i in invented}
        self.invented_short: dict[str, list[Invented]] = {}
        for i in self.invented.values():
            self.invented_short.setdefault(i.name.rsplit("::", 1)[-1], []).append(i)
        self.sources = tuple(sources)

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries.values())

    def __contains__(self, name: object) -> bool:
        return name in self.entries

    def get(self, name: str) -> Entry | None:
        return self.entries.get(name)

    def lookup(self, short: str) -> list[Entry]:
        """Entries whose last name part is `short` (``Add`` finds ``AscendC::Add``)."""
        return list(self.by_short.get(short, ()))

    def namespace_members(self, namespace: str = "AscendC") -> list[Entry]:
        return list(self.children.get(namespace, ()))

    def bases_of(self, cls: str) -> list[str]:
        """`cls` and all its bases, nearest first."""
        seen: list[str] = []
        todo = [cls]
        while todo:
            c = todo.pop(0)
            if c in seen:
                continue
            seen.append(c)
            entry = self.entries.get(c)
            if entry:
                todo.extend(entry.bases)
        return seen

    def members(self, cls: str) -> list[Entry]:
        """Members of class `cls`, including inherited ones."""
        out: list[Entry] = []
        names: set[str] = set()
        for c in self.bases_of(cls):
            for m in self.children.get(c, ()):
                if m.short not in names:
                    names.add(m.short)
                    out.append(m)
        return out

    def member(self, cls: str, short: str) -> Entry | None:
        for c in self.bases_of(cls):
            e = self.entries.get(f"{c}::{short}")
            if e is not None:
                return e
        return None

    def known(self, name: str) -> bool:
        """Whether `name` (qualified) is a hand-written entry or a name the newest headers declare."""
        return name in self.entries or name in self.names

    def known_member(self, cls: str, short: str) -> bool:
        """Whether class `cls` or one of its bases (the catalog's or the headers') declares a member `short`."""
        if self.member(cls, short) is not None:
            return True
        seen: set[str] = set()
        todo = list(self.bases_of(cls))
        while todo:
            c = todo.pop()
            if c in seen:
                continue
            seen.add(c)
            if f"{c}::{short}" in self.names:
                return True
            kn = self.names.get(c)
            if kn is not None:
                ns = c.rpartition("::")[0]
                todo.extend(f"{ns}::{b}" if ns else b for b in kn.bases)
        return False

    def namespace_names(self, namespace: str) -> list[str]:
        """Short names the hand-written entries and the headers' names file declare directly in `namespace`."""
        cache = self.__dict__.setdefault("_ns_names", {})
        if namespace not in cache:
            prefix = namespace + "::"
            shorts = {e.short for e in self.namespace_members(namespace)}
            shorts.update(
                kn.short
                for kn in self.names.values()
                if kn.name.startswith(prefix) and "::" not in kn.name[len(prefix) :]
            )
            cache[namespace] = sorted(shorts)
        return cache[namespace]

    def header_arity_ok(self, short: str, nargs: int) -> bool:
        """Whether some function or method the headers declare under the short name `short` takes `nargs`."""
        return any(kn.accepts(nargs) for kn in self.names_by_short.get(short, ()))

    def classes(self) -> list[Entry]:
        return [e for e in self.entries.values() if e.kind == "class"]

    def suggest(self, short: str, pool: Iterable[str], n: int = 3) -> list[str]:
        """Close names from `pool` (case-insensitive first, then by similarity)."""
        pool = list(dict.fromkeys(pool))
        exact_ci = [p for p in pool if p.lower() == short.lower() and p != short]
        similar = difflib.get_close_matches(short, pool, n=n + len(exact_ci), cutoff=0.72)
        out = exact_ci + [s for s in similar if s not in exact_ci and s != short]
        return out[:n]


def _entry_from_toml(raw: Mapping[str, Any], family: str, origin: str) -> Entry:
    try:
        name = raw["name"]
        kind = raw["kind"]
    except KeyError as exc:
        raise CatalogError(f"{origin}: an entry lacks {exc.args[0]!r}: {raw!r}") from None
    if kind not in KINDS:
        raise CatalogError(f"{origin}: entry {name!r} has unknown kind {kind!r}")
    pipe = raw.get("pipe", "none")
    if pipe not in PIPES:
        raise CatalogError(f"{origin}: entry {name!r} has unknown pipe {pipe!r}")
    overloads = []
    for ov in raw.get("overload", ()):
        try:
            overloads.append(parse_signature(ov["signature"], ov.get("form", ""), ov.get("template", "")))
        except KeyError:
            raise CatalogError(f"{origin}: an overload of {name!r} lacks 'signature'") from None
        except CatalogError as exc:
            raise CatalogError(f"{origin}: {name}: {exc}") from None
    known = {
        "name",
        "kind",
        "doc",
        "pipe",
        "header",
        "overload",
        "template",
        "bases",
        "dtypes",
        "constraints",
        "since",
        "removed",
        "replaced_by",
        "deprecated",
        "value",
        "snippet",
    }
    dtypes = {str(k): tuple(v) for k, v in raw.get("dtypes", {}).items()}
    return Entry(
        name=name,
        kind=kind,
        doc=raw.get("doc", "").strip(),
        pipe=pipe,
        header=raw.get("header", ""),
        overloads=tuple(overloads),
        template=raw.get("template", ""),
        bases=tuple(raw.get("bases", ())),
        dtypes=dtypes,
        constraints=tuple(raw.get("constraints", ())),
        since=raw.get("since"),
        removed=raw.get("removed"),
        replaced_by=raw.get("replaced_by"),
        deprecated=bool(raw.get("deprecated", False)),
        value=None if raw.get("value") is None else str(raw.get("value")),
        snippet=raw.get("snippet"),
        family=family,
        extra={k: v for k, v in raw.items() if k not in known},
    )


def load_catalog_dir(folder: Path) -> Catalog:
    entries: list[Entry] = []
    invented: list[Invented] = []
    sources: list[str] = []
    for path in sorted(folder.glob("*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise CatalogError(f"{path.name}: {exc}") from None
        meta = data.get("meta", {})
        if meta.get("schema", SCHEMA) != SCHEMA:
            raise CatalogError(f"{path.name}: schema {meta.get('schema')} is not {SCHEMA}")
        family = meta.get("family", path.stem)
        sources.extend(meta.get("sources", ()))
        for raw in data.get("entry", ()):
            entries.append(_entry_from_toml(raw, family, path.name))
        for raw in data.get("invented", ()):
            try:
                invented.append(
                    Invented(
                        name=raw["name"],
                        replacement=raw["replacement"],
                        certain=bool(raw.get("certain", False)),
                        note=raw.get("note", ""),
                        max_version=raw.get("max_version"),
                        negate=int(raw["negate"]) if "negate" in raw else None,
                    )
                )
            except KeyError as exc:
                raise CatalogError(f"{path.name}: an invented name lacks {exc.args[0]!r}") from None
    names = read_names(folder / "names" / NAMES_FILE.name)
    support = read_support(folder / "names" / SUPPORT_FILE.name)
    for f in generated_facts(folder / "names" / SIGNATURES_FILE.name, {e.name for e in entries}, support):
        overloads = LazyOverloads(f.declarations, parse_signature)  # parsed on first use
        entries.append(
            Entry(f.name, f.kind, f.doc, header=f.header, overloads=overloads, family=f.family, extra=f.extra)
        )
    return Catalog(entries, invented, sources, names, support)


@functools.lru_cache(maxsize=1)
def load_catalog() -> Catalog:
    """The bundled catalog (loaded once per process, through the compiled cache when it is current)."""
    catalog = load_catalog_cached(CATALOG_DIR)
    gc.freeze()  # it lives as long as the process: full collections (1 in ~15 lints) skip it, ~2 ms a lint
    return catalog


def _cache_file(folder: Path) -> Path | None:
    """Where the compiled form of `folder` lives: keyed by every data file's name, size and mtime, the schema, the
    Python version and this module's own source, so any change to them makes a new key."""
    import hashlib

    from akgen_lsp.safety import cache_base

    root = cache_base()  # private (0700), owner and mode checked: UnsafePath otherwise
    h = hashlib.sha256()
    h.update(f"{SCHEMA}:{sys.version_info[:3]}".encode())
    here = Path(__file__)
    code = (here, here.with_name("catalog_generated.py"), here.with_name("api_facts.py"))
    for path in (*code, *sorted(folder.glob("*.toml")), *sorted(folder.glob("names/*.tsv"))):
        st = path.stat()
        h.update(f"{path.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    return Path(root) / "catalog" / f"{h.hexdigest()[:24]}.pickle"


def load_catalog_cached(folder: Path) -> Catalog:
    """`load_catalog_dir`, with the parsed result kept as a pickle in the user cache directory (``AKGEN_CACHE_DIR``
    or the platform's cache folder). Parsing 2,000+ entries of TOML and C++ signatures takes ~0.2-0.5 s; the pickle
    loads in a few tens of ms. A cache that cannot be read or written is ignored.

    The pickle is sealed with an HMAC under the user's key (`safety.seal`, the key a 0600 file in the private cache
    folder) and unpickled only when the seal holds: a file someone else wrote is never unpickled (docs/security.md)."""
    import pickle

    from akgen_lsp.safety import read_regular, seal, unseal, user_key, write_private

    try:
        target = _cache_file(folder)
        key = user_key(target.parent.parent) if target is not None else b""
    except OSError:
        target, key = None, b""
    if target is not None:
        try:
            data = unseal(key, read_regular(target, 256 << 20))
            cached = pickle.loads(data) if data is not None else None
            if isinstance(cached, Catalog):
                return cached
        except Exception:  # absent, stale or broken: rebuilt below
            pass
    catalog = load_catalog_dir(folder)
    if target is not None:
        try:
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            write_private(target, seal(key, pickle.dumps(catalog, protocol=pickle.HIGHEST_PROTOCOL)))
        except OSError:
            pass
    return catalog
