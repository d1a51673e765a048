"""The simulator's CANN toolkit: an `ASCEND_HOME_PATH`-style folder whose CMake packages build a CANN sample's own
CMakeLists for the CPU simulator (`akgen sim toolkit --print-path`).

    <toolkit>/bin/setenv.bash, set_env.sh          what a sample's run.sh sources: ASCEND_HOME_PATH and friends
    <toolkit>/bin/ccec (and compiler/ccec_compiler/bin/ccec)   the CCE compiler of `LANGUAGES CCE` projects
    <toolkit>/tools/tikicpulib/lib/cmake/          find_package(tikicpulib): tikicpulib::<SOC> targets (CPU mode)
    <toolkit>/tools/tikcpp/ascendc_kernel_cmake/   ascendc.cmake: ascendc_library & co. (NPU mode, run on the CPU
    <toolkit>/compiler/tikcpp/ascendc_kernel_cmake/    too, with the generated aclrtlaunch_<kernel>.h headers)
    <toolkit>/lib/cmake/ASC/                       find_package(ASC) and the ASC language of CANN 9 examples
    <toolkit>/include -> our headers              kernel_operator.h, tikicpulib.h, acl/acl.h, ...
    <toolkit>/akgen/specs/<SOC>.spec               the run configuration of each SOC (memory, cost tables)
    <toolkit>/akgen/op_ut.cmake                    AddOpTestCase of CANN's operator repositories (op_test.py)

Every compile and link of such a project goes through `bin/akgen-cxx` (akgen_lsp/sim/toolkit_cxx.py): C++20 against
our headers, the line-keeping program rewrite, the program runtime linked into executables, CANN's libraries
dropped. The binary it makes runs the kernels on the simulator when started directly (findings printed like
compiler diagnostics, a line per launch with its estimate) or under `akgen sim run-program`'s runtime spec.
The toolkit is generated under the cache folder, keyed by the version of our headers, so it follows the simulator.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import threading
from pathlib import Path

from akgen_lsp.ascendc.arch import ArchError, load_arch
from akgen_lsp.sim import cost
from akgen_lsp.sim.build_cache import cache_dir, headers_hash
from akgen_lsp.sim.compiler import INCLUDE_DIR

FILES = Path(__file__).resolve().parent / "toolkit_files"
TOOLKIT_FORMAT = "2"
# The SoC names of CANN samples' run.sh (VERSION_LIST) that A2/A3 and 310P profiles cover, and the profile of each.
SOC_ARCH: dict[str, str] = {
    **{f"Ascend910B{i}": f"Ascend910B{i}" for i in range(1, 5)},
    "Ascend910B2C": "Ascend910B2",
    **{f"Ascend910_93{s}": "Ascend910_93" for s in ("91", "92", "81", "82", "72", "62")},
    "Ascend310P1": "Ascend310P",
    "Ascend310P3": "Ascend310P",
}
DEFAULT_SOC = "Ascend910B2"


class ToolkitError(RuntimeError):
    """The toolkit cannot be made (an unwritable cache); the message says what to do."""


def toolkit_key() -> str:
    h = hashlib.sha256(f"{TOOLKIT_FORMAT}|{headers_hash()}|{sys.executable}|{Path(__file__).parent}".encode())
    for p in sorted(FILES.rglob("*")):
        if p.is_file():
            h.update(p.name.encode())
            h.update(p.read_bytes())
    # the SoCs' run specs (memory sizes and cost tables of the arch profiles): a profile edit makes a new tree, so a
    # directly started binary never reads a stale spec
    for soc in sorted(SOC_ARCH):
        h.update("\n".join(soc_spec_lines(soc)).encode())
    return h.hexdigest()[:20]


def soc_spec_lines(soc: str) -> list[str]:
    """The run spec a directly started program of `soc` reads: the arch's memory sizes and cost tables."""
    try:
        profile = load_arch(SOC_ARCH.get(soc, soc))
    except ArchError:
        profile = None
    lines, _ = cost.launcher_params(profile)
    return ["# akgen sim: the run configuration of " + soc, *lines, "checks npu"]


def _script(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)


