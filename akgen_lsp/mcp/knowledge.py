"""What the MCP tools that need no simulator compute: the lint, the catalog's explanation, the diagnostic report.

Plain functions over the core (the checker, the catalog, the arch profiles, the error taxonomy and the report
builder) that return JSON values; `akgen_lsp.mcp.app` turns them into tools. Nothing here runs a kernel.
"""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from akgen_lsp.ascendc.arch import ArchError, arch_names, canonical_arch, load_arch
from akgen_lsp.ascendc.catalog import Catalog, Entry, load_catalog
from akgen_lsp.ascendc.lint import lint_parsed
from akgen_lsp.ascendc.rules import all_rules, rule_by_code
from akgen_lsp.ascendc.syntax import ParsedFile, parse
from akgen_lsp.config import Settings
from akgen_lsp.error_classes import load_taxonomy
from akgen_lsp.findings import Finding, finding_from_json, finding_to_json

# ------------------------------------------------------------------------------------------------------ lint


class Parses:
    """The last parse of each file an agent linted (a few dozen at most), so that linting the file again after an
    edit re-parses incrementally, as the editor's re-lint after a keystroke does."""

    def __init__(self, keep: int = 32) -> None:
        self.keep = keep
        self._last: dict[str, ParsedFile] = {}

    def parse(self, text: str, path: str) -> ParsedFile:
        """The parse of `text`: the last one itself when the file is unchanged (its models are kept with it)."""
        previous = self._last.pop(path, None)
        parsed = parse(text, path, previous)
        if previous is not None and previous is not parsed:
            previous.memo.clear()  # its models hold it in cycles: dropped now, they leave less to the collector
        self._last[path] = parsed
        while len(self._last) > self.keep:
            self._last.pop(next(iter(self._last)))
        return parsed


def lint(text: str, path: str, settings: Settings, parses: Parses | None = None) -> dict[str, Any]:
    """The static checker's findings on `text` (named `path`), in the CLI's JSON (fixes included)."""
    findings = lint_parsed(parses.parse(text, path) if parses else parse(text, path), settings)
    counts = Counter(f.severity.value for f in findings)
    return {
        "path": path,
        "findings": [finding_to_json(f) for f in findings],
        "counts": {k: counts.get(k, 0) for k in ("error", "warning", "info", "hint")},
        "safe_fixes": sum(1 for f in findings for fx in f.fixes if fx.safe),
    }


def lint_summary(result: Mapping[str, Any]) -> str:
    name = Path(str(result["path"])).name
    if not result["findings"]:
        return f"{name}: no findings."
    c = result["counts"]
    parts = [f"{c[k]} {k}{'s' if c[k] != 1 else ''}" for k in ("error", "warning", "info", "hint") if c[k]]
    lines = [f"{name}: {', '.join(parts)}; {result['safe_fixes']} safe fix(es)."]
    lines += [
        f"  {f['line']}:{f['column']} {f['severity']} {f['code']}: {f['message']}"
        for f in result["findings"][:20]
    ]
    if len(result["findings"]) > 20:
        lines.append(f"  ... and {len(result['findings']) - 20} more (see the structured result)")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------------ explain

_NPU_CODE = re.compile(r"^\s*(?:ACL_ERROR_\w+\s*)?\(?([1-5]\d{5})\)?\s*$")


def _entry_json(e: Entry, version: str, npu_arch: str) -> dict[str, Any]:
    return {
        "name": e.name,
        "kind": e.kind,
        "doc": e.doc,
        "pipe": e.pipe,
        "header": e.header,
        "signatures": [o.label() for o in e.overloads],
        "dtypes": {k: list(v) for k, v in e.dtypes.items()},
        "dtypes_here": list(e.dtypes_for(npu_arch)),
        "constraints": list(e.constraints),
        "since": e.since,
        "removed": e.removed,
        "replaced_by": e.replaced_by,
        "deprecated": e.deprecated,
        "exists_in_cann": e.exists_in(version),
        "supported_on_arch": e.supported_on(npu_arch),
    }


