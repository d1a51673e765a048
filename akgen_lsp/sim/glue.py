"""The generated glue of a kernel build: it includes the tiling header and the sources (once, or once per pass of a
split build) and defines `akgen_sim_entry` and `akgen_sim_fill_tiling`, which the launcher calls."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from akgen_lsp.sim.build_types import BuildOptions
from akgen_lsp.sim.cxx_text import code_only, include_lines
from akgen_lsp.sim.split import (
    CORE_TYPES,
    INCLUDE_GUARD,
    MIX_RATIO,
    has_cube_side,
    infer_core_type,
    own_headers,
)
from akgen_lsp.sim.tiling_key import KEY_DEFINE, key_test_site

_NS_RE = re.compile(r"namespace\s+optiling\b")
_REG_RE = re.compile(r"REGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)")
# what a tiling header may include and still be compiled with the macros alone (`tiling_only`)
_MACRO_ONLY_INCLUDES = re.compile(
    r'#\s*include\s*(?:"register/tilingdata_base\.h"|<c?std(?:int|def)(?:\.h)?>)$'
)
_HOST_NAMES = re.compile(r"\b(?:gert|ge|std|platform_ascendc|matmul_tiling)\s*::|Context\b")


def tiling_only(header: Path) -> bool:
    """Whether an op_host tiling header needs only the tiling macros (it includes nothing but
    register/tilingdata_base.h and the fixed-width integer headers, and names no host type: gert::, ge::, std::,
    the tiling API's namespaces, a *Context): the glue then compiles it without the host API (AKGEN_SIM_TILING_ONLY,
    see register/tilingdata_base.h), as CANN's kernel build never sees the op_host header at all. 169 of the 211
    tiling headers of NPUKernelBench, asc-devkit, CANN's samples and ours are such; the rest keep the host types."""
    text = header.read_text(encoding="utf-8", errors="replace")
    if not all(_MACRO_ONLY_INCLUDES.match(line) for line in include_lines(text)):
        return False
    return not _HOST_NAMES.search(code_only(text))


_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
_ONE_LINE_CONST = re.compile(r"^\s*(?:static\s+)?(?:constexpr|const)\b[^;{}]*;\s*$|^\s*#\s*define\s+\w+\s+\S")


def unresolved_includes(header: Path, search: Sequence[Path]) -> list[str]:
    """The quoted includes of an op_host tiling header that neither the sim's headers, the system's, the header's own
    folder nor `search` have: a header the kernel build cannot compile whole."""
    from akgen_lsp.sim.compiler import INCLUDE_DIR, is_system_header

    text = header.read_text(encoding="utf-8", errors="replace")
    missing = []
    for line in include_lines(text):
        m = _QUOTED_INCLUDE.match(line)
        if not m:
            continue
        name = m.group(1)
        roots = [header.parent, INCLUDE_DIR, *search]
        if not any((r / name).is_file() for r in roots) and not is_system_header(name):
            missing.append(name)
    return missing


def tiling_data_view(header: Path) -> list[str]:
    """What CANN's kernel build sees of an op_host tiling header (its UT generates `<op>_tiling_data.h` from the
    registered tiling data): the BEGIN_TILING_DATA_DEF ... END_TILING_DATA_DEF blocks, REGISTER_TILING_DATA_CLASS
    lines and one-line constants and macros, in their namespaces, each behind a #line of the header so that a
    diagnostic names the header's own line. For a header whose other includes the kernel build does not have."""
    text = header.read_text(encoding="utf-8", errors="replace")
    code = code_only(text).splitlines()
    lines = text.splitlines()
    path = str(header).replace("\\", "\\\\").replace('"', '\\"')
    out = ['#include "register/tilingdata_base.h"']
    in_block = False
    depth = 0
    opened: list[int] = []  # the brace depth inside each namespace kept open
    for i, (raw, c) in enumerate(zip(lines, code, strict=False), 1):
        if in_block:
            out.append(raw)
            in_block = "END_TILING_DATA_DEF" not in c
            continue
        ns = re.match(r"^\s*namespace\s+(\w+)\s*\{\s*$", c)
        if ns:
            depth += 1
            out.append(f"namespace {ns.group(1)} {{")
            opened.append(depth)
            continue
        if "BEGIN_TILING_DATA_DEF" in c:
            out += [f'#line {i} "{path}"', raw]
            in_block = "END_TILING_DATA_DEF" not in c
            continue
        if depth == (opened[-1] if opened else 0) and (
            "REGISTER_TILING_DATA_CLASS" in c or _ONE_LINE_CONST.match(c)
        ):
            out += [f'#line {i} "{path}"', raw]
        depth += c.count("{") - c.count("}")
        while opened and depth < opened[-1]:
            out.append("}")
            opened.pop()
    out += ["}"] * len(opened)
    return out


