"""Run asc-devkit's own single-source examples unchanged on the simulator and print how far each gets.

    python benchmarks/sim_devkit_examples.py PATH/TO/asc-devkit [--only NAME ...] [--json OUT.json] [--keep DIR]
                                             [--cmake]

For each example folder of the categories (examples/01_simd_cpp_api/03_basic_api/{00_data_movement,
01_memory_vector_compute, 03_matrix_compute, 04_memory_management, 05_sync_control, 07_tpipe_tque, 09_utils} and
the families of 04_advanced_api, matmul included): copy it to a temporary folder (nothing is written into the checkout), run its scripts/gen_data.py in
build/ as its README says, run the `.asc` program on the simulator there (`akgen_lsp.sim.program.run_program`), run
scripts/verify_result.py with the README's arguments, and print one row: compiled, ran (the program ended normally),
verified (the example's own check passed: "yes" by its verify_result.py; "self" when it has no verify script and
the program printed its own pass verdict and nothing failed; "clean" when it checks nothing and ran without an error
finding), and the first finding. Examples written for the Ascend 950 register-level
API (`reg_*`, 02_reg_vector_compute, dav-3510 only) and the MX-format cube examples are skipped with that reason. Scenario examples run the scenario
their CMakeLists.txt defaults to (SCENARIO_NUM and the like: its compile definitions become -D macros, and the
README's $VARIABLES in the script command lines get the same values). With --cmake each example is built by its own
CMakeLists.txt against the simulator's CANN toolkit (`akgen sim toolkit`: find_package(ASC), the ASC language) with
cmake and make, and build/demo is started directly, as its README does.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from akgen_lsp.findings import Severity
from akgen_lsp.sim.program import run_program

BASIC = ("00_data_movement", "01_memory_vector_compute", "03_matrix_compute", "04_memory_management",
         "05_sync_control", "07_tpipe_tque", "09_utils")
ADVANCED_SKIP: dict[str, str] = {}


@dataclass
class Row:
    example: str
    compiled: str = "-"
    ran: str = "-"
    verified: str = "-"
    finding: str = ""
    status: str = ""
    skipped: str = ""
    seconds: float = 0.0


def example_dirs(root: Path) -> list[tuple[str, Path]]:
    base = root / "examples" / "01_simd_cpp_api"
    out: list[tuple[str, Path]] = []
    for cat in BASIC:
        d = base / "03_basic_api" / cat
        if d.is_dir():
            out += [(f"03_basic_api/{cat}/{p.name}", p) for p in sorted(d.iterdir()) if p.is_dir()]
    adv = base / "04_advanced_api"
    if adv.is_dir():
        for cat in sorted(adv.iterdir()):
            if cat.is_dir():
                out += [(f"04_advanced_api/{cat.name}/{p.name}", p) for p in sorted(cat.iterdir()) if p.is_dir()]
    return out


def skip_reason(name: str, folder: Path) -> str:
    cat = name.split("/")[1]
    if cat in ADVANCED_SKIP:
        return ADVANCED_SKIP[cat]
    if folder.name.startswith("reg_"):
        return "Ascend 950 register-level API (Reg), not the 910B target"
    if re.search(r"(^|_)mx($|_)|2dmx", folder.name):
        return "MX (microscaling) formats, Ascend 950 only"
    texts = ""
    for f in ("README.md", "CMakeLists.txt"):
        if (folder / f).is_file():
            texts += (folder / f).read_text(encoding="utf-8", errors="replace")
    if "dav-3510" in texts and "dav-2201" not in texts:
        return "Ascend 950 (dav-3510) only"
    # built for the 950 by default (`set(CMAKE_ASC_ARCHITECTURES "dav-3510" CACHE ...)`, the help string naming
    # both) and the README's product table lists no Atlas A2/A3 product: written for the 950 alone
    readme = (folder / "README.md").read_text(encoding="utf-8", errors="replace") if (folder / "README.md").is_file() \
        else ""
    if (re.search(r'set\(\s*CMAKE_ASC_ARCHITECTURES\s+"dav-3510"', texts)
            and not re.search(r"Atlas A[23]", readme)):
        return "Ascend 950 only (dav-3510 by default; its README lists no Atlas A2/A3 product)"
    if not list(folder.glob("*.asc")):
        return "no .asc program"
    return ""


CMAKE_FALSE = {"", "0", "OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND"}
# What the toolkit's CMake gives an example: the dav-2201 build, run on the CPU (CANN's cpu run mode)
CMAKE_DEFAULTS = {"CMAKE_ASC_ARCHITECTURES": "dav-2201", "CMAKE_ASC_RUN_MODE": "cpu"}


def _cmake_args(text: str) -> list[str]:
    return [a[1:-1] if a.startswith('"') else a for a in re.findall(r'"[^"]*"|[^\s"]+', text)]


def _cmake_expand(text: str, values: dict[str, str]) -> str:
    return re.sub(r"\$\{(\w+)\}", lambda m: values.get(m.group(1), ""), text)


def _cmake_cond(args: list[str], values: dict[str, str]) -> bool:
    """if() of the forms the examples use: NOT, AND, OR, DEFINED, STREQUAL, EQUAL, MATCHES, a variable or constant."""
    def val(tok: str) -> str:
        return values.get(tok, tok)

    def truth(tok: str) -> bool:
        v = val(tok).upper()
        return v not in CMAKE_FALSE and not v.endswith("-NOTFOUND")

    def unary(i: int) -> tuple[bool, int]:
        if args[i] == "NOT":
            v, j = unary(i + 1)
            return not v, j
        if args[i] == "DEFINED":
            return args[i + 1] in values, i + 2
        if i + 2 < len(args) and args[i + 1] in ("STREQUAL", "EQUAL", "MATCHES"):
            left, op, right = val(args[i]), args[i + 1], args[i + 2]
            if op == "STREQUAL":
                return left == val(right), i + 3
            if op == "EQUAL":
                try:
                    return float(left) == float(val(right)), i + 3
                except ValueError:
                    return False, i + 3
            return re.search(right, left) is not None, i + 3
        return truth(args[i]), i + 1

    result, i = unary(0)
    while i < len(args):
        op = args[i]
        rhs, i = unary(i + 1)
        result = (result and rhs) if op == "AND" else (result or rhs)
    return result


def cmake_vars(folder: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The CMakeLists' variables and the compile definitions it gives the program, evaluated as CMake would for the
    dav-2201 CPU build: set / option / string(REGEX MATCH), if / elseif / else / endif, add_definitions(-D...) and
    target_compile_definitions(... NAME=VALUE); SCENARIO_NUM and the like default to "1" where only checked."""
    cm = folder / "CMakeLists.txt"
    text = cm.read_text(encoding="utf-8", errors="replace") if cm.is_file() else ""
    text = "\n".join(re.sub(r'^((?:[^"#]|"[^"]*")*)#.*$', r"\1", ln) for ln in text.splitlines())
    values = dict(CMAKE_DEFAULTS)
    defines: dict[str, str] = {}
    stack: list[tuple[bool, bool]] = []  # (this branch runs, a branch of this if already ran)
    for m in re.finditer(r"\b(\w+)\s*\(((?:[^()]|\([^()]*\))*)\)", text):
        cmd, raw = m.group(1).lower(), m.group(2)
        active = all(run for run, _ in stack)
        if cmd == "if":
            run = active and _cmake_cond(_cmake_args(_cmake_expand(raw, values)), values)
            stack.append((run, run))
            continue
        if cmd in ("elseif", "else") and stack:
            _, taken = stack.pop()
            outer = all(run for run, _ in stack)
            run = outer and not taken and (cmd == "else" or _cmake_cond(_cmake_args(_cmake_expand(raw, values)),
                                                                         values))
            stack.append((run, taken or run))
            continue
        if cmd == "endif" and stack:
            stack.pop()
            continue
        if not active:
            continue
        args = _cmake_args(_cmake_expand(raw, values))
        if cmd == "set" and len(args) >= 2:
            values.setdefault(args[0], args[1]) if "CACHE" in args else values.update({args[0]: args[1]})
        elif cmd == "option" and len(args) >= 3:
            values.setdefault(args[0], args[2])
        elif cmd == "string" and len(args) >= 5 and args[:2] == ["REGEX", "MATCH"]:
            hit = re.search(args[2], args[4])
            values[args[3]] = hit.group(0) if hit else ""
        elif cmd in ("add_definitions", "add_compile_definitions", "target_compile_definitions",
                     "ascendc_compile_definitions"):
            for a in args:
                a = a[2:] if a.startswith("-D") else a
                if re.fullmatch(r"[A-Za-z_]\w*(=.*)?", a) and a not in ("PRIVATE", "PUBLIC", "INTERFACE") and (
                        not cmd.endswith("_compile_definitions") or cmd == "add_compile_definitions" or a != args[0]):
                    name, _, value = a.partition("=")
                    defines[name] = value or "1"
    for var in re.findall(r"\b(SCENARIO_NUM|SCENARIO|TESTCASE)\b", text):
        values.setdefault(var, "1")
    for name, value in list(defines.items()):
        if value == "" and name in ("SCENARIO_NUM", "SCENARIO", "TESTCASE"):
            defines[name] = "1"
    return values, defines


