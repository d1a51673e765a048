"""Run a built kernel in the sandbox and read back what happened.

Data exchange: Python converts each `.npy` input to a raw binary in the run directory and each raw output back to
`.npy` (dtype and shape from the manifest), so the launcher needs no .npy parser. The launcher gets a line-oriented
spec (``key value``; ``arg gm NAME MODE BYTES PATH``, ``arg scalar NAME VALUE``, ``arg tiling NAME BYTES k=v;...``,
``cost OP STARTUP SLOPE``, ``bw PATH GIBPS``, limits) and writes JSON lines to ``events.jsonl``: findings as they
happen, one summary and one trace per block, a crash/timeout/sandbox record from its signal handler, ``done``.

Sandbox (see docs/sim.md): a fresh run directory, a scrubbed environment, its own process group killed on a
wall-clock timeout (SIGTERM, then SIGKILL), and, inside the launcher before any user code runs: rlimits (CPU
seconds, address space, file size, no core files, no processes), network unshare where the kernel allows it, and a
seccomp allow-list that turns open/fork/exec/socket into a reported finding.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from akgen_lsp.findings import Finding, Severity, Span
from akgen_lsp.sim import cost
from akgen_lsp.sim.build_types import Build
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
            plain = (o.kind == "gm_out" and o.init is not None and i.kind == "gm_in" and i.nbytes == o.nbytes
                     and _same_file(i.value, o.init))
            listed = (o.kind == "gm_list" and i.kind == "gm_list" and len(i.items) == len(o.items) and bool(o.items)
                      and all(e.kind == "gm_out" and e.init is not None and f.kind == "gm_in"
                              and f.nbytes == e.nbytes and _same_file(f.value, e.init)
                              for e, f in zip(o.items, i.items, strict=True)))
            if not (plain or listed):
                continue
            out[o.name] = i.name
            taken.add(i.name)
            break
    return out


def _write_spec(manifest: Manifest, run_dir: Path, params: list[str],
                host: HostOverrides | None = None) -> tuple[Path, dict[str, Path]]:
    block_dim = host.block_dim if host and host.block_dim > 0 and not manifest.block_dim_given else manifest.block_dim
    key = host.tiling_key if host else manifest.tiling_key
    lines = [f"events {run_dir / 'events.jsonl'}", f"block_dim {block_dim}",
             f"tiling_key {key}", f"cpu_s {manifest.cpu_s}",
             f"as_bytes {manifest.memory_mb * 1024 * 1024}", f"fsize_bytes {1 << 30}", f"checks {manifest.checks}",
             f"sanitize {int(manifest.sanitize)}", *params]
    raw_out: dict[str, Path] = {}
    ref_of = ref_targets(manifest.args)  # output -> the input whose buffer it is
    read_back = {i: o for o, i in ref_of.items()}
    for a in manifest.args:
        if a.name in ref_of:
            lines.append(f"arg ref {a.name} {ref_of[a.name]}")
        elif a.kind == "gm_in" and a.name in read_back:
            # the input buffer of a ref output: read in place, and read back as that output
            src = run_dir / f"{a.name}.in.bin"
            arr = np.load(str(a.value), allow_pickle=False)
            np.ascontiguousarray(arr).astype(np.dtype(DTYPES[a.dtype or str(arr.dtype)][0]), copy=False).tofile(src)
            raw_out[read_back[a.name]] = src
            lines.append(f"arg gm {a.name} inout {a.nbytes} {src}")
        elif a.kind == "gm_list" and a.name in read_back:
            from akgen_lsp.sim.tensorlist import spec_lines

            out_list = next(o for o in manifest.args if o.name == read_back[a.name])
            lines += spec_lines(a, run_dir, raw_out, read_back_as=[e.name for e in out_list.items])
        elif a.kind in ("gm_in", "gm_inout"):
            src = run_dir / f"{a.name}.in.bin"
            arr = np.load(str(a.value), allow_pickle=False)
            np.ascontiguousarray(arr).astype(np.dtype(DTYPES[a.dtype or str(arr.dtype)][0]), copy=False).tofile(src)
            if a.absent:  # an optional input the call leaves out: the kernel gets a null GM_ADDR, as from aclnn
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
            if a.init is not None:  # a ref output: it starts with its input's values (read and written in place)
                arr = np.load(str(a.init), allow_pickle=False)
                np.ascontiguousarray(arr).astype(np.dtype(DTYPES[a.dtype or str(arr.dtype)][0]), copy=False).tofile(out)
                lines.append(f"arg gm {a.name} inout {a.nbytes} {out}")
            else:
                lines.append(f"arg gm {a.name} out {a.nbytes} {out}")
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
    return spec, raw_out


def _read_events(path: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if not path.is_file():
        return out
    with path.open(encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return out


_CRASH_CODE = {"crash": "SIM-CRASH", "timeout": "SIM-TIMEOUT", "forbidden": "SIM-SANDBOX"}


def _finding_from_event(ev: dict[str, Any], fallback: str) -> Finding:
    path = ev.get("file") or fallback
    line = int(ev.get("line") or 1)
    col = int(ev.get("column") or 1)
    sev = Severity(ev.get("severity", "error")) if ev.get("severity") in ("error", "warning", "info") else \
        Severity.ERROR
    data = {k: ev[k] for k in ("block", "function", "api", "cwe") if k in ev}
    return Finding(code=str(ev.get("code", "SIM")), message=str(ev.get("message", "")),
                   span=Span(path, line, col, line, col), severity=sev, source="akgen-run",
                   error_class=ev.get("error_class"), data=data)


def _crash_finding(ev: dict[str, Any], fallback: str) -> Finding:
    kind = ev.get("kind", "crash")
    api = ev.get("api") or ""
    where = f" after the last API call ({api}) here" if api else " (no API call was made before it)"
    if kind == "forbidden":
        sc = ev.get("syscall") or f"#{ev.get('syscall_nr')}"
        msg = (f"the kernel made a forbidden system call ({sc}): device code may not open files, start processes "
               f"or use the network; the sandbox stopped it{where}")
    elif kind == "timeout":
        msg = f"the kernel ran out of time: {ev.get('reason', '')}; stopped{where}"
    else:
        msg = f"the kernel crashed with {ev.get('reason', 'a signal')}{where}"
    blk = ev.get("block", -1)
    if isinstance(blk, int) and blk >= 0:
        msg += f" [block {blk}]"
    file = ev.get("file") or fallback
    line = int(ev.get("line") or 1)
    col = int(ev.get("column") or 1)
    return Finding(code=_CRASH_CODE.get(kind, "SIM-CRASH"), message=msg, span=Span(file, line, col, line, col),
                   severity=Severity.ERROR, source="akgen-run", error_class="runtime",
                   data={k: ev[k] for k in ("block", "signal", "syscall", "function", "api") if k in ev})


def _dedupe(findings: list[Finding]) -> list[Finding]:
    """The same check at the same line in many blocks is one finding listing the blocks."""
    seen: dict[tuple[str, str, int, str, str], int] = {}
    out: list[Finding] = []
    for f in findings:
        # severity is part of the key: npu mode warns for a CPU-debug check at a line where the physical bound check
        # of the same code can fail in another block
        key = (f.code, f.span.path, f.span.line, f.message if "block" not in f.data else "", f.severity.value)
        blk = f.data.get("block")
        if key in seen:
            prev = out[seen[key]]
            blocks = list(prev.data.get("blocks", []))
            if blk is not None and blk not in blocks:
                blocks.append(blk)
            out[seen[key]] = Finding(prev.code, prev.message, prev.span, prev.severity, prev.source, prev.error_class,
                                     prev.fixes, {**prev.data, "blocks": blocks})
            continue
        seen[key] = len(out)
        data = dict(f.data)
        if blk is not None:
            data["blocks"] = [blk]
        out.append(Finding(f.code, f.message, f.span, f.severity, f.source, f.error_class, f.fixes, data))
    return out


def _scrubbed_env() -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "LANG": "C", "LC_ALL": "C", "HOME": "/nonexistent"}


def run_build(build: Build, manifest: Manifest, out_dir: Path | None = None, trace: bool = True) -> Run:
    """Run `build` on the data of `manifest`. Outputs go to `out_dir` (named like the manifest's output files), or
    next to the manifest's output paths when `out_dir` is None."""
    if not build.ok or build.binary is None:
        raise ValueError("run_build needs a successful build; check build.ok and build.findings first")
    profile, warnings = cost.profile_for(manifest.arch)
    params, more = cost.launcher_params(profile)
    warnings += more
    fallback = str(manifest.sources[0])
    run_dir = Path(tempfile.mkdtemp(prefix="akgen-run-"))
    host: HostOverrides | None = None
    spec_t = manifest.tiling
    if spec_t is not None and spec_t.host is not None:
        from akgen_lsp.sim.host import run_host_tiling

        ins, outs = manifest.host_io()
        ht = run_host_tiling(spec_t.host, ins, outs, dict(spec_t.attrs), profile, spec_t.op,
                             values=manifest.host_values(), absent=manifest.absent_inputs())
        if not ht.ok:
            _cleanup(run_dir, set())
            status = "compile_error" if any(f.code == "CXX" for f in ht.findings) else "runtime_error"
            return Run(status=status, findings=ht.findings, outputs={}, estimate={}, trace=None,
                       sandbox={}, stdout=ht.stdout, warnings=warnings)
        tpath = run_dir / "tiling.bin"
        tpath.write_bytes(ht.tiling)
        host = HostOverrides(ht.block_dim, ht.tiling_key, sum(ht.workspace), tpath)
    spec, raw_out = _write_spec(manifest, run_dir, params, host)
    t0 = time.perf_counter()
    proc = subprocess.Popen([str(build.binary), str(spec)], cwd=run_dir, env=_scrubbed_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    stdout, timed_out = wait_output(proc, manifest.timeout_s)
    wall = time.perf_counter() - t0
    events = _read_events(run_dir / "events.jsonl")
    findings: list[Finding] = []
    blocks: list[dict[str, Any]] = []
    traces: dict[int, list[list[Any]]] = {}
    sandbox: dict[str, Any] = {"rlimits": True, "timeout_s": manifest.timeout_s, "process_group": True,
                               "scrubbed_env": True}
    status = "ok"
    kernel_us = 0.0
    terminal: dict[str, Any] | None = None
    for ev in events:
        kind = ev.get("kind")
        if kind == "finding":
            findings.append(_finding_from_event(ev, fallback))
        elif kind == "block":
            blocks.append(ev)
        elif kind == "trace":
            traces[int(ev.get("block", 0))] = ev.get("events", [])
        elif kind == "sandbox":
            sandbox["seccomp"] = bool(ev.get("seccomp"))
            sandbox["net_isolated"] = bool(ev.get("net_isolated"))
        elif kind in _CRASH_CODE:
            terminal = ev
        elif kind == "guard":
            findings.append(Finding(
                code="SIM-GM-GUARD", severity=Severity.ERROR, source="akgen-run", error_class="memory",
                span=Span.point(fallback, 1), data={"cwe": 787},
                message=(f"bytes just outside GM buffer '{ev.get('name')}' were overwritten: a write past the "
                         "buffer that bypassed the API checks (a raw pointer?)")))
        elif kind == "setup_error":
            findings.append(Finding(code="SIM-SETUP", message=f"the launcher could not start: {ev.get('message')}",
                                    span=Span.point(fallback, 1), source="akgen-run"))
        elif kind == "done":
            kernel_us = float(ev.get("kernel_us", 0.0))
    if terminal is not None:
        findings.append(_crash_finding(terminal, fallback))
        status = {"crash": "crash", "timeout": "timeout", "forbidden": "runtime_error"}[terminal["kind"]]
    elif timed_out:
        findings.append(Finding(code="SIM-TIMEOUT", severity=Severity.ERROR, source="akgen-run", error_class="runtime",
                                span=Span.point(fallback, 1),
                                message=f"the kernel did not finish within {manifest.timeout_s:g} s (wall clock)"))
        status = "timeout"
    elif proc.returncode != 0:
        if not any(e.get("kind") == "setup_error" for e in events):
            sig = -proc.returncode if proc.returncode < 0 else None
            reason = f"signal {signal.Signals(sig).name}" if sig else f"exit status {proc.returncode}"
            findings.append(Finding(code="SIM-CRASH", severity=Severity.ERROR, source="akgen-run",
                                    error_class="runtime", span=Span.point(fallback, 1),
                                    message=f"the kernel process ended abnormally ({reason})"))
        status = "crash" if proc.returncode != 2 else "runtime_error"
    findings = _dedupe(findings)
    if status == "ok" and any(f.severity is Severity.ERROR for f in findings):
        status = "runtime_error"
    if status == "ok" and any(b.get("status") != "ok" for b in blocks):
        status = "runtime_error"
    est = cost.estimate(blocks, profile) if blocks else {"label": "estimate", "us": None, "arch": manifest.arch,
                                                          "bound": None, "pipes": {}}
    dest = out_dir
    outputs: dict[str, str] = {}
    trace_path: str | None = None
    if dest is not None:
        dest.mkdir(parents=True, exist_ok=True)
    if status in ("ok", "runtime_error"):
        for a in manifest.flat_args():
            if a.name not in raw_out or not raw_out[a.name].is_file():
                continue
            np_dtype = np.dtype(DTYPES[a.dtype or "float32"][0])
            data = np.fromfile(raw_out[a.name], dtype=np_dtype)
            shape = a.shape or (data.size,)
            if data.size != int(np.prod(shape)):
                continue
            target = (dest / a.path.name) if (dest is not None and a.path) else a.path
            if target is None:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            np.save(target, data.reshape(shape))
            outputs[a.name] = str(target)
    if trace and blocks:
        tdir = dest if dest is not None else run_dir
        tpath = tdir / "trace.json"
        tpath.write_text(json.dumps(cost.chrome_trace(traces, blocks, profile, fallback)), encoding="utf-8")
        trace_path = str(tpath)
    _cleanup(run_dir, keep={Path(trace_path)} if trace_path and dest is None else set())
    return Run(status=status, findings=findings, outputs=outputs, estimate=est, trace=trace_path, sandbox=sandbox,
               blocks=blocks, stdout=stdout, kernel_us=kernel_us, wall_s=wall, warnings=warnings)


def wait_output(proc: subprocess.Popen[bytes], timeout_s: float) -> tuple[str, bool]:
    """A sandboxed child's combined output (its last 20,000 characters) and whether it was killed at `timeout_s`
    (with its whole process group)."""
    timed_out = False
    try:
        out_b, _ = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)
        out_b, _ = proc.communicate()
    return (out_b.decode("utf-8", errors="replace")[-20000:] if out_b else ""), timed_out


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        return
    try:
        proc.wait(timeout=1.0)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)


def _cleanup(run_dir: Path, keep: set[Path]) -> None:
    for p in run_dir.iterdir():
        if p not in keep and p.is_file():
            with contextlib.suppress(OSError):
                p.unlink()
    if not keep:
        with contextlib.suppress(OSError):
            run_dir.rmdir()
