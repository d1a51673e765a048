"""The sim manifest of one case: the bound tensors written as .npy files, DTYPE_<NAME> defines from the OpDef, ref
outputs that start with their input's values, and the op_host TilingFunc to run for the case's shapes and
attributes (`case_manifest`)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from akgen_lsp.ascendc.arch import ArchProfile
from akgen_lsp.bench import tensorlist
from akgen_lsp.bench.pipeline.binding import C_TYPES
from akgen_lsp.bench.pipeline.parse import _Prepared
from akgen_lsp.bench.pipeline.record import RunSettings
from akgen_lsp.bench.reference import CaseData, Tensor
from akgen_lsp.bench.signature import OpDef, dtype_defines, opdef_column
from akgen_lsp.bench.tasks import Case
from akgen_lsp.sim.host import infer_outputs
from akgen_lsp.sim.manifest import Manifest, parse_manifest


def case_manifest(
    prep: _Prepared,
    binding: list[tuple[str, str, Any]],
    attrs: dict[str, Any],
    op_name: str,
    arch: ArchProfile,
    settings: RunSettings,
    case_dir: Path,
    opdef: OpDef | None,
) -> tuple[dict[str, Any], Manifest]:
    """The case's manifest as written and as parsed. Scratch outputs nothing sized get the shapes the op's
    InferShape gives first (the manifest is then written again). Raises ManifestError."""
    raw = _manifest(prep, binding, attrs, op_name, arch, settings, case_dir, opdef)
    manifest = parse_manifest(raw, case_dir)
    if _size_by_infershape(binding, manifest):
        raw = _manifest(prep, binding, attrs, op_name, arch, settings, case_dir, opdef)
        manifest = parse_manifest(raw, case_dir)
    return raw, manifest


def _size_by_infershape(binding: list[tuple[str, str, Any]], manifest: Manifest) -> bool:
    """Give each scratch output that nothing sized (`_scratch`) the shape the op's own InferShape gives for the
    case's inputs and attributes, as CANN's aclnn allocates it (AddLayerNorm's mean and rstd: (rows, 1), not x's
    shape). True when a shape changed (the manifest is then written again); False, changing nothing, when the op has
    no host source or no InferShape that answers."""
    guessed = [t for k, _n, t in binding if k == "scratch" and getattr(t, "guessed_shape", False)]
    spec_t = manifest.tiling
    if not guessed or spec_t is None or spec_t.host is None:
        return False
    ins, outs = manifest.host_io()
    inferred = infer_outputs(
        spec_t.host,
        ins,
        outs,
        dict(spec_t.attrs),
        spec_t.op,
        values=manifest.host_values(),
        absent=manifest.absent_inputs(),
    )
    if inferred is None or len(inferred) != len(outs):
        return False
    names = [o[0] for o in outs]
    changed = False
    for t in guessed:
        shape = inferred[names.index(t.name)][0] if t.name in names else None
        if shape is not None and tuple(shape) != t.array.shape:
            t.array = np.zeros(shape, dtype=t.array.dtype)
            changed = True
        t.guessed_shape = False  # type: ignore[attr-defined]
    return changed


def _defines(binding: list[tuple[str, str, Any]], opdef: OpDef | None = None) -> dict[str, str]:
    """DTYPE_<NAME> / ORIG_DTYPE_<NAME>: for every OpDef input and output (its dtype from the OpDef column that
    matches the call's tensors, as CANN does), and for every bound kernel parameter."""
    d: dict[str, str] = {}
    # an absent optional input has no dtype of its own: the OpDef column the other tensors pick gives its DTYPE_
    tensors = [
        (name, t)
        for kind, name, t in binding
        if kind in ("in", "inout", "out", "scratch") and t is not None and not getattr(t, "absent", False)
    ]
    if opdef is not None:
        names = opdef.names
        by_name = {n.lower(): n for n in names}
        bound: dict[str, str] = {}
        passed = {name for kind, name, t in binding if kind in ("in", "inout")}
        for i, (name, t) in enumerate(tensors):
            key = by_name.get(name.lower()) or (names[i] if len(tensors) == len(names) else None)
            if key:
                bound[key] = t.dtype
        # the column that also fits the reference outputs' dtypes (Cast: y picks it); else the passed tensors
        # alone pick it: an output's reference dtype is then the task Model's (torch.eq(...).to(int)), not the op's
        if opdef_column(opdef, bound) is None and passed:
            by_param = {
                (by_name.get(n.lower()) or (names[i] if len(tensors) == len(names) else None)): n
                for i, (n, _) in enumerate(tensors)
            }
            bound = {k: v for k, v in bound.items() if by_param.get(k) in passed}
        d.update(dtype_defines(opdef, bound, C_TYPES))
    for name, t in tensors:
        ctype = C_TYPES.get(t.dtype)
        if ctype:
            d.setdefault(f"DTYPE_{name.upper()}", ctype)
            d.setdefault(f"ORIG_DTYPE_{name.upper()}", ctype)
    first = C_TYPES.get(tensors[0][1].dtype) if tensors else None
    for _, name, t in binding:
        if getattr(t, "absent", False) and first:  # no OpDef column says: the first tensor's dtype
            d.setdefault(f"DTYPE_{name.upper()}", first)
            d.setdefault(f"ORIG_DTYPE_{name.upper()}", first)
    return d


def _write_input(path: Path, t: Any) -> None:
    """An input's .npy in the case folder: a link to its file in the reference cache when it is served from there
    (the same bytes, not written again), else written."""
    stored = getattr(t, "stored", None)
    if stored is not None and stored[1] is t.array:
        try:
            os.link(stored[0], path)
            return
        except OSError:
            pass  # gone since (pruned), or another file system: written
    np.save(path, t.array)


def _manifest(
    prep: _Prepared,
    binding: list[tuple[str, str, Any]],
    attrs: dict[str, Any],
    op_name: str,
    arch: ArchProfile,
    settings: RunSettings,
    case_dir: Path,
    opdef: OpDef | None = None,
) -> dict[str, Any]:
    """The sim manifest of one case. With an op_host source, the simulator runs its TilingFunc for the case's
    shapes, dtypes and attributes (block dim, tiling key, workspace and tiling bytes); without one (a kernel-only
    candidate whose task has no host), the kernel runs on every vector core with an empty tiling."""
    args: list[dict[str, Any]] = []
    defines = _defines(binding, opdef)
    ref_of = _ref_outputs(binding, opdef)
    for kind, name, t in binding:
        if isinstance(t, tensorlist.TensorList):
            args.append(tensorlist.manifest_arg(kind, name, t, case_dir, ref_of.get(name)))
        elif kind in ("in", "inout"):
            p = case_dir / f"{name}.npy"
            _write_input(p, t)
            args.append({"name": name, "input": str(p), "dtype": t.dtype})
            if getattr(t, "absent", False):
                args[-1]["absent"] = True  # the TilingFunc sees no tensor there
            if kind == "inout":
                args[-1]["output"] = str(case_dir / f"{name}.out.npy")
        elif kind in ("out", "scratch"):
            args.append(
                {
                    "name": name,
                    "output": str(case_dir / f"{name}.out.npy"),
                    "dtype": _op_output_dtype(kind, name, t.dtype, opdef, defines, binding),
                    "shape": [int(d) for d in t.array.shape],
                }
            )
            if name in ref_of:
                args[-1]["init"] = str(case_dir / f"{ref_of[name]}.npy")
            if kind == "scratch":  # not returned, so not compared: bytes left unwritten there are no mistake
                args[-1]["compared"] = False
        elif kind == "workspace":
            args.append({"name": name, "workspace_bytes": 0})
        elif prep.host is not None:
            args.append(
                {"name": name, "tiling": {"host": str(prep.host), "attrs": _json_attrs(attrs), "op": op_name}}
            )
        else:
            # No host: the kernel gets a zeroed tiling buffer (a kernel-only candidate hard-codes its tiling).
            args.append({"name": name, "workspace_bytes": 64})
    raw: dict[str, Any] = {
        "sources": [str(prep.kernel)],
        "kernel": prep.entry,
        "arch": arch.name,
        "defines": defines,
        "args": args,
        "timeout_s": settings.run_timeout_s,
        "cpu_s": settings.run_cpu_s,
        "checks": settings.checks,
    }
    if prep.host is None or not any(k == "tiling" for k, _, _ in binding):
        raw["block_dim"] = int(settings.block_dim or arch.aiv_cores)
    return raw


def _ref_outputs(binding: list[tuple[str, str, Any]], opdef: OpDef | None) -> dict[str, str]:
    """Output parameter -> the input parameter whose buffer it is. An OpDef output named like an input
    (StridedSliceAssignV2's ``var``) is a ref: CANN's aclnn API takes one tensor for both (``varRef``) and the kernel
    gets its address twice, so the output starts with the input's values and the kernel writes only what it
    changes. Mapped by position when the kernel's tensors are the OpDef's inputs then outputs; only a plain input of
    the output's dtype and size qualifies."""
    if opdef is None:
        return {}
    tensors = [(k, n, t) for k, n, t in binding if k in ("in", "inout", "out", "scratch") and t is not None]
    names = opdef.names
    if len(tensors) != len(names):
        return {}
    in_names = [p.name for p in opdef.inputs]
    out: dict[str, str] = {}
    for j in range(len(in_names), len(names)):
        kind, name, t = tensors[j]
        if kind not in ("out", "scratch") or names[j] not in in_names:  # a scratch ref too (not returned)
            continue
        k_in, n_in, t_in = tensors[in_names.index(names[j])]
        if k_in != "in":
            continue
        if (
            isinstance(t_in, Tensor)
            and isinstance(t, Tensor)
            and t_in.dtype == t.dtype
            and t_in.array.nbytes == t.array.nbytes
        ):
            out[name] = n_in
        elif (
            isinstance(t_in, tensorlist.TensorList)
            and isinstance(t, tensorlist.TensorList)
            and len(t_in.items) == len(t.items)
            and all(
                a.dtype == b.dtype and a.array.nbytes == b.array.nbytes
                for a, b in zip(t_in.items, t.items, strict=True)
            )
        ):
            out[name] = n_in  # a ref list (ScatterList's var): element k starts with input element k
    return out


def _outputs_and_initial(binding: list[tuple[str, str, Any]], opdef: OpDef | None) -> list[tuple[Any, Any]]:
    """(expected, initial content) of each output the kernel writes: a ref output starts with its input's values, an
    inout argument with its own input values, a plain output or scratch buffer with nothing (None)."""
    ref_of = _ref_outputs(binding, opdef)
    by_name = {n: t for _k, n, t in binding}
    out: list[tuple[Any, Any]] = []
    for kind, name, t in binding:
        if kind == "out":
            init = by_name.get(ref_of[name]) if name in ref_of else None
            out.append((t.array, None if init is None else init.array))
        elif kind == "inout":
            out.append((t.expected.array, t.array) if t.expected is not None else (t.array, None))
        elif kind == "scratch":
            out.append((t.array, None))
    return out


def _op_output_dtype(
    kind: str,
    name: str,
    ref_dtype: str,
    opdef: OpDef | None,
    defines: dict[str, str],
    binding: list[tuple[str, str, Any]],
) -> str:
    """The dtype the kernel writes an output in: the op's (the OpDef column CANN picks for the call, as in
    DTYPE_<NAME>), which can differ from the reference result's: Equal/IsFinite/IsInf write bool where the task's
    Model returns ``.to(int)`` / ``.to(x.dtype)``, Muls writes x's dtype where ``x * value`` promotes to float64. The
    comparison widens both to float64, as the task's check does after its pybind converts. The kernel parameter is
    the OpDef parameter of the same name, else of the same position (as in `_defines`)."""
    if kind != "out" or opdef is None:
        return ref_dtype
    names = opdef.names
    tensors = [n for k, n, t in binding if k in ("in", "inout", "out", "scratch") and t is not None]
    key = {n.lower(): n for n in names}.get(name.lower())
    if key is None and len(tensors) == len(names) and name in tensors:
        key = names[tensors.index(name)]
    by_ctype = {c: d for d, c in C_TYPES.items()}
    return by_ctype.get(defines.get(f"DTYPE_{(key or name).upper()}", ""), ref_dtype)


def _host_reads_values(host: Path | None) -> bool:
    """Whether the op_host sources read an input's data (``GetInputTensor(i)`` / ``GetOptionalInputTensor``)."""
    if host is None:
        return False
    for f in [host, *sorted(host.parent.glob("*.cpp")), *sorted(host.parent.glob("*.cc"))]:
        try:
            if re.search(
                r"\bGet(?:Optional|Dynamic)?InputTensor\s*\(", f.read_text(encoding="utf-8", errors="replace")
            ):
                return True
        except OSError:
            continue
    return False


def _json_attrs(attrs: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in attrs.items():
        if isinstance(v, (bool, int, float, str)):
            out[k] = v
        elif isinstance(v, (list, tuple)) and all(isinstance(e, (int, float)) for e in v):
            out[k] = list(v)
        elif hasattr(v, "item"):
            try:
                out[k] = v.item()
            except (ValueError, RuntimeError):
                continue  # a tensor of many elements is not an attribute
    return out


def _attrs(data: CaseData, case: Case) -> dict[str, Any]:
    """Attributes for the host TilingFunc: the case's non-shape, non-dtype columns (NaN cells dropped), then the
    non-tensor values of get_inputs / get_init_inputs."""
    attrs: dict[str, Any] = {}
    for k, v in case.items():
        if k == "case_id" or "shape" in k.lower() or "dtype" in k.lower() or v is None:
            continue
        if isinstance(v, float) and v != v:
            continue
        attrs[k] = v
    attrs.update(data.attrs)
    return attrs