def readme_command(folder: Path, script: str, values: dict[str, str]) -> list[str] | None:
    """The arguments the README gives `script` (gen_data.py / verify_result.py), with $VARS filled in from the
    CMakeLists defaults ("1" when unknown)."""
    readme = folder / "README.md"
    if not readme.is_file():
        return None
    for line in readme.read_text(encoding="utf-8", errors="replace").splitlines():
        m = re.search(r"python3?\s+\S*" + re.escape(script) + r"(.*)", line)
        if not m or "//" in line.split(script)[0]:
            continue
        rest = m.group(1).split("#", 1)[0].strip().rstrip(";").strip()
        rest = re.sub(r"\$\{?(\w+)\}?", lambda v: values.get(v.group(1), "1"), rest)
        try:
            return shlex.split(rest)
        except ValueError:
            return rest.split()
    return None


PYTHON = [sys.executable]
CMAKE: list[Path] = []  # the toolkit folder, with --cmake


def run_cmake(dst: Path, build: Path, args: list[str]) -> tuple[str, str, str, str]:
    """Build the example with its own CMakeLists against the toolkit and start build/demo: (compiled, ran, stdout,
    first error line)."""
    import os

    from akgen_lsp.sim.toolkit import environment

    env = {**os.environ, **environment(CMAKE[0])}
    for cmd in (["cmake", "-S", str(dst), "-B", str(build), "-DCMAKE_ASC_ARCHITECTURES=dav-2201"],
                ["cmake", "--build", str(build), "-j", "2"]):
        res = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
        if res.returncode != 0:
            err = next((ln for ln in (res.stdout + res.stderr).splitlines() if "error" in ln.lower()), "")
            return "no", "-", "", "cmake: " + err.strip()
    demo = next((p for p in build.iterdir() if p.is_file() and os.access(p, os.X_OK) and p.suffix == ""), None)
    if demo is None:
        return "no", "-", "", "cmake: no executable was built"
    try:
        res = subprocess.run([str(demo), *args], cwd=build, capture_output=True, text=True, env=env, timeout=300)
    except subprocess.TimeoutExpired:
        return "yes", "no", "", "timeout"
    err = next((ln for ln in res.stderr.splitlines() if ": error:" in ln), "")
    return "yes", "yes" if res.returncode == 0 else "no", res.stdout + ("\n[error] " + err if err else ""), err


