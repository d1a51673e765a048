"""Run a built kernel in the sandbox and read back what happened.

Data exchange: Python converts each `.npy` input to a raw binary in the run directory and each raw output back to
`.npy` (dtype and shape from the manifest), so the launcher needs no .npy parser. The launcher gets a line-oriented
spec (``key value``; ``arg gm NAME MODE BYTES PATH``, ``arg scalar NAME VALUE``, ``arg tiling NAME BYTES k=v;...``,
``cost OP STARTUP SLOPE``, ``bw PATH GIBPS``, limits) and writes JSON lines to ``events.jsonl``: findings as they
happen, one summary and one trace per block, a crash/timeout/sandbox record from its signal handler, ``done``.

Sandbox (see docs/sim.md, "Security model"): the launcher runs in the kernel box of akgen_lsp/sandbox (namespaces,
a read-only view of its binary and the system's libraries, the run directory its only writable folder, seccomp and
rlimits in force before its first instruction, the process tree killed at the wall-clock limit, output capped).
Inside, the launcher's own early setup adds its allow-list filter and rlimits (defence in depth). What the box
writes back (events.jsonl) is read as untrusted (events.py); the status is decided here from the exit status.
"""

from __future__ import annotations

import contextlib
import functools
import shutil
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from akgen_lsp.ascendc.arch import ArchProfile
from akgen_lsp.findings import Finding, Severity, Span
from akgen_lsp.sandbox import RUN_DISK_BYTES, Limits, MiB, Policy, SandboxUnavailable, run_confined
from akgen_lsp.sim import cost
from akgen_lsp.sim.build_types import Build
from akgen_lsp.sim.events import (
    EventCheck,
    box_outcome,
    dedupe,
    kernel_files,
    read_events,
    read_regular,
    unfinished,
    valid_block,
    write_fresh,
)
from akgen_lsp.sim.later import later, remove_later
from akgen_lsp.sim.manifest import DTYPES, Arg, Manifest

TILING_BYTES = 65536


@dataclass
class Run:
    status: str  # ok | runtime_error | timeout | crash
    findings: list[Finding]
    outputs: dict[str, str]
    estimate: dict[str, Any]
    trace: str | None
    sandbox: dict[str, Any]
    blocks: list[dict[str, Any]] = field(default_factory=list)
    stdout: str = ""
    kernel_us: float = 0.0
    wall_s: float = 0.0
    warnings: list[str] = field(default_factory=list)
    start_s: float = 0.0  # the box's setup, before the launcher's first instruction
    to_main_s: float | None = (
        None  # from the call to the launcher's main (reported by the box: benchmarks only)
    )


def _escape_value(v: Any) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, list):
        return ",".join(_escape_value(e) for e in v)
    return repr(v) if isinstance(v, float) else str(v)


@dataclass
class HostOverrides:
    """What an op_host TilingFunc decided: block dim, tiling key, workspace bytes and the raw tiling bytes."""

    block_dim: int
    tiling_key: int
    workspace: int
    tiling: Path


def _same_file(a: Any, b: Any) -> bool:
    try:
        return a is not None and b is not None and Path(a).resolve() == Path(b).resolve()
    except (OSError, TypeError, ValueError):
        return False


