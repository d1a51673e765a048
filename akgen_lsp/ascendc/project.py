"""What a kernel's project says about itself: the CANN version it targets, its kind, and the arch of the file.

`project_facts(path)` walks up from the file's folder (at most 12 levels, stopping after a folder with ``.git``) and
reads, nearest first:

- ``version.cmake`` with ``set_cann_package(<name> VERSION "9.1.0")``: the convention of CANN's open repositories
  (hicann ops-math / ops-nn, asc-devkit): the package is built for that CANN release;
- ``version.info`` (``Version=9.0.0``), the file a CANN toolkit install and msopgen projects carry;
- ``CMakeLists.txt`` / ``*.cmake`` setting ``CANN_VERSION`` (or ``ASCEND_CANN_VERSION``) to a version;
- ``requirements.txt`` pinning ``cann`` / ``ascend-cann-toolkit`` (``==``, ``>=``).

The arch the project builds for: a ``CMakeLists.txt`` in the file's folder or the two above it that sets
``CMAKE_ASC_ARCHITECTURES`` (``dav-3510``), passes ``--npu-arch=dav-...`` or sets ``SOC_VERSION``.

The kind: ``ops-repo`` (a ``version.cmake`` with ``set_cann_package``: CANN's operator repositories, built by their
own CMake, whose kernel entries are found without C linkage), ``custom-op`` (an ``op_kernel/`` beside an
``op_host/``: the msopgen layout), ``direct`` (``.asc`` or a ``<<<...>>>`` launch), else ``unknown``.

`file_arch(path, text)` reads the arch a file is written for where the project says so: a path with an ``arch35``
folder (the ops repositories' Ascend 950 code), a file that includes headers of an ``arch35/`` folder, or one
that uses the register or SIMT API (``MicroAPI::``, ``Reg::``, ``Simt::``, ``__simd_vf__``), which only Ascend 950
has; a name ending in ``_310p`` is the operator's 310P kernel. It returns None where the file does not say (the setting or its default applies).

Results are cached per folder; `clear_cache()` drops them (the server calls it when a project file changes).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

_MAX_UP = 12
_PACKAGE = re.compile(r'set_cann_package\s*\(\s*[\w.-]+\s+VERSION\s+"?(\d+\.\d+(?:\.\d+)?)')
_INFO = re.compile(r"^\s*version\s*[=:]\s*(\d+\.\d+(?:\.\d+)?)", re.I | re.M)
_CMAKE = re.compile(r'\b(?:ASCEND_)?CANN_VERSION\b["\s]*[\s"]+(\d+\.\d+(?:\.\d+)?)')
_REQ = re.compile(
    r"^\s*(?:cann|ascend-cann-toolkit|cann-toolkit)\s*(?:==|>=|~=)\s*(\d+\.\d+(?:\.\d+)?)", re.I | re.M
)
_CMAKE_ARCH = re.compile(
    r'(?:CMAKE_ASC_ARCHITECTURES|npu-arch[= ])\s*"?(dav[-_]\d{4})|'
    r'\bSOC_VERSION\b[\s"]+(Ascend\w+)',
    re.I,
)
_ARCH35_INCLUDE = re.compile(r'^\s*#\s*include\s*"(?:[\w./]*/)?arch35/', re.M)

ASCEND950 = "Ascend950PR"
_ONLY_950_USE = re.compile(r"\b(?:MicroAPI|Reg|Simt)::[A-Z]\w*|__simd_vf__|__simt_vf__|\basc_vf_call\b")
_ONLY_950_WORDS = ("MicroAPI::", "Reg::", "Simt::", "__simd_vf__", "__simt_vf__", "asc_vf_call")


@dataclass(frozen=True)
class ProjectFacts:
    root: Path | None  # the folder whose file gave the version (or the kind)
    cann_version: str | None
    version_source: str  # "version.cmake (set_cann_package)", "version.info", ... or ""
    kind: str  # ops-repo | custom-op | direct | unknown
    arch: str | None = None  # a profile name (or alias) the project's CMake builds for
    arch_source: str = ""

    def describe(self) -> str:
        if self.cann_version:
            return f"CANN {self.cann_version} (from {self.version_source})"
        return "no CANN version in the project"


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[:200_000]
    except OSError:
        return ""


def _version_in(folder: Path) -> tuple[str, str, bool] | None:
    """(version, source, ops-repo) from the files of one folder."""
    vc = folder / "version.cmake"
    if vc.is_file() and (m := _PACKAGE.search(_read(vc))):
        return m.group(1), f"{vc} (set_cann_package)", True
    vi = folder / "version.info"
    if vi.is_file() and (m := _INFO.search(_read(vi))):
        return m.group(1), str(vi), False
    for name in ("CMakeLists.txt", "CMakePresets.json"):
        p = folder / name
        if p.is_file() and (m := _CMAKE.search(_read(p))):
            return m.group(1), f"{p} (CANN_VERSION)", False
    req = folder / "requirements.txt"
    if req.is_file() and (m := _REQ.search(_read(req))):
        return m.group(1), f"{req}", False
    return None


def _arch_in(folder: Path) -> tuple[str, str] | None:
    p = folder / "CMakeLists.txt"
    if p.is_file() and (m := _CMAKE_ARCH.search(_read(p))):
        return (m.group(1) or m.group(2)), f"{p}"
    return None


@functools.lru_cache(maxsize=512)
def _facts_of_folder(folder: str) -> ProjectFacts:
    start = Path(folder)
    arch: tuple[str, str] | None = None
    here = start
    for _ in range(3):  # the build folder of an example or a direct-launch project: its CMakeLists.txt
        arch = _arch_in(here)
        if arch is not None or here.parent == here:
            break
        here = here.parent
    a, a_from = arch if arch is not None else (None, "")
    kind = "unknown"
    parts = start.parts
    if "op_kernel" in parts:
        base = Path(*parts[: parts.index("op_kernel")])
        if (base / "op_host").is_dir():
            kind = "custom-op"
    here = start
    for _ in range(_MAX_UP):
        found = _version_in(here)
        if found is not None:
            version, source, ops_repo = found
            return ProjectFacts(here, version, source, "ops-repo" if ops_repo else kind, a, a_from)
        if (here / ".git").exists() or here.parent == here:
            break
        here = here.parent
    return ProjectFacts(None, None, "", kind, a, a_from)


def project_facts(path: str | Path, text: str | None = None) -> ProjectFacts:
    """The project facts of the file at `path` (a file that does not exist on disk gives no facts)."""
    p = Path(path)
    if not p.is_absolute() or not p.parent.is_dir():
        kind = "direct" if p.suffix == ".asc" or (text is not None and "<<<" in text) else "unknown"
        return ProjectFacts(None, None, "", kind)
    facts = _facts_of_folder(str(p.parent))
    if facts.kind == "unknown" and (p.suffix == ".asc" or (text is not None and "<<<" in text)):
        return ProjectFacts(
            facts.root, facts.cann_version, facts.version_source, "direct", facts.arch, facts.arch_source
        )
    return facts


def file_arch(path: str | Path, text: str) -> tuple[str, str] | None:
    """(profile name, why) when the file says which arch it is written for; else None."""
    parts = Path(path).parts
    if "arch35" in parts:
        return (
            ASCEND950,
            "the file is under an arch35/ folder (Ascend 950 code in CANN's operator repositories)",
        )
    # substring tests first: they run at memchr speed, the patterns (alternations after \b) scan at Python's
    if "arch35/" in text and _ARCH35_INCLUDE.search(text[:100_000]):
        return ASCEND950, "it includes the operator's arch35/ headers (Ascend 950 code)"
    if any(w in text for w in _ONLY_950_WORDS) and _ONLY_950_USE.search(text[:200_000]):
        return (
            ASCEND950,
            "it uses the register or SIMT API (MicroAPI / Reg / Simt), which only Ascend 950 has",
        )
    if re.search(r"(?:^|_)310p(?:_|\.|$)", Path(path).name.lower()):
        return "Ascend310P", "its name ends in _310p (the operator's Atlas inference kernel)"
    return None


def clear_cache() -> None:
    _facts_of_folder.cache_clear()