def _write_tree(dest: Path, root: Path) -> None:
    """The toolkit's files, written into `dest`, naming `root` (where `dest` will be renamed to)."""
    (dest / "bin").mkdir(parents=True)
    pkg_parent = Path(__file__).resolve().parents[2]
    py = sys.executable
    _script(
        dest / "bin" / "akgen-cxx",
        "#!/bin/sh\n# akgen sim toolkit: the compiler of CMake builds against this toolkit (toolkit_cxx.py)\n"
        f'AKGEN_TOOLKIT="{root}" PYTHONPATH="{pkg_parent}${{PYTHONPATH:+:$PYTHONPATH}}" '
        f'exec "{py}" -m akgen_lsp.sim.toolkit_cxx "$@"\n',
    )
    _script(
        dest / "bin" / "akgen-asc",
        f'#!/bin/sh\n# akgen sim toolkit: the ASC language compiler (.asc sources)\nexec "{root}/bin/akgen-cxx" '
        'asc "$@"\n',
    )
    # ccec, the CCE compiler of CANN 6/7 kernel-launch projects (`project(x LANGUAGES CCE CXX)` with their own
    # cmake/Modules): where those modules look for it, and on PATH
    ccec = (
        f"#!/bin/sh\n# akgen sim toolkit: the CCE compiler (CCE language sources, for the CPU simulator)\n"
        f'exec "{root}/bin/akgen-cxx" cce "$@"\n'
    )
    _script(dest / "bin" / "ccec", ccec)
    for rel in (
        "compiler/ccec_compiler/bin",
        "x86_64-linux/ccec_compiler/bin",
        "aarch64-linux/ccec_compiler/bin",
    ):
        (dest / rel).mkdir(parents=True, exist_ok=True)
        _script(dest / rel / "ccec", ccec)
    env = (
        f"# akgen sim toolkit: what CANN's set_env.sh sets, for the CPU simulator\n"
        f'export ASCEND_HOME_PATH="{root}"\nexport ASCEND_TOOLKIT_HOME="{root}"\n'
        f'export ASCEND_CANN_PACKAGE_PATH="{root}"\nexport ASCEND_OPP_PATH="{root}/opp"\n'
        f'export CMAKE_PREFIX_PATH="{root}${{CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}}"\n'
        f'export LD_LIBRARY_PATH="{root}/lib64${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"\n'
        f'export PATH="{root}/bin:$PATH"\n'
    )
    for name in ("setenv.bash", "set_env.sh"):
        _script(dest / "bin" / name, env)
    _script(dest / "set_env.sh", env)
    (dest / "include").symlink_to(INCLUDE_DIR, target_is_directory=True)
    (dest / "lib64").mkdir()
    (dest / "opp").mkdir()
    specs = dest / "akgen" / "specs"
    specs.mkdir(parents=True)
    for soc in SOC_ARCH:
        (specs / f"{soc}.spec").write_text("\n".join(soc_spec_lines(soc)) + "\n", encoding="utf-8")
    socs = "\n".join(f"  {soc} {SOC_ARCH[soc]} {_npu_arch(soc)}" for soc in SOC_ARCH)
    common = (FILES / "akgen_common.cmake").read_text(encoding="utf-8").replace("@AKGEN_SOCS@", socs)
    (dest / "akgen" / "akgen_common.cmake").write_text(common, encoding="utf-8")
    for rel, name in (
        ("tools/tikicpulib/lib/cmake", "tikicpulib-config.cmake"),
        ("lib/cmake/tikicpulib", "tikicpulib-config.cmake"),
        ("tools/tikcpp/ascendc_kernel_cmake", "ascendc.cmake"),
        ("compiler/tikcpp/ascendc_kernel_cmake", "ascendc.cmake"),
        ("ascendc_devkit/tikcpp/samples/cmake", "ascendc.cmake"),
        ("lib/cmake/ASC", "ASCConfig.cmake"),
    ):
        d = dest / rel
        d.mkdir(parents=True, exist_ok=True)
        (d / name).write_text(f'# akgen sim toolkit\ninclude("{root}/akgen/{name}")\n', encoding="utf-8")
        shutil.copy(FILES / name, dest / "akgen" / name)
    for name in (
        "op_ut.cmake",
        "akgen_ut_main.cpp",
    ):  # the kernel unit tests of operator repositories (op_test.py)
        shutil.copy(FILES / name, dest / "akgen" / name)
    modules = dest / "akgen" / "asc_modules"
    modules.mkdir()
    for p in (FILES / "asc_modules").iterdir():
        shutil.copy(p, modules / p.name)
    (dest / "version.info").write_text(f"Version=akgen-sim-{TOOLKIT_FORMAT}\n", encoding="utf-8")
    (dest / "ascend_toolkit_install.info").write_text(
        f"package_name=akgen-sim\nversion={TOOLKIT_FORMAT}\n", encoding="utf-8"
    )


def _npu_arch(soc: str) -> str:
    try:
        return load_arch(SOC_ARCH.get(soc, soc)).npu_arch
    except ArchError:
        return "2201"


def ensure_toolkit() -> Path:
    """The toolkit folder for this version of the simulator, made on first use (atomically)."""
    final = cache_dir() / "toolkit" / toolkit_key()
    if (final / "version.info").is_file():
        return final
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = final.parent / f".{final.name}.{os.getpid()}.{threading.get_ident()}"  # threads of one process too
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        tmp.mkdir()
        _write_tree(tmp, final)
        os.replace(tmp, final)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if (final / "version.info").is_file():
            return final  # another process made it first
        raise ToolkitError(
            f"cannot make the simulator toolkit in {final.parent}: {exc}; set AKGEN_CACHE_DIR to a "
            "writable folder"
        ) from None
    return final


def environment(root: Path) -> dict[str, str]:
    """The environment variables the toolkit's setenv.bash exports (for running a sample's scripts)."""
    env = {
        "ASCEND_HOME_PATH": str(root),
        "ASCEND_TOOLKIT_HOME": str(root),
        "ASCEND_CANN_PACKAGE_PATH": str(root),
        "ASCEND_OPP_PATH": str(root / "opp"),
    }
    for key, value in (
        ("CMAKE_PREFIX_PATH", str(root)),
        ("LD_LIBRARY_PATH", str(root / "lib64")),
        ("PATH", str(root / "bin")),
    ):
        old = os.environ.get(key)
        env[key] = value + (os.pathsep + old if old else "")
    return env