def tiling_struct_name(header: Path | None, struct: str | None, kernel: str | None = None) -> str:
    """The type GET_TILING_DATA reads: the manifest's struct, else the header's REGISTER_TILING_DATA_CLASS for the
    kernel's op (`Op` for kernel `op`/`o_p`: nested structs are registered under other names), else the first one;
    qualified with optiling:: when the header declares it there."""
    text = header.read_text(encoding="utf-8", errors="replace") if header else ""
    name = struct
    if not name:
        regs = _REG_RE.findall(text)
        key = (kernel or "").replace("_", "").lower()
        mine = [cls for op, cls in regs if key and op.replace("_", "").lower() == key]
        defs = re.findall(r"BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)", code_only(text))
        name = mine[0] if mine else regs[0][1] if regs else defs[0] if defs else "TilingData"
    if "::" not in name and _NS_RE.search(text):
        name = f"optiling::{name}"
    return name


_COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_TYPE_DECL_RE = re.compile(
    r"\b(?:BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)|(?:struct|class|enum(?:\s+class)?|union)\s+"
    r"(\w+)\s*(?:[:{]|final\b)|using\s+(\w+)\s*=)"
)


def optiling_type_names(text: str) -> list[str]:
    """The types a tiling header declares directly in `namespace optiling { ... }` (tiling data structs, plain
    structs, enums, aliases), in order, without duplicates."""
    text = _COMMENT_RE.sub(" ", text)
    names: list[str] = []
    for m in re.finditer(r"namespace\s+optiling\s*\{", text):
        depth, i, start = 1, m.end(), m.end()
        top: list[str] = []
        while i < len(text) and depth:
            ch = text[i]
            if ch == "{":
                if depth == 1:
                    top.append(text[start : i + 1])
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 1:
                    start = i + 1
            elif ch == ";" and depth == 1:
                top.append(text[start : i + 1])
                start = i + 1
            i += 1
        top.append(text[start:i])
        for chunk in top:
            for d in _TYPE_DECL_RE.finditer(chunk):
                n = d.group(1) or d.group(2) or d.group(3)
                if n and n not in names:
                    names.append(n)
    return names


def shared_guards(tiling_header: Path, sources: Sequence[Path], search: Sequence[Path] = ()) -> list[str]:
    """The include guards of the op_host tiling header that another header of the kernel's own (a different file
    that a source includes) also uses."""
    try:
        mine = set(
            INCLUDE_GUARD.findall(code_only(tiling_header.read_text(encoding="utf-8", errors="replace")))
        )
    except OSError:
        return []
    if not mine:
        return []
    found: list[str] = []
    host = tiling_header.resolve()
    for s in sources:
        own = own_headers(s, search)
        for f in own[0] if own else []:
            if f.resolve() == host:
                continue
            try:
                guards = INCLUDE_GUARD.findall(code_only(f.read_text(encoding="utf-8", errors="replace")))
            except OSError:
                continue
            found.extend(g for g in guards if g in mine and g not in found)
    return found


def _cube_side(sources: Sequence[Path], search: Sequence[Path]) -> bool:
    texts = []
    for s in sources:
        own = own_headers(s, search)
        for f in [s, *(own[0] if own else [])]:
            texts.append(f.read_text(encoding="utf-8", errors="replace"))
    return has_cube_side(texts)


