"""The run manifest: which sources make the kernel, how to call it, and on what data.

```json
{"sources": ["add_custom.cpp"], "kernel": "add_custom", "block_dim": 8, "arch": "Ascend910B2",
 "defines": {"DTYPE_X": "half"},
 "args": [
   {"name": "x", "input": "x.npy"},
   {"name": "z", "output": "z.npy", "dtype": "float16", "shape": [8, 2048]},
   {"name": "n", "scalar": 16384, "type": "uint32_t"},
   {"name": "workspace", "workspace_bytes": 0},
   {"name": "tiling", "tiling": {"header": "op_host/add_tiling.h", "struct": "AddTilingData",
                                 "fields": {"totalLength": 16384}}}
 ]}
```

Paths are relative to the manifest. Optional keys: `tiling_key` (int), `timeout_s`, `cpu_s`, `memory_mb`,
`include_dirs` (list), `checks` (``"npu"``, the default: the hardware's rules, CANN CPU-debug-only checks warn; or
``"cpu-debug"``: every CANN CPU-debug check ends the block; see docs/sim.md "Check modes"), `sanitize` (true, the
default: initcheck, racecheck and outputs never written; false only to measure what they cost). An output may say
`"compared": false` (the caller does not compare it: bytes of it no block wrote are an information, not a warning).
Every problem is reported as a `ManifestError` naming the field.

A tensor list (a dynamic input or output of a custom op, CANN's TensorList) is one argument with a `list` of
elements, each written like a plain input or output:

```json
{"name": "x", "list": [{"input": "x0.npy"}, {"input": "x1.npy"}]}
{"name": "y", "list": [{"output": "y0.npy", "dtype": "float16", "shape": [16]},
                       {"output": "y1.npy", "dtype": "float16", "shape": [3, 5]}]}
```

Each element is its own GM buffer (guard zones and bounds checks per tensor); the kernel gets ONE `GM_ADDR`: a
descriptor in GM laid out as CANN lays it out (what `AscendC::ListTensorDesc` decodes): word 0 is the byte offset of
the data-pointer array; then per tensor one word `dim | index << 32` and its `dim` sizes; then one data pointer per
tensor (all words uint64). The op_host TilingFunc sees the elements as the instances of one dynamic input
(`GetDynamicInputShape(ir, k)`, ...). `DTYPE_<NAME>` comes from the first element.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from akgen_lsp.ascendc.arch import arch_names, canonical_arch
from akgen_lsp.ascendc.ge_dtypes import GE_NAMES
from akgen_lsp.config import SettingsError, load_settings
from akgen_lsp.sim.manifest_types import (
    CHECK_MODES,
    DTYPES,
    IDENT,
    QUALIFIED,
    SCALAR_TYPES,
    Arg,
    Manifest,
    ManifestError,
    TilingSpec,
    valid_kernel_name,
)

# the names other modules import from here (the types live in manifest_types)
__all__ = [
    "CHECK_MODES",
    "DTYPES",
    "GE_NAMES",
    "SCALAR_TYPES",
    "Arg",
    "Caps",
    "Manifest",
    "ManifestError",
    "TilingSpec",
    "caps_from_settings",
    "load_manifest",
    "parse_manifest",
    "valid_kernel_name",
]


def _need(obj: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in obj:
        raise ManifestError(f"{where}: missing required field {key!r}")
    return obj[key]


@dataclass(frozen=True)
class Caps:
    """What a manifest may ask for: paths only inside its folder (`confine`, for a manifest read from a file), and
    upper bounds of its limits (settings sim.max_timeout_s, sim.max_memory_mb)."""

    confine: bool = False
    max_seconds: float = 600.0
    max_memory_mb: int = 16384


def caps_from_settings(settings: Mapping[str, Any] | None, confine: bool) -> Caps:
    if settings is None:
        return Caps(confine)
    return Caps(
        confine,
        float(settings.get("sim.max_timeout_s", 600.0)),
        int(settings.get("sim.max_memory_mb", 16384)),
    )


@dataclass(frozen=True)
class _Root:
    """The manifest's folder and what the manifest may ask for."""

    path: Path
    caps: Caps