def _entry_markdown(d: Mapping[str, Any], arch: str, version: str) -> str:
    out = [f"**{d['name']}** ({d['kind']}; pipe {d['pipe']}; header {d['header'] or '-'})"]
    out += [f"    {s}" for s in d["signatures"]]
    if d["doc"]:
        out.append(d["doc"].strip())
    if d["dtypes_here"]:
        out.append(f"dtypes on {arch}: {', '.join(d['dtypes_here'])}")
    elif d["dtypes"]:
        out.append("dtypes: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in d["dtypes"].items()))
    out += [f"- {c}" for c in d["constraints"]]
    if not d["exists_in_cann"]:
        out.append(
            f"not in CANN {version} (since {d['since']}, removed {d['removed']}; use {d['replaced_by']})"
        )
    if not d["supported_on_arch"]:
        out.append(f"not supported on {arch}")
    if d["deprecated"]:
        out.append(f"deprecated{'; use ' + d['replaced_by'] if d['replaced_by'] else ''}")
    return "\n".join(out)


def _api(cat: Catalog, query: str) -> list[Entry]:
    q = query.strip().removesuffix("()")
    for name in (q, f"AscendC::{q}"):
        if (e := cat.get(name)) is not None:
            return [e]
    return cat.lookup(q.rsplit("::", 1)[-1]) if "::" not in q or q.startswith("AscendC::") else []


def _arch_of(query: str) -> tuple[str, list[str]] | None:
    words = query.split()
    if not words:
        return None
    names = {n.lower(): n for n in arch_names()}
    name = names.get(canonical_arch(words[0]).lower())
    return (name, [w.lower() for w in words[1:]]) if name else None


def _flat(obj: Mapping[str, Any], prefix: str = "") -> Iterable[tuple[str, Any]]:
    for k, v in obj.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, Mapping):
            yield from _flat(v, key)
        else:
            yield key, v


def explain(query: str, settings: Settings, catalog: Catalog | None = None) -> dict[str, Any]:
    """What `query` is: a rule (AKG120 or its name), an NPU error code (507015), a finding code (SIM-QUE-*) or
    error class, an arch profile (``Ascend910B2``, ``Ascend910B2 ub``), or an Ascend C API (``DataCopy``,
    ``AscendC::TQue::AllocTensor``). Unknown: the closest names ("did you mean")."""
    cat = catalog or load_catalog()
    q = query.strip()
    arch, version = str(settings["arch"]), str(settings["cann.version"])
    if not q:
        return {
            "query": query,
            "kind": "unknown",
            "found": False,
            "text": "Give a name to explain.",
            "data": {},
            "suggestions": [],
        }
    rule = rule_by_code(q) or next((r for r in all_rules() if r.name.lower() == q.lower()), None)
    if rule is not None:
        text = f"{rule.code} {rule.name} ({'on' if rule.default_enabled else 'off'} by default): {rule.summary}\n\n"
        return _found(
            query,
            "rule",
            text + rule.doc.strip(),
            {"code": rule.code, "name": rule.name, "summary": rule.summary, "doc": rule.doc},
        )
    if (m := _NPU_CODE.match(q)) is not None:
        from akgen_lsp.logs.npu import npu_codes

        code = npu_codes().get(int(m.group(1)))
        if code is not None:
            return _found(
                query,
                "npu_error_code",
                f"{code.code} {code.name}: {code.meaning} (class {code.error_class})",
                {
                    "code": code.code,
                    "name": code.name,
                    "meaning": code.meaning,
                    "error_class": code.error_class,
                    "source": code.source,
                },
            )
    tax = load_taxonomy()
    cls_id = tax.resolve(q.lower())
    if cls_id is None and re.fullmatch(r"[A-Z][A-Z0-9]*(-[A-Z0-9*]+)+|CXX|LINK", q):
        cls_id = tax.for_code(q) or tax.default_for(q)
        kind = "finding_code"
    else:
        kind = "error_class"
    if cls_id is not None:
        c = tax.classes[cls_id]
        head = f"{q}: error class {c.id}" if kind == "finding_code" else f"error class {c.id}"
        return _found(
            query,
            kind,
            f"{head} ({c.title}; stage {c.stage}): {c.definition}",
            {"code": q if kind == "finding_code" else None, "error_class": c.to_json()},
        )
    if (hit := _arch_of(q)) is not None:
        name, words = hit
        try:
            profile = load_arch(name).as_dict()
        except (ArchError, OSError) as exc:
            return _found(
                query, "arch", f"{name}: its profile does not load ({exc})", {"name": name}, found=False
            )
        facts = {
            k: v
            for k, v in _flat({k: v for k, v in profile.items() if k != "cost"})
            if not words or all(w in k.lower() for w in words)
        }
        text = (
            "\n".join(f"{k} = {v}" for k, v in facts.items())
            or f"no fact of {name} matches {' '.join(words)!r}"
        )
        return _found(query, "arch", f"{name}:\n{text}", {"name": name, "facts": facts}, found=bool(facts))
    invented = cat.invented.get(q) or next(iter(cat.invented_short.get(q.rsplit("::", 1)[-1], ())), None)
    entries = _api(cat, q)
    if entries:
        npu_arch = load_arch(arch).npu_arch
        data = [_entry_json(e, version, npu_arch) for e in entries]
        text = "\n\n".join(_entry_markdown(d, arch, version) for d in data)
        return _found(query, "api", text, {"entries": data, "arch": arch, "cann": version})
    if invented is not None:
        return _found(
            query,
            "invented_api",
            f"{invented.name} is not an Ascend C API; use {invented.replacement}. {invented.note}".strip(),
            {"name": invented.name, "replacement": invented.replacement, "note": invented.note},
        )
    short = q.rsplit("::", 1)[-1]
    pool = [*cat.by_short, *(r.code for r in all_rules()), *(r.name for r in all_rules()), *arch_names()]
    close = cat.suggest(short, pool, n=5)
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    return {
        "query": query,
        "kind": "unknown",
        "found": False,
        "data": {},
        "suggestions": close,
        "text": f"akgen knows no API, rule, error code or arch named {q!r}.{hint}",
    }


