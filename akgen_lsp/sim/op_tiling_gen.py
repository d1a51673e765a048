"""`<op>_tiling_data.h` of an operator repository's kernel UT: what CANN's build generates from the operator's built
tiling library (the kernel-side tiling structs at global scope), written here from the text of op_host's headers.

Each `BEGIN_TILING_DATA_DEF(Name) ... END_TILING_DATA_DEF` of an op_host header outside arch35/ becomes a plain
`struct Name` with its fields in order (`TILING_DATA_FIELD_DEF(type, f)`, `..._ARR(type, n, f)`, `..._STRUCT(S, f)`).
An array length that names a constant is evaluated from the header's own `constexpr` / `const` / `#define`
constants; a struct whose length cannot be is left out with a comment that says so. Names the UT itself defines
at global scope (a test folder's `<op>_tiling_def.h`, a test source) or the kernel's headers define are left out
(theirs win, as they are what the UT was written against). The struct the op type registers
(`REGISTER_TILING_DATA_CLASS(OpType, Struct)`, else the first) is what GET_TILING_DATA reads.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Iterable
from pathlib import Path

from akgen_lsp.sim.compiler import HEADER_SUFFIXES
from akgen_lsp.sim.cxx_text import code_only

_BLOCK = re.compile(r"\bBEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)(.*?)\bEND_TILING_DATA_DEF", re.S)
_FIELD = re.compile(r"\bTILING_DATA_FIELD_DEF(_ARR|_STRUCT)?\s*\(([^()]*)\)")
_REG = re.compile(r"\bREGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)")
_CONST = re.compile(r"\b(?:constexpr|const)\s+(?:static\s+)?[\w:]+\s+(\w+)\s*(?:=\s*|\{)([^;{}]+?)\}?\s*;")
_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)\s+([^\n]+)$", re.M)
_GLOBAL_STRUCT = re.compile(r"^(?:struct|class)\s+(\w+)\s*[:{]", re.M)
_OPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Div: operator.floordiv,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
}


def _value(expr: str, consts: dict[str, str], depth: int = 0) -> int | None:
    """An integer constant expression of literals and known constants (None when it is not one)."""
    text = re.sub(r"(?<=\d)[uUlL]+\b", "", expr.strip())
    text = re.sub(r"\bstatic_cast\s*<[^>]*>\s*", "", text)
    try:
        tree = ast.parse(text.replace("/", "//"), mode="eval")
    except SyntaxError:
        return None

    def ev(node: ast.AST) -> int | None:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return int(node.value)
        if isinstance(node, ast.Name) and node.id in consts and depth < 8:
            return _value(consts[node.id], consts, depth + 1)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            a, b = ev(node.left), ev(node.right)
            if a is None or b is None or (isinstance(node.op, (ast.FloorDiv, ast.Div)) and b == 0):
                return None
            return int(_OPS[type(node.op)](a, b))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            v = ev(node.operand)
            return -v if v is not None else None
        return None

    return ev(tree)


def _struct(name: str, body: str, consts: dict[str, str]) -> tuple[list[str], str | None]:
    """The lines of the plain struct, or ([], why) when a field cannot be written."""
    out = [f"struct {name} {{"]
    for kind, args in _FIELD.findall(body):
        parts = [p.strip() for p in args.split(",")]
        if kind == "_ARR" and len(parts) == 3:
            n = _value(parts[1], consts)
            if n is None or n <= 0:
                return [], f"the length {parts[1]!r} of {name}::{parts[2]} is not a constant of the header"
            out.append(f"    {parts[0]} {parts[2]}[{n}];")
        elif len(parts) == 2:
            out.append(f"    {parts[0]} {parts[1]};")
        else:
            return [], f"a field of {name} is not understood: {args.strip()[:80]}"
    out.append("};")
    return out, None


def defined_names(files: Iterable[Path]) -> set[str]:
    """The struct and class names the files define at the start of a line (global scope, as such headers do)."""
    names: set[str] = set()
    for f in files:
        try:
            names |= set(_GLOBAL_STRUCT.findall(code_only(f.read_text(encoding="utf-8", errors="replace"))))
        except OSError:
            continue
    return names


_QUOTE_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def ut_files(op: str, ut_dir: Path) -> list[Path]:
    """The UT's test sources, the headers of its folder they include, and its `<op>_tiling.h`."""
    files = sorted(ut_dir.glob(f"test_{op}*.cpp"))
    own = ut_dir / f"{op}_tiling.h"
    if own.is_file():
        files.append(own)
    for src in list(files):
        for name in _QUOTE_INCLUDE.findall(src.read_text(encoding="utf-8", errors="replace")):
            cand = (ut_dir / name).resolve()
            if cand.is_file() and cand.parent == ut_dir.resolve() and cand not in files:
                files.append(cand)
    return files


def tiling_data_text(op: str, op_dir: Path, ut_dir: Path, for_kernel: bool = False) -> str:
    """The text of `<op>_tiling_data.h` for the operator at `op_dir` (its UT folder `ut_dir`): for the test sources
    (without the structs the UT defines itself), or, `for_kernel`, for the kernel source compiled on its own."""
    host = op_dir / "op_host"
    kernel_dir = op_dir / "op_kernel"
    theirs = defined_names(
        [
            *(p for p in kernel_dir.rglob("*") if p.is_file() and p.suffix in HEADER_SUFFIXES),
            *([] if for_kernel else ut_files(op, ut_dir)),
        ]
        if kernel_dir.is_dir()
        else ([] if for_kernel else ut_files(op, ut_dir))
    )
    lines = [
        f"// akgen op-test: the kernel-side tiling structs of {op}, from op_host's BEGIN_TILING_DATA_DEF",
        "#pragma once",
        "#include <cstdint>",
        '#include "kernel_tiling/kernel_tiling.h"',
    ]
    regs: list[tuple[str, str]] = []
    written: list[str] = []
    for h in sorted(host.rglob("*")) if host.is_dir() else []:
        if h.suffix not in HEADER_SUFFIXES or "arch35" in h.relative_to(host).parts or not h.is_file():
            continue
        code = code_only(h.read_text(encoding="utf-8", errors="replace"))
        if "BEGIN_TILING_DATA_DEF" not in code:
            continue
        consts = {m.group(1): m.group(2) for m in _DEFINE.finditer(code)}
        consts.update({m.group(1): m.group(2) for m in _CONST.finditer(code)})
        regs += _REG.findall(code)
        for m in _BLOCK.finditer(code):
            name = m.group(1)
            if name in theirs or name in written:
                continue
            body, why = _struct(name, m.group(2), consts)
            if why:
                lines.append(f"// akgen: {name} left out: {why}")
                continue
            lines += body
            written.append(name)
    op_type = "".join(w[:1].upper() + w[1:] for w in op.split("_"))
    registered = dict(reversed(regs)).get(op_type) or (regs[0][1] if regs else None)
    if registered and registered in written:
        # what GET_TILING_DATA reads: the alias (the sim's glue declares it too) and the declaration the sim's
        # tiling header asks for its type
        lines += [
            f"using akgen_tiling_struct_t = {registered};",
            "akgen_tiling_struct_t akgen_tiling_default(long);",
        ]
    return "\n".join(lines) + "\n"
