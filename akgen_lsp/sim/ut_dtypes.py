"""The DTYPE_<NAME> types a kernel UT leaves out: names the operator's kernel uses that neither the UT's AddOpTestCase
options (`-DDTYPE_X=float`) nor its own headers (`#define DTYPE_X float`) define.

CANN's device build defines DTYPE_<NAME> for every input and output of the op definition (op_host/*_def.cpp); its
kernel-UT build defines only what AddOpTestCase passes, so a kernel that names an input the UT does not (the UT
says DTYPE_SELF, the kernel DTYPE_GRAD) does not compile there. The simulator's UT build supplies each missing one
from the op definition, as the device build would, and says so (a warning on the result): the type is the one the
UT's own DTYPE defines agree on when the parameter supports it, else the op definition's first column.
"""

from __future__ import annotations

import re
from pathlib import Path

from akgen_lsp.findings import Finding, Severity, Span

# ge::DataType names of op definitions -> the C++ element types kernels use (the UT builds' spelling)
_C_TYPES = {
    "DT_FLOAT16": "half",
    "DT_FLOAT": "float",
    "DT_BF16": "bfloat16_t",
    "DT_DOUBLE": "double",
    "DT_BOOL": "bool",
    "DT_INT8": "int8_t",
    "DT_UINT8": "uint8_t",
    "DT_INT16": "int16_t",
    "DT_UINT16": "uint16_t",
    "DT_INT32": "int32_t",
    "DT_UINT32": "uint32_t",
    "DT_INT64": "int64_t",
    "DT_UINT64": "uint64_t",
}
# spellings of one C++ type in UT options -> the name above
_SAME = {"float32_t": "float", "float_t": "float", "float16_t": "half", "bfloat16": "bfloat16_t"}

_USE = re.compile(r"(?<![\w])DTYPE_([A-Z0-9_]+)(?!\w)")
_OWN = re.compile(
    r"#\s*(?:define|ifndef|ifdef|undef)\s+DTYPE_([A-Z0-9_]+)|defined\s*\(?\s*DTYPE_([A-Z0-9_]+)"
)
_OPTION = re.compile(r"-DDTYPE_([A-Z0-9_]+)=([\w:]+)")
_HEADER_DEFINE = re.compile(r"#\s*define\s+DTYPE_([A-Z0-9_]+)[ \t]+([\w:]+)")
_PARAM = re.compile(r"\b(?:Input|Output)\s*\(\s*\"(\w+)\"\s*\)((?:\s*\.\s*\w+\s*\([^;]*?\))*)", re.S)
_LIST = re.compile(r"\.\s*DataType\s*\(\s*(?:\{([^}]*)\}|(\w+)\s*\))")
_NAMED_LIST = re.compile(r"\b(\w+)\s*(?:=\s*)?\{((?:\s*(?:ge::)?DT_\w+\s*,?)+)\}")


def _comments_out(text: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)


def kernel_dtype_names(op_dir: Path) -> set[str]:
    """The DTYPE_<NAME> names (NAME) the kernel sources of op_kernel/ (not arch35/) use and do not define or test
    themselves."""
    kdir = op_dir / "op_kernel"
    used: set[str] = set()
    own: set[str] = set()
    files = [p for p in kdir.rglob("*") if p.suffix in (".cpp", ".h", ".hpp") and "arch35" not in p.parts]
    for f in files:
        text = _comments_out(f.read_text(encoding="utf-8", errors="replace"))
        used |= set(_USE.findall(text))
        own |= {a or b for a, b in _OWN.findall(text)}
    return used - own


def ut_dtype_values(ut_dir: Path) -> dict[str, str]:
    """NAME -> type of the DTYPE_<NAME> the UT defines: its CMakeLists options and its own headers and sources."""
    out: dict[str, str] = {}
    for f in sorted(ut_dir.rglob("*")) if ut_dir.is_dir() else []:
        if not f.is_file():
            continue
        text = _comments_out(f.read_text(encoding="utf-8", errors="replace"))
        if f.name == "CMakeLists.txt":
            text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
            out.update(dict(_OPTION.findall(text)))
        elif f.suffix in (".h", ".hpp", ".cpp"):
            out.update(dict(_HEADER_DEFINE.findall(text)))
    return out


def opdef_dtypes(op_dir: Path) -> dict[str, list[str]]:
    """Each input's and output's dtype list of the op definition (op_host/*_def.cpp), by upper-case name, as C++
    types (the first `.DataType({...})` of each, or a list the file names: `.DataType(xDtypes)`)."""
    out: dict[str, list[str]] = {}
    host = op_dir / "op_host"
    for d in sorted(host.glob("*_def.cpp")) if host.is_dir() else []:
        text = _comments_out(d.read_text(encoding="utf-8", errors="replace"))
        named = {n.group(1): n.group(2) for n in _NAMED_LIST.finditer(text)}  # `.DataType(xDtypes)` lists
        for m in _PARAM.finditer(text):
            lst = _LIST.search(m.group(2))
            if lst is None or m.group(1).upper() in out:
                continue
            items = lst.group(1) if lst.group(1) is not None else named.get(lst.group(2), "")
            types = [_C_TYPES.get(t.strip().removeprefix("ge::")) for t in items.split(",") if t.strip()]
            if types and all(types):
                out[m.group(1).upper()] = [t for t in types if t]
    return out


def missing_dtype_defines(op_dir: Path, ut_dir: Path) -> dict[str, str]:
    """DTYPE_<NAME> -> C++ type for each name the kernel uses, the UT does not define, and the op definition has.
    The type: the one all the UT's DTYPE defines agree on when this parameter supports it; else the column of the
    op definition where the UT's defines of the definition's own parameters agree; else the first column."""
    missing = kernel_dtype_names(op_dir) - set(ut_dtype_values(ut_dir))
    if not missing:
        return {}
    given = {k: _SAME.get(v, v) for k, v in ut_dtype_values(ut_dir).items()}
    table = opdef_dtypes(op_dir)
    agreed = set(given.values())
    one = agreed.pop() if len(agreed) == 1 else None
    width = min((len(v) for v in table.values()), default=0)
    column = (
        next((c for c in range(width) if all(table[k][c] == v for k, v in given.items() if k in table)), 0)
        if any(k in table for k in given)
        else 0
    )
    out: dict[str, str] = {}
    for name in sorted(missing):
        types = table.get(name)
        if not types:
            continue
        if one is not None and one in types:
            out[f"DTYPE_{name}"] = one
        else:
            out[f"DTYPE_{name}"] = types[column] if column < len(types) else types[0]
    return out


def dtype_note(ut_dir: Path, filled: dict[str, str]) -> Finding:
    """The note on a UT build that got `filled` (missing_dtype_defines), at the UT's first AddOpTestCase."""
    cml = ut_dir / "CMakeLists.txt"
    try:
        lines = cml.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        lines = []
    line = next(
        (i for i, t in enumerate(lines, 1) if "AddOpTestCase" in t and not t.lstrip().startswith("#")), 1
    )
    given = ", ".join(f"{k}={v}" for k, v in filled.items())
    return Finding(
        "OP-UT-DTYPE",
        f"the kernel names {', '.join(filled)}, which this UT does not define (CANN's kernel-UT build passes only "
        f"AddOpTestCase's options, so it would not compile there); the simulator took them from the op "
        f"definition: {given}. Add them to AddOpTestCase's options to say which types the UT means.",
        Span.point(str(cml), line),
        severity=Severity.INFO,
        source="akgen-run",
        error_class="dtype",
    )