def _found(query: str, kind: str, text: str, data: dict[str, Any], found: bool = True) -> dict[str, Any]:
    return {"query": query, "kind": kind, "found": found, "text": text, "data": data, "suggestions": []}


# ------------------------------------------------------------------------------------------------------ report


def report_of_finding(finding: Mapping[str, Any], source: Path | None, settings: Settings) -> dict[str, Any]:
    """The diagnostic report of one finding (as lint or check gave it) in its source file."""
    f: Finding = finding_from_json({k: v for k, v in finding.items() if v is not None})
    path = source or Path(f.span.path)
    text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
    return _report(f, text, str(path), settings)


def reports_of_log(
    log: Path | None, log_text: str | None, sources: list[Path], settings: Settings, fmt: str = "auto"
) -> list[dict[str, Any]]:
    """The diagnostic report of each error block of a log (a compiler's, a build's, the simulator's result, the NPU
    runtime's), as `akgen errors report` makes them."""
    from akgen_lsp.logs.mine import mine_log
    from akgen_lsp.logs.paths import PathMapper

    mapper = PathMapper(sources)
    with tempfile.TemporaryDirectory(prefix="akgen-mcp-log-") as tmp:
        if log is None:
            log = Path(tmp) / "log.txt"
            log.write_text(log_text or "", encoding="utf-8")
        blocks = mine_log(log, fmt, mapper=mapper)
    out = []
    for b in blocks:
        text, path = "", b.file or ""
        for cand in (mapper.display(b.file), b.file) if b.file else ():
            if Path(cand).is_file():
                text, path = Path(cand).read_text(encoding="utf-8", errors="replace"), str(cand)
                break
        out.append(_report(b, text, path, settings))
    return out


def _report(item: Any, text: str, path: str, settings: Settings) -> dict[str, Any]:
    from akgen_lsp.errors.report import build_report
    from akgen_lsp.errors.store import RepairStore, RepairStoreError, default_path

    try:
        store = RepairStore() if default_path().is_file() else None
    except RepairStoreError:
        store = None
    rep = build_report(item, text, path, settings, store=store)
    return {"report": rep.to_json(), "markdown": rep.markdown()}