def _path(at: _Root, value: Any, where: str) -> Path:
    if not isinstance(value, str) or not value or "\0" in value:
        raise ManifestError(f"{where}: expected a path string, got {value!r}")
    p = Path(value)
    root = at.path
    if not at.caps.confine:
        return p if p.is_absolute() else (root / p)
    inside = "paths in a manifest are relative to its folder and stay inside it"
    if p.is_absolute():
        raise ManifestError(
            f"{where}: {value!r} is an absolute path; {inside} (move the file next to the manifest)"
        )
    if ".." in p.parts:
        raise ManifestError(
            f"{where}: {value!r} goes up with '..'; {inside} (move the file next to the manifest)"
        )
    full = root / p
    _inside(at, full, f"{where} ({value!r}, through a symlink)")
    return full


def _inside(at: _Root, path: Path, where: str) -> None:
    real, base = path.resolve(), at.path.resolve()
    if real != base and base not in real.parents:
        raise ManifestError(
            f"{where}: {real} is outside the manifest's folder {base}; paths in a manifest are "
            "relative to its folder and stay inside it"
        )


def _arg(root: _Root, i: int, raw: Any) -> Arg:
    where = f"args[{i}]"
    if not isinstance(raw, Mapping):
        raise ManifestError(f'{where}: expected an object like {{"name": "x", "input": "x.npy"}}')
    name = raw.get("name", f"arg{i}")
    if not isinstance(name, str) or not IDENT.match(name):
        raise ManifestError(f"{where}.name: {name!r} is not a C identifier")
    where = f"args[{i}] ({name})"
    if "list" in raw:
        return _list_arg(root, name, raw["list"], where)
    return _tensor_or_other(root, name, raw, where)


def _list_arg(root: _Root, name: str, elems: Any, where: str) -> Arg:
    if not isinstance(elems, list) or not elems:
        raise ManifestError(
            f'{where}.list: expected a non-empty list of elements like {{"input": "x0.npy"}} or '
            f'{{"output": "y0.npy", "dtype": "float16", "shape": [8]}}'
        )
    items: list[Arg] = []
    for k, e in enumerate(elems):
        ew = f"{where}.list[{k}]"
        if not isinstance(e, Mapping) or not ("input" in e or "output" in e):
            raise ManifestError(
                f'{ew}: each element of a tensor list is an input ("input": "x0.npy") or an '
                'output ("output", "dtype", "shape")'
            )
        extra = sorted(set(e) - {"input", "output", "dtype", "shape", "init"})
        if extra:
            raise ManifestError(
                f"{ew}: unknown field {extra[0]!r}; an element has input, output, dtype, shape, init"
            )
        items.append(_tensor_or_other(root, f"{name}[{k}]", e, ew))
    kinds = {a.kind for a in items}
    if len(kinds) > 1:
        raise ManifestError(
            f"{where}.list: mixes inputs and outputs ({', '.join(sorted(kinds))}); a tensor list is "
            "all inputs, all outputs, or all input+output elements"
        )
    dtypes = {a.dtype for a in items}
    if len(dtypes) > 1:
        raise ManifestError(
            f"{where}.list: the elements have different dtypes ({', '.join(sorted(map(str, dtypes)))}"
            "); a TensorList holds one dtype"
        )
    return Arg(
        name,
        "gm_list",
        dtype=items[0].dtype,
        items=tuple(items),
        ctype="GM_ADDR",
        nbytes=sum(a.nbytes for a in items),
    )