def has_struct(opts: BuildOptions) -> bool:
    """Whether the build knows the tiling struct: named in the manifest, or a tiling header that declares one
    (BEGIN_TILING_DATA_DEF, REGISTER_TILING_DATA_CLASS)."""
    if opts.tiling_struct:
        return True
    if not opts.tiling_header:
        return False
    text = code_only(opts.tiling_header.read_text(encoding="utf-8", errors="replace"))
    return "BEGIN_TILING_DATA_DEF" in text or "REGISTER_TILING_DATA_CLASS" in text


def split_kernel_name(kernel: str) -> tuple[str, str]:
    """A kernel name as the manifest gives it, split into the function's name and its template arguments:
    `acos<float>` -> (`acos`, `<float>`), `add_custom` -> (`add_custom`, ``)."""
    i = kernel.find("<")
    return (kernel, "") if i < 0 else (kernel[:i].strip(), kernel[i:].strip())


def _entry_line(text: str, kernel: str | None) -> int:
    kernel = split_kernel_name(kernel)[0] if kernel else kernel
    code = code_only(text)
    m = re.search(rf"\b{re.escape(kernel or '')}\s*\(", code) if kernel else None
    return code.count("\n", 0, m.start()) + 1 if m else 1


def lost_cores_lines(
    sources: Sequence[Path], core: str, kernel: str | None, search: Sequence[Path] = ()
) -> list[str]:
    """For a kernel that is MIX on the chip (a Matmul object, or cube and cross-core code) but builds as one pass (its
    headers cannot be included twice), the launcher's warning that the run has fewer cores per block than the chip:
    the kernel's entry and what it lost."""
    if core == "mix" or not sources:
        return []
    texts = []
    for s in sources:
        own = own_headers(s, search)
        for f in [s, *(own[0] if own else [])]:
            texts.append(f.read_text(encoding="utf-8", errors="replace"))
    if infer_core_type(texts, split=True) != "mix":
        return []
    src = sources[0]
    line = _entry_line(texts[0], kernel)
    path = str(src).replace("\\", "\\\\").replace('"', '\\"')
    return [
        f'extern "C" const char* const akgen_sim_lost_cores_file = "{path}";',
        f'extern "C" const int akgen_sim_lost_cores_line = {line};',
    ]


def variants_possible(sources: Sequence[Path], search: Sequence[Path] = ()) -> bool:
    """Whether the sources can be compiled once per define set in one build (`variant_lines`): none of them includes
    a header of the kernel's own (such a header, included once at global scope, could use DTYPE_X there)."""
    return all((found := own_headers(s, search)) is not None and not found[0] for s in sources)


def _hoisted(sources: Sequence[Path], search: Sequence[Path]) -> tuple[list[str], list[str]]:
    """For a build that includes its sources more than once: the include lines of what they include that is not the
    kernel's own (ours, the system's: included once, first, at global scope, so that the passes share them) and the
    include guards of the sources and their own headers (undefined after each pass: the next includes them again)."""
    lines: list[str] = []
    guards: list[str] = []
    for s in sources:
        own, hoisted = own_headers(s, search) or (
            [],
            include_lines(s.read_text(encoding="utf-8", errors="replace")),
        )
        lines.extend(dict.fromkeys(hoisted))
        for f in [s, *own]:
            text = f.read_text(encoding="utf-8", errors="replace")
            guards.extend(g for g in INCLUDE_GUARD.findall(code_only(text)) if g not in guards)
    return lines, guards


def _pass_lines(
    namespace: str,
    prelude: Sequence[str],
    kernel: str,
    renamed: str,
    sources: Sequence[Path],
    guards: Sequence[str],
) -> list[str]:
    """One pass over the sources: in `namespace`, after `prelude`, with the kernel renamed `renamed`."""
    return [
        f"namespace {namespace} {{",
        *prelude,
        f"#define {kernel} {renamed}",
        *(f'#include "{s}"' for s in sources),
        f"#undef {kernel}",
        *(f"#undef {g}" for g in guards),
        "}",
    ]


