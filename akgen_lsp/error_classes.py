"""The error taxonomy every finding carries in `error_class`: versioned data in ``error_classes.toml``.

Twelve classes of kernel mistakes (AscendKernelGen's error-derived supervision, step 2) and ``harness`` for what is
not the kernel's fault. A finding's class is decided, in this order, by

1. its code, when the data fixes the class of that code (``AKG101`` is always ``hallucinated_api``; globs such as
   ``SIM-QUE-*``);
2. its message, for the codes whose class depends on what the message says (``CXX`` compiler errors, linker,
   build-system and NPU runtime lines): the ordered ``[[message]]`` rules;
3. the class the producer gave, mapped through the aliases (the older coarse names ``queue``, ``sync``,
   ``anti_cheat``, ``toolchain``, ... name a class of the table);
4. the default of the code's prefix (``SIM-`` -> runtime, ``BENCH-`` -> harness).

`Finding` applies `normalize` when it is built, so no producer can hand out a class outside the table. The
`akgen_lsp.errors` classifier refines compiler messages further with the API catalog (a name the catalog knows under
another CANN version is ``renamed_api``, not ``hallucinated_api``).
"""

from __future__ import annotations

import fnmatch
import functools
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DATA_FILE = Path(__file__).with_name("error_classes.toml")
SCHEMA = 1


_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


class TaxonomyError(ValueError):
    """The taxonomy data file does not follow its schema."""


@dataclass(frozen=True)
class ErrorClass:
    id: str
    title: str
    definition: str
    examples: tuple[str, ...]
    stage: str
    kernel_error: bool
    aliases: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "definition": self.definition,
            "examples": list(self.examples),
            "stage": self.stage,
            "kernel_error": self.kernel_error,
            "aliases": list(self.aliases),
        }


@dataclass(frozen=True)
class MessageRule:
    pattern: re.Pattern[str]
    error_class: str


class Taxonomy:
    """The loaded table: classes by id, alias resolution, the code and message rules."""

    def __init__(
        self,
        version: str,
        classes: Sequence[ErrorClass],
        codes: Sequence[tuple[str, str]],
        messages: Sequence[MessageRule],
        message_codes: Sequence[str],
        defaults: Mapping[str, str],
    ) -> None:
        self.version = version
        self.classes: dict[str, ErrorClass] = {c.id: c for c in classes}
        self._alias: dict[str, str] = {}
        for c in classes:
            self._alias[c.id] = c.id
            for a in c.aliases:
                if a in self._alias and self._alias[a] != c.id:
                    raise TaxonomyError(f"alias {a!r} names two classes: {self._alias[a]} and {c.id}")
                self._alias[a] = c.id
        self._exact = {p: cls for p, cls in codes if not any(ch in p for ch in "*?[")}
        self._globs = [(re.compile(fnmatch.translate(p)), cls) for p, cls in codes if p not in self._exact]
        self.code_rules = tuple(codes)
        self.message_rules = tuple(messages)
        self.message_codes = frozenset(message_codes)
        self._defaults = sorted(defaults.items(), key=lambda kv: -len(kv[0]))
        self._by_code: dict[str, str | None] = {}

    @property
    def ids(self) -> list[str]:
        return list(self.classes)

    @property
    def kernel_ids(self) -> list[str]:
        return [c.id for c in self.classes.values() if c.kernel_error]

    def resolve(self, name: str | None) -> str | None:
        """A class id for an id or an alias; None for a name the table does not know."""
        return self._alias.get(name) if name else None

    def for_code(self, code: str) -> str | None:
        """The class the data fixes for `code` (exact codes first, then the globs in order), or None."""
        if code in self._by_code:
            return self._by_code[code]
        found = self._exact.get(code) or next((cls for rx, cls in self._globs if rx.match(code)), None)
        if len(self._by_code) < 10_000:
            self._by_code[code] = found
        return found

    def for_message(self, message: str) -> str | None:
        message = message.translate(_QUOTES)  # g++ in a UTF-8 locale quotes with ‘ ’
        for rule in self.message_rules:
            if rule.pattern.search(message):
                return rule.error_class
        return None

    def default_for(self, code: str) -> str | None:
        return next((cls for prefix, cls in self._defaults if code.startswith(prefix)), None)

    def normalize(self, code: str, error_class: str | None, message: str = "") -> str | None:
        """The class of a finding (see the module docstring for the order). None only for a code the table knows
        nothing about, with no class given."""
        fixed = self.for_code(code)
        if fixed is not None:
            return fixed
        if code in self.message_codes or code.startswith("NPU-"):
            by_message = self.for_message(message)
            if by_message is not None:
                return by_message
        given = self.resolve(error_class)
        if given is not None:
            return given
        return self.default_for(code)


def _compile(pattern: str, where: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise TaxonomyError(f"{where}: the pattern does not compile: {exc}") from None


def parse_taxonomy(raw: Mapping[str, Any], origin: str = "error_classes.toml") -> Taxonomy:
    meta = raw.get("meta", {})
    if meta.get("schema") != SCHEMA:
        raise TaxonomyError(f"{origin}: [meta] schema must be {SCHEMA}, not {meta.get('schema')!r}")
    classes = []
    for i, c in enumerate(raw.get("class", ())):
        try:
            classes.append(
                ErrorClass(
                    str(c["id"]),
                    str(c["title"]),
                    str(c["definition"]).strip(),
                    tuple(str(e) for e in c.get("examples", ())),
                    str(c.get("stage", "any")),
                    bool(c.get("kernel_error", True)),
                    tuple(str(a) for a in c.get("aliases", ())),
                )
            )
        except KeyError as exc:
            raise TaxonomyError(f"{origin}: class {i + 1} has no {exc.args[0]!r}") from None
    ids = {c.id for c in classes}

    def known(cls: str, where: str) -> str:
        if cls not in ids:
            raise TaxonomyError(f"{where}: class {cls!r} is not one of the classes of the table")
        return cls

    codes = [
        (str(r["pattern"]), known(str(r["class"]), f"{origin}: [[code]] {r.get('pattern')}"))
        for r in raw.get("code", ())
    ]
    messages = [
        MessageRule(
            _compile(str(r["pattern"]), f"{origin}: [[message]] {i + 1}"),
            known(str(r["class"]), f"{origin}: [[message]] {i + 1}"),
        )
        for i, r in enumerate(raw.get("message", ()))
    ]
    defaults = {
        str(k): known(str(v), f"{origin}: [meta] defaults {k}") for k, v in meta.get("defaults", {}).items()
    }
    return Taxonomy(
        str(meta.get("version", "0")),
        classes,
        codes,
        messages,
        [str(c) for c in meta.get("message_codes", ())],
        defaults,
    )


@functools.lru_cache(maxsize=1)
def load_taxonomy() -> Taxonomy:
    """The bundled taxonomy, read once per process."""
    with DATA_FILE.open("rb") as fh:
        return parse_taxonomy(tomllib.load(fh), DATA_FILE.name)


def normalize(code: str, error_class: str | None, message: str = "") -> str | None:
    """`Taxonomy.normalize` of the bundled table (what `Finding` calls)."""
    return load_taxonomy().normalize(code, error_class, message)


def classify_message(message: str) -> str | None:
    """The class the message rules give a compiler, linker, build-system or runtime message (None: no rule)."""
    return load_taxonomy().for_message(message)