def _tensor_or_other(root: _Root, name: str, raw: Mapping[str, Any], where: str) -> Arg:
    if "input" in raw:
        path = _path(root, raw["input"], f"{where}.input")
        if not path.is_file():
            raise ManifestError(f"{where}.input: file not found: {path}")
        try:
            arr = np.load(path, mmap_mode="r", allow_pickle=False)
        except (ValueError, OSError) as exc:
            raise ManifestError(f"{where}.input: {path} is not a readable .npy file ({exc})") from None
        dtype = str(raw.get("dtype") or arr.dtype)
        if dtype not in DTYPES:
            raise ManifestError(f"{where}.dtype: {dtype!r} is not supported; use one of {', '.join(DTYPES)}")
        kind = "gm_inout" if raw.get("output") else "gm_in"
        out_path = _path(root, raw["output"], f"{where}.output") if raw.get("output") else None
        return Arg(
            name,
            kind,
            path=path if out_path is None else out_path,
            dtype=dtype,
            shape=tuple(arr.shape),
            nbytes=int(arr.nbytes),
            value=str(path),
            ctype="GM_ADDR",
            absent=bool(raw.get("absent")) and kind == "gm_in",
        )
    if "output" in raw:
        path = _path(root, raw["output"], f"{where}.output")
        dtype = raw.get("dtype")
        if dtype not in DTYPES:
            raise ManifestError(f"{where}.dtype: an output needs a dtype, one of {', '.join(DTYPES)}")
        shape = raw.get("shape")
        if not isinstance(shape, list) or not all(isinstance(d, int) and d >= 0 for d in shape):
            raise ManifestError(f"{where}.shape: an output needs a shape, a list of non-negative integers")
        nbytes = int(np.prod(shape, dtype=np.int64)) * np.dtype(DTYPES[dtype][0]).itemsize
        init = _path(root, raw["init"], f"{where}.init") if raw.get("init") else None
        if init is not None:
            try:
                init_bytes = int(np.load(init, mmap_mode="r", allow_pickle=False).nbytes)
            except (ValueError, OSError) as exc:
                raise ManifestError(f"{where}.init: {init} is not a readable .npy file ({exc})") from None
            if init_bytes != nbytes:
                raise ManifestError(
                    f"{where}.init: {init} has {init_bytes} bytes, the output {nbytes}; give the "
                    "output's initial content at its full size"
                )
        compared = raw.get("compared", True)
        if not isinstance(compared, bool):
            raise ManifestError(
                f"{where}.compared: expected true or false (false: the caller does not compare this "
                f"output), got {compared!r}"
            )
        return Arg(
            name,
            "gm_out",
            path=path,
            dtype=dtype,
            shape=tuple(shape),
            nbytes=nbytes,
            ctype="GM_ADDR",
            init=init,
            compared=compared,
        )
    if "scalar" in raw:
        ctype = raw.get("type", "int64_t")
        if ctype not in SCALAR_TYPES:
            raise ManifestError(
                f"{where}.type: {ctype!r} is not a supported scalar type ({', '.join(sorted(SCALAR_TYPES))})"
            )
        value = raw["scalar"]
        if not isinstance(value, (int, float, bool)):
            raise ManifestError(f"{where}.scalar: expected a number, got {value!r}")
        return Arg(name, "scalar", value=value, ctype=ctype)
    if "workspace_bytes" in raw:
        n = raw["workspace_bytes"]
        if not isinstance(n, int) or n < 0:
            raise ManifestError(f"{where}.workspace_bytes: expected a non-negative integer")
        return Arg(name, "workspace", nbytes=n, ctype="GM_ADDR")
    if "tiling" in raw:
        t = raw["tiling"]
        if not isinstance(t, Mapping):
            raise ManifestError(f"{where}.tiling: expected an object with header, struct and fields")
        host = _path(root, t["host"], f"{where}.tiling.host") if t.get("host") else None
        if host is not None and not host.is_file():
            raise ManifestError(f"{where}.tiling.host: file not found: {host}")
        attrs = t.get("attrs", {})
        if not isinstance(attrs, Mapping):
            raise ManifestError(f"{where}.tiling.attrs: expected an object of attribute name -> value")
        header = _path(root, t["header"], f"{where}.tiling.header") if t.get("header") else None
        if header is None and host is not None:
            from akgen_lsp.sim.host import tiling_header_of

            header = tiling_header_of(host)
        if header is not None and not header.is_file():
            raise ManifestError(f"{where}.tiling.header: file not found: {header}")
        if header is not None and root.caps.confine and not t.get("header"):
            _inside(root, header, f"{where}.tiling.host (the tiling header it includes)")
        struct = t.get("struct")
        if struct is not None and (not isinstance(struct, str) or not QUALIFIED.match(struct)):
            raise ManifestError(f"{where}.tiling.struct: {struct!r} is not a C++ type name")
        fields = t.get("fields", {})
        if not isinstance(fields, Mapping):
            raise ManifestError(f"{where}.tiling.fields: expected an object of field name -> number or list")
        for k, v in fields.items():
            if not IDENT.match(str(k)):
                raise ManifestError(f"{where}.tiling.fields: {k!r} is not a field name")
            ok = isinstance(v, (int, float)) or (
                isinstance(v, list) and all(isinstance(e, (int, float)) for e in v)
            )
            if not ok:
                raise ManifestError(f"{where}.tiling.fields.{k}: expected a number or a list of numbers")
        op = t.get("op")
        return Arg(
            name,
            "tiling",
            tiling=TilingSpec(
                header, struct, dict(fields), host, dict(attrs), op if isinstance(op, str) else None
            ),
            ctype="GM_ADDR",
        )
    raise ManifestError(f"{where}: say what it is with one of input, output, scalar, workspace_bytes, tiling")


