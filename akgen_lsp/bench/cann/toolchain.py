"""The `cann` toolchain: a candidate built in an msopgen custom-op project with CANN's build.sh, installed as a
custom op package, and run through torch_npu on an NPU. Same interface as the sim toolchain (`name`,
`compile(sources, options) -> Build`, `run(build, case) -> Run`), plus `run_cases` (one NPU process for all the
cases of a candidate). The bench pipeline drives it in `akgen_lsp.bench.pipeline.cann`.

Selected by `get_toolchain` (akgen_lsp.bench.toolchain) when ``toolchain.name`` is "cann", or "auto" with
ASCEND_HOME_PATH pointing at a CANN install. Never run against a real CANN or NPU: the tests drive it with stand-ins
for msopgen, build.sh, cmake, the .run package and the runner's Python (see docs/bench.md, "cann toolchain").
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.bench.cann import (
    BUILD_TIMEOUT_S,
    CannInstall,
    compile_succeeded,
    compute_unit,
    detect_cann,
    find_vendor_dir,
    parse_build_log,
)
from akgen_lsp.bench.cann.box import tool_policy
from akgen_lsp.bench.cann.project import (
    Command,
    ProjectSpec,
    find_run_package,
    finish_project,
    install_command,
    installed_vendor,
    prepare_project,
    pybind_commands,
    user_paths,
)
from akgen_lsp.bench.cann.runner import (
    RUNNER_NAME,
    RUNNER_SCRIPT,
    parse_runner_output,
    runner_env,
    runner_spec,
)
from akgen_lsp.findings import Finding, Severity, Span
from akgen_lsp.sandbox import SandboxUnavailable, run_confined
from akgen_lsp.sim.build_types import Build
from akgen_lsp.sim.compiler import ToolchainError
from akgen_lsp.sim.runner import Run

RUN_TIMEOUT_S = 300.0  # NPUKernelBench: eval.timeout_precision


class CannUnavailable(ToolchainError):
    """The cann toolchain was asked for but cannot work here; the message says what is missing and what to do."""


@dataclass
class CannOptions:
    """How to build one candidate (the counterpart of the sim toolchain's BuildOptions)."""

    op_type: str  # OpDef class (CamelCase)
    op_snake: str  # file and pybind function name
    work: Path | None = None  # None: a fresh temporary folder
    soc: str = "Ascend910B2"
    template: Path | None = None
    pybind_source: str | None = None
    pybind_params: Sequence[tuple[str, str]] = ()
    helper_header: str | None = None
    kernel_only: bool = (
        False  # NPUKernelBench's kernel-only mode: add `GM_ADDR tiling` after `GM_ADDR workspace`
    )
    timeout_s: float = BUILD_TIMEOUT_S


@dataclass
class CannBuild(Build):
    """A `Build` plus what running it needs."""

    status: str = "compile_error"  # ok | compile_error | timeout
    work: Path | None = None
    vendor: Path | None = None
    module_dir: Path | None = None
    function: str = ""
    call: str = (
        "returns"  # returns (the task's pybind) | model_new (through the task's ModelNew) | out_args (ours)
    )
    artifacts: dict[str, bool] = field(default_factory=dict)
    stages: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass
class _Result:
    rc: int
    output: str
    seconds: float
    timed_out: bool


def _run(
    cmd: Command,
    env: Mapping[str, str],
    timeout_s: float | None = None,
    python: str = sys.executable,
    read: Sequence[Path] = (),
    npu: bool = False,
) -> _Result:
    """Run one command in the cann tool box (cann/box.py tool_policy); on timeout the whole tree is killed."""
    limit = timeout_s if timeout_s is not None else cmd.timeout_s
    full = {**env, **cmd.env}
    try:
        res = run_confined(cmd.argv, tool_policy(cmd, full, limit, python, read, npu))
    except SandboxUnavailable as exc:
        return _Result(126, str(exc), 0.0, False)
    except (OSError, RuntimeError) as exc:
        return _Result(127, f"cannot run {cmd.argv[0]}: {exc}", 0.0, False)
    if res.timed_out:
        return _Result(-9, res.output, res.wall_s, True)
    return _Result(res.returncode, res.output, res.wall_s, False)


def _error(code: str, message: str, path: str, error_class: str, line: int = 1) -> Finding:
    return Finding(code, message, Span.point(path, line), Severity.ERROR, "akgen-build", error_class)


def add_tiling_param(kernel_source: str) -> str:
    """NPUKernelBench's kernel-only mode: the kernel gets the tiling pointer after the workspace."""
    if re.search(r"GM_ADDR\s+tiling\b", kernel_source):
        return kernel_source
    return kernel_source.replace("GM_ADDR workspace", "GM_ADDR workspace, GM_ADDR tiling", 1)


class CannToolchain:
    """msopgen + build.sh + torch_npu. `install` is what `detect_cann` found; `python` runs the NPU runner and
    configures the pybind build (it must import torch, torch_npu and pybind11)."""

    name = "cann"

    def __init__(
        self,
        install: CannInstall,
        python: str = sys.executable,
        env: Mapping[str, str] | None = None,
        run_timeout_s: float = RUN_TIMEOUT_S,
        warmup: int = 1,
        repeats: int = 100,
        device_index: int | None = None,
        jobs: int | None = None,
        device: str | None = None,
    ):
        self.install = install
        self.python = python
        self.env = dict(os.environ if env is None else env)
        self.run_timeout_s = run_timeout_s
        self.warmup = warmup
        self.repeats = repeats
        self.device_index = device_index
        self.device = device  # the torch device string; None: npu:<device_index>
        self.jobs = jobs or max(1, (os.cpu_count() or 2))

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **kw: Any) -> CannToolchain:
        """The toolchain of the CANN install ASCEND_HOME_PATH names; raises CannUnavailable saying what is missing."""
        env = dict(os.environ if env is None else env)
        found = detect_cann(env)
        if not found.usable:
            raise CannUnavailable(f"the cann toolchain cannot run here: {found.explain()}")
        return cls(found, env=env, **kw)

    # ----------------------------------------------------------------------------------------------- compile

    def spec(self, sources: Sequence[Path], options: CannOptions, work: Path) -> ProjectSpec:
        kernel = Path(sources[0])
        host = _pick_host(sources, options.op_snake)
        if host is None:
            raise ValueError("the cann toolchain needs the op_host source (the OpDef and its TilingFunc)")
        tiling = next(
            (Path(s) for s in sources[1:] if Path(s).suffix == ".h" and "tiling" in Path(s).name), None
        )
        extra_host = {
            Path(s).name: Path(s).read_text(encoding="utf-8", errors="replace")
            for s in sources[1:]
            if Path(s).parent == host.parent and Path(s) not in (host, tiling)
        }
        extra_kernel = (
            {
                p.name: p.read_text(encoding="utf-8", errors="replace")
                for p in sorted(kernel.parent.iterdir())
                if p.is_file() and p != kernel and p.suffix in (".h", ".hpp", ".inc")
            }
            if kernel.parent.is_dir()
            else {}
        )
        ksrc = kernel.read_text(encoding="utf-8", errors="replace")
        if options.kernel_only:
            ksrc = add_tiling_param(ksrc)
        home = self.install.home or Path(
            self.env.get("ASCEND_HOME_PATH", "/usr/local/Ascend/ascend-toolkit/latest")
        )
        host_text = host.read_text(encoding="utf-8", errors="replace")
        opdef = (
            host_text
            if _OPDEF.search(host_text)
            else next((t for t in extra_host.values() if _OPDEF.search(t)), host_text)
        )
        split = (
            host.stem != options.op_snake
        )  # a split host keeps its file names (<op>_tiling.cpp, <op>_def.cpp)
        return ProjectSpec(
            host_name=host.name if split else None,
            opdef_source=opdef,
            work=work,
            op_type=options.op_type,
            op_snake=options.op_snake,
            kernel_source=ksrc,
            host_source=host_text,
            tiling_header=tiling.read_text(encoding="utf-8", errors="replace") if tiling else None,
            extra_kernel_files=extra_kernel,
            extra_host_files=extra_host,
            soc=options.soc,
            compute_unit=compute_unit(options.soc),
            cann_home=home,
            template=options.template,
            msopgen=str(self.install.msopgen or "msopgen"),
            pybind_source=options.pybind_source,
            pybind_params=tuple(options.pybind_params),
            helper_header=options.helper_header,
            python=self.python,
            jobs=self.jobs,
        )

    def compile(self, sources: Sequence[str | Path], options: CannOptions) -> CannBuild:
        """Build the candidate (sources: the kernel first, then the op_host files). Never raises for a bad kernel:
        the build's `findings` say what failed, at the user's files."""
        t0 = time.perf_counter()
        paths = [Path(s) for s in sources]
        work = options.work or Path(tempfile.mkdtemp(prefix="akgen-cann-"))
        key = hashlib.sha256(b"".join(p.read_bytes() for p in paths if p.is_file())).hexdigest()[:16]
        kernel_user = str(paths[0])
        try:
            spec = self.spec(paths, options, work)
            commands = prepare_project(spec)
        except (OSError, ValueError) as exc:
            return CannBuild(
                False,
                None,
                [_error("CANN-PROJECT", str(exc), kernel_user, "parse")],
                tuple(paths),
                key,
                seconds=time.perf_counter() - t0,
                work=work,
            )
        host_path = _pick_host(paths, options.op_snake)
        tiling_user = next((str(p) for p in paths[1:] if p.suffix == ".h" and "tiling" in p.name), None)
        users = user_paths(spec, kernel_user, str(host_path) if host_path else None, tiling_user)
        for name in spec.extra_host_files:
            users[str(spec.project / "op_host" / name)] = str(host_path.parent / name) if host_path else name
        for name in spec.extra_kernel_files:
            users[str(spec.project / "op_kernel" / name)] = str(paths[0].parent / name)
        if spec.template is None and self.install.msopgen is None:
            return CannBuild(
                False,
                None,
                [
                    _error(
                        "CANN-MSOPGEN",
                        "msopgen was not found (looked in $ASCEND_HOME_PATH/python/site-packages/bin and on "
                        "PATH) and no project template was given: install CANN's msopgen, or set AKGEN_CANN_TEMPLATE to a "
                        "ready msopgen project (NPUKernelBench's libs/common_include/msopgen)",
                        kernel_user,
                        "toolchain",
                    )
                ],
                tuple(paths),
                key,
                seconds=time.perf_counter() - t0,
                work=work,
            )
        build = CannBuild(
            False,
            None,
            [],
            tuple(paths),
            key,
            work=work,
            function=options.op_snake,
            call="returns" if options.pybind_source is not None else "out_args",
            module_dir=spec.build_dir,
        )
        logs: list[str] = []
        env = {**self.env, "ASCEND_HOME_PATH": str(spec.cann_home)}

        def stage(cmd: Command, timeout: float | None = None) -> _Result:
            res = _run(cmd, env, timeout, self.python)
            logs.append(f"$ {' '.join(cmd.argv)}\n{res.output}")
            build.stages.append(
                {
                    "stage": cmd.stage,
                    "argv": cmd.argv,
                    "cwd": str(cmd.cwd),
                    "rc": res.rc,
                    "seconds": round(res.seconds, 3),
                    "timed_out": res.timed_out,
                }
            )
            build.command = cmd.argv
            return res

        def done(status: str, findings: list[Finding]) -> CannBuild:
            build.status = status
            build.ok = status == "ok"
            build.findings = findings
            build.seconds = time.perf_counter() - t0
            build.log = "\n".join(logs)
            (spec.log_dir / "build.log").write_text(build.log, encoding="utf-8", errors="replace")
            return build

        for cmd in commands:
            if cmd.stage == "msopgen":
                res = stage(cmd)
                if res.rc != 0 or res.timed_out:
                    fs = parse_build_log(res.output, users, str(spec.op_json), tool="msopgen") or [
                        _error(
                            "MSOPGEN",
                            f"msopgen gen failed (exit {res.rc}): {res.output.strip()[-300:]}; the op "
                            "description it was given is " + str(spec.op_json),
                            str(spec.op_json),
                            "build_system",
                        )
                    ]
                    return done("compile_error", fs)
                continue
            try:
                finish_project(spec)
            except (OSError, ValueError) as exc:
                return done(
                    "compile_error",
                    [_error("CANN-PROJECT", f"cannot write the project: {exc}", kernel_user, "harness")],
                )
            res = stage(cmd, options.timeout_s)
            if res.timed_out:
                return done(
                    "timeout",
                    [
                        _error(
                            "CANN-TIMEOUT",
                            f"build.sh did not finish within {options.timeout_s:g} "
                            "s (NPUKernelBench's compile limit is 400 s); the build was killed",
                            kernel_user,
                            "timeout",
                        )
                    ],
                )
        if (
            not any(spec.build_dir.glob("kernel_gen_ops.*.so"))
            and build.stages
            and build.stages[-1]["rc"] == 0
        ):
            for cmd in pybind_commands(spec):
                res = stage(cmd)
                if res.rc != 0:
                    break
        build.artifacts = compile_succeeded(spec.project, options.op_type, spec.build_dir)
        if not build.artifacts["ok"]:
            text = "\n".join(logs) + "\n" + _saved_logs(spec.log_dir)
            fs = parse_build_log(text, users, str(spec.op_json))
            if not fs:
                missing = [k for k in ("pybind_so", "libcust_opapi_so", "kernel_o") if not build.artifacts[k]]
                names = {**_ARTIFACT, "kernel_o": f"kernel object {options.op_type}*.o"}
                fs = [
                    _error(
                        "CANN-ARTIFACTS",
                        "the build produced no "
                        + ", ".join(names[m] for m in missing)
                        + f"; see {spec.log_dir / 'build.log'}",
                        kernel_user,
                        "build_system",
                    )
                ]
            return done("compile_error", fs)
        build.binary = next(iter(sorted(spec.build_dir.glob("kernel_gen_ops.*.so"))), None)
        build.vendor = self._install(spec, stage, build)
        return done("ok", [])

    def _install(self, spec: ProjectSpec, stage: Any, build: CannBuild) -> Path | None:
        run_file = find_run_package(spec)
        if run_file is not None:
            res = stage(install_command(spec, run_file))
            vendor = installed_vendor(spec)
            if res.rc == 0 and (vendor / "op_api" / "lib" / "libcust_opapi.so").is_file():
                return vendor
            build.warnings.append(
                f"installing {run_file.name} failed (exit {res.rc}); using the package folder "
                "inside the build tree, as NPUKernelBench does"
            )
        return find_vendor_dir(spec.project)

    # ----------------------------------------------------------------------------------------------- run

    def run(
        self,
        build: CannBuild,
        case: dict[str, Any],
        out_dir: Path | None = None,
        reference_module: Path | None = None,
    ) -> Run:
        """One case (a `cann.runner.case_spec`); see `run_cases`."""
        return self.run_cases(build, [case], reference_module)[0]

    def run_cases(
        self, build: CannBuild, cases: Sequence[dict[str, Any]], reference_module: Path | None = None
    ) -> list[Run]:
        """All the cases of a candidate in one runner process on the NPU. A Run's `outputs` maps each output name to
        its .npy; `estimate` holds the measured times ({"us", "reference_us", "measured": True})."""
        work = build.work or Path(tempfile.mkdtemp(prefix="akgen-cann-run-"))
        if not build.ok or build.module_dir is None:
            return [
                Run(
                    "runtime_error",
                    [_error("CANN-NOT-BUILT", "the candidate was not built", "build", "harness")],
                    {},
                    {},
                    None,
                    {},
                )
                for _ in cases
            ]
        script = work / RUNNER_NAME
        shutil.copy(RUNNER_SCRIPT, script)
        spec = runner_spec(
            cases,
            build.module_dir,
            build.function,
            build.call,
            reference_module,
            self.device_index,
            self.warmup,
            self.repeats,
            self.device,
        )
        spec_path = work / "runner_spec.json"
        spec_path.write_text(json.dumps(spec, indent=1), encoding="utf-8")
        cmd = Command([self.python, str(script), str(spec_path)], work, self.run_timeout_s, "run")
        read = [reference_module.parent] if reference_module is not None else []
        res = _run(cmd, runner_env(build.vendor, self.env), python=self.python, read=read, npu=True)
        (work / "runner.log").write_text(res.output, encoding="utf-8", errors="replace")
        parsed = parse_runner_output(res.output)
        tail = res.output.strip()[-600:]
        runs: list[Run] = []
        for c in cases:
            cid = int(c["case_id"])
            rec = parsed.cases.get(cid)
            where = str(build.sources[0]) if build.sources else "kernel"
            if rec is None:
                if res.timed_out:
                    msg, status = f"the NPU run did not finish within {self.run_timeout_s:g} s", "timeout"
                elif parsed.fatal:
                    msg, status = parsed.fatal, "runtime_error"
                else:
                    msg, status = (
                        f"the runner stopped before case {cid} (exit {res.rc}); last output: {tail}",
                        "crash",
                    )
                runs.append(
                    Run(
                        status,
                        [
                            Finding(
                                "CANN-RUN",
                                msg,
                                Span.point(where, 1),
                                Severity.ERROR,
                                "akgen-run",
                                "timeout" if status == "timeout" else "runtime",
                            )
                        ],
                        {},
                        {},
                        None,
                        {},
                        wall_s=res.seconds,
                    )
                )
                continue
            if rec.get("status") != "ok":
                runs.append(
                    Run(
                        "runtime_error",
                        [
                            Finding(
                                "CANN-RUN",
                                f"case {cid} failed on the NPU: {rec.get('error', 'unknown error')}",
                                Span.point(where, 1),
                                Severity.ERROR,
                                "akgen-run",
                                "runtime",
                            )
                        ],
                        {},
                        {},
                        None,
                        {},
                        wall_s=res.seconds,
                    )
                )
                continue
            outs = {o["name"]: p for o, p in zip(c["outputs"], rec.get("outputs", []), strict=False)}
            kms, rms = rec.get("kernel_ms"), rec.get("reference_ms")
            est = {
                "us": float(kms) * 1000.0 if kms is not None else None,
                "reference_us": float(rms) * 1000.0 if rms is not None else None,
                "measured": True,
                "warmup": self.warmup,
                "repeats": self.repeats,
            }
            warnings = [rec["note"]] if rec.get("note") else []
            runs.append(
                Run(
                    "ok",
                    [],
                    outs,
                    est,
                    None,
                    {},
                    kernel_us=float(est["us"] or 0.0),
                    wall_s=res.seconds,
                    warnings=warnings,
                )
            )
        return runs


_OPDEF = re.compile(r"class\s+\w+\s*:\s*public\s+(?:ops::)?OpDef")


def _pick_host(sources: Sequence[Path], op_snake: str) -> Path | None:
    """The op_host source among the sources after the kernel: ``<op>.cpp``, else the first C++ file."""
    cpps = [Path(s) for s in sources[1:] if Path(s).suffix in (".cpp", ".cc")]
    return next((p for p in cpps if p.stem == op_snake), cpps[0] if cpps else None)


_ARTIFACT = {
    "pybind_so": "pybind module kernel_gen_ops*.so",
    "libcust_opapi_so": "op_api/lib/libcust_opapi.so",
    "kernel_o": "kernel object <Op>*.o",
}


def _saved_logs(log_dir: Path) -> str:
    """Compiler logs CANN wrote under ASCENDC_BUILD_LOG_DIR (files with "_error" in their name first)."""
    if not log_dir.is_dir():
        return ""
    files = sorted(
        (p for p in log_dir.rglob("*") if p.is_file() and p.name != "build.log"),
        key=lambda p: ("_error" not in p.name, p.name),
    )
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in files[:20])