def variant_lines(sources: Sequence[Path], opts: BuildOptions, search: Sequence[Path] = ()) -> list[str]:
    """The sources once per define set of `opts.variants`, each in `namespace akgen_variant_<i>` with its defines and
    the kernel renamed `akgen_v<i>_<kernel>`; what they include (ours and the system's: see `variants_possible`)
    first, at global scope."""
    lines, guards = _hoisted(sources, search)
    keys = sorted({k for v in opts.variants for k in v})
    for i, v in enumerate(opts.variants):
        lines.extend(f"#undef {k}" for k in keys)
        lines.extend(f"#define {k} {v[k]}" for k in keys if k in v)
        base = split_kernel_name(opts.kernel)[0]
        lines.extend(_pass_lines(f"akgen_variant_{i}", (), base, f"akgen_v{i}_{base}", sources, guards))
    lines.extend(f"#undef {k}" for k in keys)
    return lines


def generate_glue(sources: Sequence[Path], opts: BuildOptions, search: Sequence[Path] = ()) -> str:
    """The glue source; `search`: the folders where the kernel's own headers may be (a split build)."""
    lines = [
        "// generated by akgen sim: includes the kernel sources and calls the kernel from the launcher",
        '#include "akgen_sim/glue.h"',
    ]
    if opts.use_pch:  # the API is in already: the common instantiations are the launcher's (common_inst.h)
        lines.append('#include "akgen_sim/common_inst.h"')
    core = opts.core_type or "aiv"
    if core != "mix":
        lines.append(
            f"inline constexpr int32_t g_coreType = {CORE_TYPES[core]};  // this build's pass: {core}"
        )
    view = False
    if opts.tiling_header:
        only = tiling_only(opts.tiling_header)
        # a header with includes the kernel build cannot find (the repositories' log/log.h, op_host/...): only its
        # tiling data, as CANN's kernel build sees it
        view = not only and has_struct(opts) and bool(unresolved_includes(opts.tiling_header, search))
        lines.extend(["#define AKGEN_SIM_TILING_ONLY"] if only or view else [])
        lines.extend(tiling_data_view(opts.tiling_header) if view else [f'#include "{opts.tiling_header}"'])
        lines.extend(["#undef AKGEN_SIM_TILING_ONLY"] if only or view else [])
        # the kernel's own tiling header may use the op_host header's include guard (both `X_TILING_H`): CANN's
        # kernel build never includes the op_host file, so the kernel's header must not be hidden by it
        lines.extend(f"#undef {g}" for g in shared_guards(opts.tiling_header, sources, search))
    base, targs = split_kernel_name(opts.kernel)
    # the struct GET_TILING_DATA reads when the kernel registers none of its own (akgen_sim/tiling.h): from the op_host
    # header, before the sources; a struct named without a header is the kernel's own (declared in its sources, as
    # the repositories' <op>_tiling_data.h): after them, for the tiling arguments' filling only
    struct_lines = [
        f"using akgen_tiling_struct_t = {tiling_struct_name(opts.tiling_header, opts.tiling_struct, base)};",
        "akgen_tiling_struct_t akgen_tiling_default(long);",
    ]
    # a header that declares no tiling data (the `<op>_tiling.h` of a repository's kernel UT, which CANN's UT build
    # -includes: it includes the kernel's own struct header and defines GET_TILING_DATA itself) names no struct
    known = has_struct(opts)
    if opts.tiling_header and known:
        lines.extend(struct_lines)
    if opts.tiling_header and _NS_RE.search(opts.tiling_header.read_text(encoding="utf-8", errors="replace")):
        # the kernel-side build of CANN puts the tiling structs at global scope: kernels name them unqualified. Only
        # the types: the header's constants (`constexpr size_t MAX_DIM_NUM`) stay host-side, so a kernel may reuse
        # their names.
        names = optiling_type_names(
            "\n".join(tiling_data_view(opts.tiling_header))
            if view
            else opts.tiling_header.read_text(encoding="utf-8", errors="replace")
        )
        if names:
            lines.extend(f"using optiling::{n};" for n in names)
        else:
            lines.append("using namespace optiling;")
    # DT_* as macros for the kernel's `#if ORIG_DTYPE_X == DT_FLOAT16` (after the host tiling header, see the file)
    lines.append('#include "akgen_sim/kernel_type.h"')
    if core == "mix":
        # a split build: the sources once per core type, each pass in a namespace of its own with its g_coreType and
        # the kernel renamed; the headers they include come first at global scope (so the passes share them)
        hoisted, guards = _hoisted(sources, search)
        lines.extend(hoisted)
        for name, value in (("aic", 1), ("aiv", 2)):
            lines.extend(
                _pass_lines(
                    f"akgen_pass_{name}",
                    [f"inline constexpr int32_t g_coreType = {value};"],
                    base,
                    f"akgen_{name}_{base}",
                    sources,
                    guards,
                )
            )
    elif opts.variants:
        lines.extend(variant_lines(sources, opts, search))
    else:
        for s in sources:
            lines.append(f'#include "{s}"')
    if opts.tiling_struct and not opts.tiling_header:
        lines.extend(struct_lines)
    lines.append(f'extern "C" const int akgen_sim_mix = {MIX_RATIO if core == "mix" else 0};')
    lines.extend(lost_cores_lines(sources, core, opts.kernel, search))
    params = []
    for i, a in enumerate(opts.signature):
        if a["kind"] == "scalar":
            params.append(f"::akgen_sim::parse_scalar<{a['ctype']}>(static_cast<const char*>(a[{i}]))")
        else:
            params.append(f"static_cast<GM_ADDR>(a[{i}])")
    if core != "mix" and opts.variants:
        lines.append('extern "C" int akgen_sim_variant_index();  // the launcher: the spec\'s `variant N`')
    lines.append('extern "C" void akgen_sim_entry(void* const* a) {')
    lines.append("    (void)a;")
    # A build for one tiling key (sim/tiling_key.py): a run of another key stops, and the finding's place is the
    # kernel's first `if constexpr` on the key.
    if KEY_DEFINE in opts.defines:
        path, line = key_test_site(sources)
        lines.append(f'#line {line} "{path}"')
        lines.append(f"    ::akgen_sim::check_build_key(static_cast<int64_t>({KEY_DEFINE}));")
        lines.append(f'#line {len(lines) + 2} "<akgen glue>"')
    if core == "mix" and not _cube_side(sources, search):
        lines.append(
            "    if (::akgen_sim::ctx().core_type == 1) return;  // a vector kernel of a MIX type: the AIC idles"
        )
        lines.append(f"    akgen_pass_aiv::akgen_aiv_{base}{targs}({', '.join(params)});")
    elif core == "mix":
        lines.append("    if (::akgen_sim::ctx().core_type == 1)")
        lines.append(f"        akgen_pass_aic::akgen_aic_{base}{targs}({', '.join(params)});")
        lines.append("    else")
        lines.append(f"        akgen_pass_aiv::akgen_aiv_{base}{targs}({', '.join(params)});")
    elif opts.variants:
        lines.append("    switch (akgen_sim_variant_index()) {")
        for i in range(len(opts.variants)):
            lines.append(
                f"    case {i}: akgen_variant_{i}::akgen_v{i}_{base}{targs}({', '.join(params)}); break;"
            )
        lines.append("    default: break;")
        lines.append("    }")
    else:
        lines.append(f"    {opts.kernel}({', '.join(params)});")
    lines.append("}")
    lines.append(
        'extern "C" void akgen_sim_fill_tiling(int arg, uint8_t* buf, uint64_t cap, const char* kv) {'
    )
    lines.append("    (void)arg; (void)buf; (void)cap; (void)kv;")
    for i, a in enumerate(opts.signature):
        if a["kind"] != "tiling" or not known:
            continue  # no tiling struct (a kernel-only candidate on a TilingFunc that only sets the block dim): zeroed
        lines.append(f"    if (arg == {i}) {{")
        lines.append("        akgen_tiling_struct_t t{};")
        lines.append("        ::akgen_sim::for_each_field(kv, [&](std::string_view k, const char* v) {")
        for f in a.get("fields", []):
            lines.append(f'            if (k == "{f}") ::akgen_sim::parse_into(t.{f}, v);')
        lines.append("        });")
        lines.append("        std::memcpy(buf, &t, sizeof(t) < cap ? sizeof(t) : cap);")
        lines.append("    }")
    lines.append("}")
    return "\n".join(lines) + "\n"