def demo_args(folder: Path, values: dict[str, str]) -> list[str]:
    """The arguments the README passes to the program (`./demo $TESTCASE`), $VARS filled in."""
    readme = folder / "README.md"
    text = readme.read_text(encoding="utf-8", errors="replace") if readme.is_file() else ""
    for line in text.splitlines():
        m = re.match(r"\s*\./demo\b([^#;]*)", line)
        if m and m.group(1).strip():
            rest = re.sub(r"\$\{?(\w+)\}?", lambda v: values.get(v.group(1), "1"), m.group(1).strip())
            return rest.split()
    return []


def run_script(script: Path, args: list[str], cwd: Path, timeout: float = 300.0) -> tuple[int, str]:
    try:
        res = subprocess.run([*PYTHON, str(script), *args], cwd=cwd, capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, f"{script.name} took more than {timeout:.0f} s"
    return res.returncode, (res.stdout + res.stderr)[-4000:]


def first_finding(findings: list, stdout: str) -> str:
    chosen = next((f for f in findings if f.severity is Severity.ERROR), findings[0] if findings else None)
    if chosen is None:
        return ""
    line = f"{Path(chosen.span.path).name}:{chosen.span.line} " if chosen.span.line > 1 else ""
    return f"{chosen.code} {line}{chosen.message}"


def run_example(name: str, folder: Path, work: Path) -> Row:
    row = Row(name)
    reason = skip_reason(name, folder)
    if reason:
        row.skipped = reason
        return row
    t0 = time.perf_counter()
    dst = work / name.replace("/", "__")
    shutil.copytree(folder, dst, ignore=shutil.ignore_patterns("figures", "build"))
    build = dst / "build"
    build.mkdir()
    values, defines = cmake_vars(folder)
    gen = dst / "scripts" / "gen_data.py"
    if gen.is_file():
        rc, out = run_script(gen, readme_command(folder, "gen_data.py", values) or [], build)
        if rc != 0:
            row.finding = f"gen_data.py failed: {out.strip().splitlines()[-1] if out.strip() else rc}"
    if CMAKE:
        row.compiled, row.ran, stdout, err = run_cmake(dst, build, demo_args(folder, values))
        row.status = "ok" if row.ran == "yes" and not err else "error"
        row.finding = row.finding or err
        res = None
    else:
        asc = sorted(dst.glob("*.asc"))[0]
        res = run_program(asc, build, defines=defines, timeout_s=180.0, args=demo_args(folder, values))
        row.status = res.status
        row.compiled = "no" if res.status == "compile_error" else "yes"
        if res.status != "compile_error":
            row.ran = "yes" if res.status in ("ok", "runtime_error") and res.exit_code == 0 else "no"
        row.finding = row.finding or first_finding(res.findings, res.stdout)
        stdout = res.stdout
    ver = dst / "scripts" / "verify_result.py"
    if row.ran == "yes":
        if ver.is_file():
            args = readme_command(folder, "verify_result.py", values)
            rc, out = run_script(ver, args if args is not None else ["output/output.bin", "output/golden.bin"], build)
            row.verified = "yes" if rc == 0 and "fail" not in out.lower() else "no"
            if row.verified == "no" and not row.finding:
                row.finding = "verify: " + (out.strip().splitlines()[-1] if out.strip() else f"exit {rc}")
        else:
            # no verify script: the program compares with its golden itself and prints the verdict
            out = stdout.lower()
            bad = next((ln for ln in stdout.splitlines() if "fail" in ln.lower() or "[error]" in ln.lower()), "")
            if bad or row.status != "ok":
                row.verified = "no"
                if bad and not row.finding:
                    row.finding = "program: " + bad.strip()
            else:
                row.verified = "self" if "pass" in out or "success" in out else "clean"
    row.seconds = round(time.perf_counter() - t0, 1)
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("asc_devkit", type=Path, help="path of an asc-devkit checkout")
    ap.add_argument("--only", action="append", default=[], help="run only examples whose name contains this")
    ap.add_argument("--json", type=Path, help="also write the rows as JSON here")
    ap.add_argument("--keep", type=Path, help="keep the working copies under this folder")
    ap.add_argument("--cmake", action="store_true",
                    help="build each example with its own CMakeLists.txt against the simulator's CANN toolkit")
    ap.add_argument("--python", default=sys.executable,
                    help="the Python that runs the examples' scripts (they need numpy, some ml_dtypes)")
    a = ap.parse_args()
    PYTHON[:] = [a.python]
    if a.cmake:
        from akgen_lsp.sim.toolkit import ensure_toolkit

        CMAKE[:] = [ensure_toolkit()]
    if not (a.asc_devkit / "examples").is_dir():
        print(f"{a.asc_devkit}: not an asc-devkit checkout (no examples/ folder); give its path", file=sys.stderr)
        return 2
    examples = [(n, p) for n, p in example_dirs(a.asc_devkit) if not a.only or any(o in n for o in a.only)]
    work = a.keep or Path(tempfile.mkdtemp(prefix="akgen-devkit-"))
    work.mkdir(parents=True, exist_ok=True)
    rows: list[Row] = []
    t0 = time.perf_counter()
    print(f"{'example':58} {'compiled':8} {'ran':4} {'verified':8}  first finding")
    try:
        for name, folder in examples:
            row = run_example(name, folder, work)
            rows.append(row)
            if row.skipped:
                print(f"{name:58} {'skip':8} {'':4} {'':8}  {row.skipped}", flush=True)
            else:
                print(f"{name:58} {row.compiled:8} {row.ran:4} {row.verified:8}  {row.finding[:150]}", flush=True)
    finally:
        if a.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    run = [r for r in rows if not r.skipped]
    n = len(run)
    print()
    print(f"examples: {len(rows)}; skipped: {len(rows) - n}; run: {n}")
    print(f"compiled: {sum(r.compiled == 'yes' for r in run)}/{n}  ran: {sum(r.ran == 'yes' for r in run)}/{n}  "
          f"verified: {sum(r.verified in ('yes', 'self') for r in run)}/{n} "
          f"(by verify_result.py {sum(r.verified == 'yes' for r in run)}, by the program's own check "
          f"{sum(r.verified == 'self' for r in run)}); ran clean without a check: "
          f"{sum(r.verified == 'clean' for r in run)}")
    print(f"wall: {time.perf_counter() - t0:.0f} s")
    reasons = Counter(r.skipped for r in rows if r.skipped)
    for why, k in reasons.most_common():
        print(f"skipped {k}: {why}")
    if a.json:
        a.json.write_text(json.dumps([asdict(r) for r in rows], indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