def ref_targets(args: Sequence[Arg]) -> dict[str, str]:
    """Ref outputs -> the input whose GM buffer they are. CANN's aclnn API takes one tensor (or tensor list) for an
    OpDef input and the output of the same name (``varRef``), so the kernel gets the same address twice: what it
    writes through either parameter is the output. The manifest marks such an output by its ``init`` (the input's
    .npy); it aliases the EARLIER input argument whose .npy that is, of the same size (a list: element by element).
    An output whose init is no earlier input keeps a buffer of its own that starts with the init values."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for j, o in enumerate(args):
        for i in args[:j]:
            if i.name in taken:
                continue
            plain = (
                o.kind == "gm_out"
                and o.init is not None
                and i.kind == "gm_in"
                and i.nbytes == o.nbytes
                and _same_file(i.value, o.init)
            )
            listed = (
                o.kind == "gm_list"
                and i.kind == "gm_list"
                and len(i.items) == len(o.items)
                and bool(o.items)
                and all(
                    e.kind == "gm_out"
                    and e.init is not None
                    and f.kind == "gm_in"
                    and f.nbytes == e.nbytes
                    and _same_file(f.value, e.init)
                    for e, f in zip(o.items, i.items, strict=True)
                )
            )
            if not (plain or listed):
                continue
            out[o.name] = i.name
            taken.add(i.name)
            break
    return out


def npy_data_offset(path: Path, dtype: np.dtype[Any], nbytes: int) -> int | None:
    """Where the data of an .npy file starts when the launcher can read it in place (C order, exactly the element type
    the kernel takes, `nbytes` of data and nothing after it); None when the runner must write a raw copy."""
    fmt = np.lib.format
    try:
        with open(path, "rb") as fh:
            version = fmt.read_magic(fh)
            if version == (1, 0):
                shape, fortran, dt = fmt.read_array_header_1_0(fh)
            elif version == (2, 0):
                shape, fortran, dt = fmt.read_array_header_2_0(fh)
            else:
                return None
            offset = fh.tell()
        size = path.stat().st_size
    except (OSError, ValueError):
        return None
    if (fortran and len(shape) > 1) or dt.hasobject or dt != dtype:
        return None
    if int(np.prod(shape, dtype=np.int64)) * dt.itemsize != nbytes or size != offset + nbytes:
        return None
    return offset


def _write_spec(
    manifest: Manifest, run_dir: Path, params: list[str], host: HostOverrides | None = None
) -> tuple[Path, dict[str, Path], list[Path]]:
    """The launcher's spec file, the outputs' raw files by name, and the input files the launcher reads in place (the
    kernel's box shows them read-only)."""
    block_dim = (
        host.block_dim if host and host.block_dim > 0 and not manifest.block_dim_given else manifest.block_dim
    )
    key = host.tiling_key if host else manifest.tiling_key
    lines = [
        f"events {run_dir / 'events.jsonl'}",
        f"block_dim {block_dim}",
        f"tiling_key {key}",
        f"cpu_s {manifest.cpu_s}",
        f"as_bytes {manifest.memory_mb * 1024 * 1024}",
        f"fsize_bytes {1 << 30}",
        f"checks {manifest.checks}",
        f"sanitize {int(manifest.sanitize)}",
        *params,
    ]
    raw_out: dict[str, Path] = {}
    in_place: list[Path] = []
    ref_of = ref_targets(manifest.args)  # output -> the input whose buffer it is
    read_back = {i: o for o, i in ref_of.items()}
    for a in manifest.args:
        if a.name in ref_of:
            lines.append(f"arg ref {a.name} {ref_of[a.name]}")
        elif a.kind == "gm_in" and a.name in read_back:
            # the input buffer of a ref output: read in place, and read back as that output
            src = run_dir / f"{a.name}.in.bin"
            arr = np.load(str(a.value), allow_pickle=False)
            np.ascontiguousarray(arr).astype(
                np.dtype(DTYPES[a.dtype or str(arr.dtype)][0]), copy=False
            ).tofile(src)
            raw_out[read_back[a.name]] = src
            lines.append(f"arg gm {a.name} inout {a.nbytes} {src}")
        elif a.kind == "gm_list" and a.name in read_back:
            from akgen_lsp.sim.tensorlist import spec_lines

            out_list = next(o for o in manifest.args if o.name == read_back[a.name])
            lines += spec_lines(a, run_dir, raw_out, read_back_as=[e.name for e in out_list.items])
        elif (
            a.kind == "gm_in" and a.absent
        ):  # an optional input the call leaves out: a null GM_ADDR, as from aclnn
            lines.append(f"arg gm {a.name} null 0 -")
        elif (
            a.kind == "gm_in"
            and a.dtype in DTYPES
            and (offset := npy_data_offset(Path(a.value), np.dtype(DTYPES[a.dtype][0]), a.nbytes)) is not None
        ):
            in_place.append(Path(a.value).resolve())
            lines.append(f"arg gm {a.name} in:{offset} {a.nbytes} {in_place[-1]}")
        elif a.kind in ("gm_in", "gm_inout"):
            src = run_dir / f"{a.name}.in.bin"
            arr = np.load(str(a.value), allow_pickle=False)
            np.ascontiguousarray(arr).astype(
                np.dtype(DTYPES[a.dtype or str(arr.dtype)][0]), copy=False
            ).tofile(src)
            if (
                a.absent
            ):  # an optional input the call leaves out: the kernel gets a null GM_ADDR, as from aclnn
                lines.append(f"arg gm {a.name} null 0 -")
            elif a.kind == "gm_in":
                lines.append(f"arg gm {a.name} in {a.nbytes} {src}")
            else:
                out = run_dir / f"{a.name}.in.bin"
                raw_out[a.name] = out
                lines.append(f"arg gm {a.name} inout {a.nbytes} {out}")
        elif a.kind == "gm_out":
            out = run_dir / f"{a.name}.out.bin"
            raw_out[a.name] = out
            if (
                a.init is not None
            ):  # a ref output: it starts with its input's values (read and written in place)
                arr = np.load(str(a.init), allow_pickle=False)
                np.ascontiguousarray(arr).astype(
                    np.dtype(DTYPES[a.dtype or str(arr.dtype)][0]), copy=False
                ).tofile(out)
                lines.append(f"arg gm {a.name} inout {a.nbytes} {out}")
            else:
                lines.append(f"arg gm {a.name} out {a.nbytes} {out}")
            if not a.compared:  # unwritten bytes of it are an information (SIM-GM-UNWRITTEN)
                lines.append(f"uncompared {a.name}")
        elif a.kind == "gm_list":
            from akgen_lsp.sim.tensorlist import spec_lines

            lines += spec_lines(a, run_dir, raw_out)
        elif a.kind == "workspace":
            nbytes = max(a.nbytes, host.workspace) if host else a.nbytes
            lines.append(f"arg gm {a.name} workspace {nbytes} -")
        elif a.kind == "scalar":
            lines.append(f"arg scalar {a.name} {_escape_value(a.value)}")
        elif a.kind == "tiling" and host is not None:
            lines.append(f"arg gm {a.name} in {max(host.tiling.stat().st_size, 32)} {host.tiling}")
        elif a.kind == "tiling":
            fields = a.tiling.fields if a.tiling else {}
            kv = ";".join(f"{k}={_escape_value(v)}" for k, v in fields.items())
            lines.append(f"arg tiling {a.name} {TILING_BYTES} {kv}")
    spec = run_dir / "spec.txt"
    spec.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return spec, raw_out, in_place


def kernel_policy(build: Build, manifest: Manifest, run_dir: Path, inputs: Sequence[Path] = ()) -> Policy:
    """The kernel's box: its binary and the input files the launcher reads in place read-only, the run folder (spec,
    raw inputs, outputs, events) its only writable one, the manifest's limits (the launcher sets the same CPU and
    memory limits on itself, and more)."""
    limits = Limits(
        wall_s=manifest.timeout_s,
        cpu_s=manifest.cpu_s + 1,
        as_bytes=(manifest.memory_mb + 512) * MiB,
        fsize_bytes=FSIZE_BYTES,
        disk_bytes=DISK_BYTES,
    )
    assert build.binary is not None
    return Policy("kernel", limits, read_only=[build.binary.parent, *inputs], writable=[run_dir], cwd=run_dir)


FSIZE_BYTES = 1 << 30
DISK_BYTES = RUN_DISK_BYTES  # all the kernel's writes together (docs/security.md, "Resources")


def variant_of(build: Build, defines: Mapping[str, str]) -> int | None:
    """Which define set of a build with several (`BuildOptions.variants`) `defines` select; None if none does."""
    return next((i for i, v in enumerate(build.variants) if all(defines.get(k) == val for k, val in v)), None)


def host_tiling(manifest: Manifest, profile: Any) -> Any:
    """The manifest's op_host TilingFunc run on its inputs (a `host.HostTiling`); the manifest has a tiling host."""
    from akgen_lsp.sim.host import run_host_tiling

    spec_t = manifest.tiling
    assert spec_t is not None and spec_t.host is not None
    ins, outs = manifest.host_io()
    return run_host_tiling(
        spec_t.host,
        ins,
        outs,
        dict(spec_t.attrs),
        profile,
        spec_t.op,
        values=manifest.host_values(),
        absent=manifest.absent_inputs(),
        include_dirs=manifest.include_dirs,
    )


def run_build(build: Build, manifest: Manifest, out_dir: Path | None = None, trace: bool = True) -> Run:
    """Run `build` on the data of `manifest`. Outputs go to `out_dir` (named like the manifest's output files), or
    next to the manifest's output paths when `out_dir` is None."""
    if not build.ok or build.binary is None:
        raise ValueError("run_build needs a successful build; check build.ok and build.findings first")
    profile, warnings = cost.profile_for(manifest.arch)
    params, more = cost.launcher_params(profile)
    warnings += more
    if build.variants:  # a build of several define sets: the one of this case's defines
        index = variant_of(build, manifest.defines)
        if index is None:
            raise ValueError(f"the build has no variant for the defines {dict(manifest.defines)}")
        params = [*params, f"variant {index}"]
    fallback = str(manifest.sources[0])
    run_dir = Path(tempfile.mkdtemp(prefix="akgen-run-"))
    host: HostOverrides | None = None
    spec_t = manifest.tiling
    if spec_t is not None and spec_t.host is not None:
        ht = host_tiling(manifest, profile)
        if not ht.ok:
            _cleanup(run_dir, set())
            status = "compile_error" if any(f.code == "CXX" for f in ht.findings) else "runtime_error"
            return Run(
                status=status,
                findings=ht.findings,
                outputs={},
                estimate={},
                trace=None,
                sandbox={},
                stdout=ht.stdout,
                warnings=warnings,
            )
        tpath = run_dir / "tiling.bin"
        tpath.write_bytes(ht.tiling)
        host = HostOverrides(ht.block_dim, ht.tiling_key, sum(ht.workspace), tpath)
    spec, raw_out, in_place = _write_spec(manifest, run_dir, params, host)
    t0 = time.perf_counter()
    called_ns = time.monotonic_ns()
    try:
        res = run_confined([str(build.binary), str(spec)], kernel_policy(build, manifest, run_dir, in_place))
    except SandboxUnavailable as exc:
        _cleanup(run_dir, set())
        return Run(
            status="runtime_error",
            findings=[
                Finding(
                    "SIM-SANDBOX-UNAVAILABLE",
                    str(exc),
                    Span.point(fallback, 1),
                    source="akgen-run",
                    error_class="harness",
                )
            ],
            outputs={},
            estimate={},
            trace=None,
            sandbox={"mode": "on", "available": False},
            warnings=warnings,
        )
    wall = time.perf_counter() - t0
    events, bad_lines = read_events(run_dir / "events.jsonl")
    # the kernel's own files: its sources, the headers beside them and in its include folders, its tiling header and
    # every other file of the user's that the compiler read (a header of a sibling folder, "../inc/platform.h")
    check = EventCheck(
        kernel_files(
            manifest.sources,
            manifest.include_dirs,
            [*([manifest.tiling.header] if manifest.tiling and manifest.tiling.header else []), *build.deps],
        ),
        fallback,
    )
    if bad_lines:
        check.reject(f"{bad_lines} line(s) that are not simulator records")
    findings: list[Finding] = []
    blocks: list[dict[str, Any]] = []
    traces: dict[int, list[list[Any]]] = {}
    kernel_us = 0.0
    terminal: dict[str, Any] | None = None
    setup_failed = done = False
    to_main: float | None = None
    for ev in events:
        kind = ev.get("kind")
        if kind == "finding":
            f = check.finding(ev)
            if f is not None:
                findings.append(f)
        elif kind == "block":
            if valid_block(ev):
                blocks.append(ev)
            else:
                check.reject("a malformed block summary")
        elif kind == "trace":
            if isinstance(ev.get("block"), int) and isinstance(ev.get("events"), list):
                traces[ev["block"]] = ev["events"]
        elif kind in ("crash", "timeout", "forbidden"):
            terminal = check.terminal(ev)
        elif kind == "guard":
            findings.append(
                Finding(
                    code="SIM-GM-GUARD",
                    severity=Severity.ERROR,
                    source="akgen-run",
                    error_class="memory",
                    span=Span.point(fallback, 1),
                    data={"cwe": 787},
                    message=(
                        f"bytes just outside GM buffer '{str(ev.get('name'))[:200]}' were overwritten: a write past "
                        "the buffer that bypassed the API checks (a raw pointer?)"
                    ),
                )
            )
        elif kind == "setup_error":
            setup_failed = True
            findings.append(
                Finding(
                    code="SIM-SETUP",
                    message=f"the launcher could not start: {str(ev.get('message'))[:2000]}",
                    span=Span.point(fallback, 1),
                    source="akgen-run",
                )
            )
        elif kind == "sandbox" and isinstance(ev.get("main_ns"), int):
            to_main = (ev["main_ns"] - called_ns) / 1e9  # a figure for benchmarks (the box could fake it)
        elif kind == "done":
            done = True
            kernel_us = float(ev["kernel_us"]) if isinstance(ev.get("kernel_us"), (int, float)) else 0.0
    status, last = box_outcome(res, terminal, setup_failed, fallback)
    if last is not None:
        findings.append(last)
    elif status == "ok" and not done:
        status = "crash"
        findings.append(unfinished(fallback))
    if (forged := check.summary()) is not None:
        findings.append(forged)
    findings = dedupe(findings)
    if status == "ok" and any(f.severity is Severity.ERROR for f in findings):
        status = "runtime_error"
    if status == "ok" and any(b.get("status") != "ok" for b in blocks):
        status = "runtime_error"
    est = (
        cost.estimate(blocks, profile)
        if blocks
        else {"label": "estimate", "us": None, "arch": manifest.arch, "bound": None, "pipes": {}}
    )
    dest = out_dir
    outputs: dict[str, str] = {}
    trace_path: str | None = None
    if dest is not None:
        dest.mkdir(parents=True, exist_ok=True)
    if status in ("ok", "runtime_error"):
        for a in manifest.flat_args():
            if a.name not in raw_out:
                continue
            np_dtype = np.dtype(DTYPES[a.dtype or "float32"][0])
            raw = read_regular(raw_out[a.name], a.nbytes + 1)
            if raw is None or len(raw) != a.nbytes:
                continue
            data = np.frombuffer(raw, dtype=np_dtype)
            shape = a.shape or (data.size,)
            if data.size != int(np.prod(shape)):
                continue
            target = output_target(a, dest)
            if target is None:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            np.save(target, data.reshape(shape))
            outputs[a.name] = str(target)
    missing = [name for name in raw_out if name not in outputs]
    if status == "ok" and missing:  # what the launcher writes last: a run that ends before it is not ok
        status = "crash"
        findings.append(
            Finding(
                "SIM-OUTPUT-MISSING",
                f"the kernel process ended without the simulator writing "
                f"output {', '.join(missing)} (an exit from the kernel's code, or a forged end of the "
                "run)",
                Span.point(fallback, 1),
                severity=Severity.ERROR,
                source="akgen-run",
                error_class="runtime",
            )
        )
    if trace and blocks:
        tdir = dest if dest is not None else run_dir
        tpath = tdir / "trace.json"
        # only read later (a user opens it): in a check job, written after the job's answer (sim/later.py)
        later(functools.partial(_write_trace, tpath, traces, blocks, profile, fallback), makes=tpath)
        trace_path = str(tpath)
    _cleanup(run_dir, keep={Path(trace_path)} if trace_path and dest is None else set())
    return Run(
        status=status,
        findings=findings,
        outputs=outputs,
        estimate=est,
        trace=trace_path,
        sandbox=res.sandbox,
        blocks=blocks,
        stdout=res.output,
        kernel_us=kernel_us,
        wall_s=wall,
        warnings=warnings,
        start_s=res.start_s,
        to_main_s=to_main,
    )


def output_target(a: Arg, dest: Path | None) -> Path | None:
    """Where an output's .npy goes: inside `dest` under the output's own file name, or, without `dest`, at its
    manifest path (confined to the manifest's folder when the manifest came from a file)."""
    if a.path is None:
        return None
    if dest is None:
        return a.path
    name = a.path.name
    if name in ("", ".", "..") or "/" in name:
        return None
    return dest / name


def _write_trace(
    path: Path,
    traces: dict[int, list[list[Any]]],
    blocks: list[dict[str, Any]],
    profile: ArchProfile | None,
    source: str,
) -> None:
    write_fresh(path, cost.chrome_trace(traces, blocks, profile, source))


def _cleanup(run_dir: Path, keep: set[Path]) -> None:
    """Remove the run folder (without following anything the box left in it), or all of it but `keep`."""
    if not keep:
        remove_later(run_dir)
        return
    for p in run_dir.iterdir():
        if p in keep:
            continue
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                p.unlink()