def parse_manifest(
    data: Mapping[str, Any], root: Path, path: Path | None = None, caps: Caps | None = None
) -> Manifest:
    """The manifest of `data`, with relative paths taken from `root`. `caps` (default: no confinement, the default
    bounds) says what it may ask for: `load_manifest` confines a manifest read from a file to its folder."""
    caps = caps or Caps()
    at = _Root(root, caps)
    if not isinstance(data, Mapping):
        raise ManifestError("the manifest must be a JSON object")
    raw_sources = _need(data, "sources", "manifest")
    if isinstance(raw_sources, str):
        raw_sources = [raw_sources]
    if not isinstance(raw_sources, list) or not raw_sources:
        raise ManifestError("manifest.sources: expected a non-empty list of kernel source files")
    sources = tuple(_path(at, s, f"sources[{i}]") for i, s in enumerate(raw_sources))
    for s in sources:
        if not s.is_file():
            raise ManifestError(f"manifest.sources: file not found: {s}")
    kernel = _need(data, "kernel", "manifest")
    if not valid_kernel_name(kernel):
        raise ManifestError(
            f"manifest.kernel: {kernel!r} is not a kernel function name: write the entry's name "
            "(`add_custom`), with its template arguments for a template entry (`acos<float>`)"
        )
    block_dim = data.get("block_dim", 1)
    if not isinstance(block_dim, int) or not 1 <= block_dim <= 65535:
        raise ManifestError(f"manifest.block_dim: expected an integer in [1, 65535], got {block_dim!r}")
    arch = data.get("arch", "Ascend910B2")
    if not isinstance(arch, str):
        raise ManifestError('manifest.arch: expected an arch name such as "Ascend910B2"')
    if canonical_arch(arch) not in arch_names():
        raise ManifestError(
            f"manifest.arch: {arch!r} is not a known hardware profile; use one of {', '.join(arch_names())}"
        )
    defines = data.get("defines", {})
    if not isinstance(defines, Mapping) or not all(IDENT.match(str(k)) for k in defines):
        raise ManifestError("manifest.defines: expected an object of macro name -> value")
    raw_args = data.get("args", [])
    if not isinstance(raw_args, list):
        raise ManifestError("manifest.args: expected a list of kernel arguments, in parameter order")
    args = tuple(_arg(at, i, a) for i, a in enumerate(raw_args))
    names = [a.name for a in args]
    if len(set(names)) != len(names):
        raise ManifestError("manifest.args: two arguments have the same name")
    raw_dirs = data.get("include_dirs", [])
    if not isinstance(raw_dirs, list):
        raise ManifestError("manifest.include_dirs: expected a list of folders")
    include_dirs = tuple(_path(at, d, f"include_dirs[{i}]") for i, d in enumerate(raw_dirs))

    def num(
        key: str,
        default: float,
        kind: type = float,
        cap: float = caps.max_seconds,
        setting: str = "sim.max_timeout_s",
    ) -> Any:
        v = data.get(key, default)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
            raise ManifestError(f"manifest.{key}: expected a positive number, got {v!r}")
        if v > cap:
            raise ManifestError(
                f"manifest.{key}: {v:g} is over the limit of {cap:g} ({setting}); ask for less, or "
                f"raise {setting} in akgen.toml if this kernel really needs it"
            )
        return kind(v)

    # The custom-op build defines DTYPE_<NAME> (and ORIG_DTYPE_<NAME>) for every input and output.
    defines = {str(k): str(v) for k, v in defines.items()}
    for a in args:
        if a.dtype and a.kind.startswith("gm"):
            defines.setdefault(f"DTYPE_{a.name.upper()}", DTYPES[a.dtype][1])
            # the ge name, as the build passes it (-DORIG_DTYPE_X=DT_FLOAT16); kernels compare it in #if with DT_*
            defines.setdefault(f"ORIG_DTYPE_{a.name.upper()}", GE_NAMES.get(a.dtype, DTYPES[a.dtype][1]))
    tiling_key = data.get("tiling_key", 0)
    if not isinstance(tiling_key, int):
        raise ManifestError("manifest.tiling_key: expected an integer")
    checks = data.get("checks", "npu")
    if checks not in CHECK_MODES:
        raise ManifestError(
            f'manifest.checks: {checks!r} is not a check mode; use "npu" (the hardware\'s rules, the '
            'default) or "cpu-debug" (stop at every check of CANN\'s CPU-debug library)'
        )
    sanitize = data.get("sanitize", True)
    if not isinstance(sanitize, bool):
        raise ManifestError("manifest.sanitize: expected true or false (the initcheck / racecheck checks)")
    return Manifest(
        path=path,
        root=root,
        sources=sources,
        kernel=kernel,
        block_dim=block_dim,
        arch=arch,
        defines=defines,
        args=args,
        tiling_key=tiling_key,
        block_dim_given="block_dim" in data,
        timeout_s=num("timeout_s", 30.0),
        cpu_s=max(1, num("cpu_s", 20, int)),
        memory_mb=num("memory_mb", 4096, int, caps.max_memory_mb, "sim.max_memory_mb"),
        include_dirs=include_dirs,
        checks=checks,
        sanitize=sanitize,
    )


def load_manifest(
    path: str | Path, settings: Mapping[str, Any] | None = None, *, confine: bool = True
) -> Manifest:
    """The manifest file at `path`, confined to its folder (`confine`: a manifest from outside, the default), its
    limits bounded by `settings` (sim.max_timeout_s, sim.max_memory_mb; default: the settings of the current
    folder)."""
    p = Path(path)
    if settings is None:
        try:
            settings = load_settings(Path.cwd()).as_dict()
        except SettingsError:
            settings = None
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ManifestError(f"manifest not found: {p}") from None
    except json.JSONDecodeError as exc:
        raise ManifestError(f"{p}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    return parse_manifest(data, p.resolve().parent, p, caps_from_settings(settings, confine=confine))
