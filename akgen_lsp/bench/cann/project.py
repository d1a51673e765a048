"""The msopgen custom-op project of one candidate, as NPUKernelBench builds it (framework/batch_compile.py):

    work/
      <op>.json                 the op description msopgen reads (from the candidate's OpDef)
      project/                  `msopgen gen` output, or a copy of a ready project template
        op_host/<op>.cpp, op_host/<op>_tiling.h, op_kernel/<op>.cpp   the candidate's files (skeleton's replaced)
        CMakePresets.json       ASCEND_CANN_PACKAGE_PATH and ASCEND_COMPUTE_UNIT set
        validation/             pybind.cpp (the task's, or generated from the OpDef), CMakeLists.txt, helper header
      build/                    the pybind extension kernel_gen_ops*.so (NPUKernelBench's <src>/../build)
      vendor/                   where the built custom_opp_*.run is installed (--install-path)
      logs/                     ASCENDC_BUILD_LOG_DIR and the captured build log

A template is a folder that already holds an msopgen project (CMakeLists.txt, cmake/, build.sh,
CMakePresets.json): NPUKernelBench's ``libs/common_include/msopgen`` is one; with a template no `msopgen gen` runs.

Every file written here is our own; none of the generated C++/CMake has been compiled (no CANN, no torch_npu here).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.bench.cann import BUILD_TIMEOUT_S, op_description
from akgen_lsp.safety import copy_tree

MSOPGEN_TIMEOUT_S = 120.0
PYBIND_TIMEOUT_S = 300.0
INSTALL_TIMEOUT_S = 120.0
VENDOR = "customize"


@dataclass(frozen=True)
class Command:
    argv: list[str]
    cwd: Path
    timeout_s: float
    stage: str  # msopgen | build | pybind | install
    env: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ProjectSpec:
    """What the project of one candidate is made of."""

    work: Path
    op_type: str  # the OpDef class, CamelCase (AddMath)
    op_snake: str  # file and pybind function name (add_math)
    kernel_source: str
    host_source: str
    tiling_header: str | None = None
    extra_kernel_files: dict[str, str] = field(default_factory=dict)  # helper headers beside the kernel
    extra_host_files: dict[str, str] = field(
        default_factory=dict
    )  # split hosts: <op>_def.cpp, <op>_tiling.cpp...
    soc: str = "Ascend910B2"
    compute_unit: str = "ascend910b"
    cann_home: Path = Path("/usr/local/Ascend/ascend-toolkit/latest")
    template: Path | None = None
    msopgen: str = "msopgen"
    pybind_source: str | None = None  # the task's validation/pybind.cpp (None: generated from the OpDef)
    pybind_params: Sequence[
        tuple[str, str]
    ] = ()  # for a generated pybind: ("tensor"|"scalar", name) per argument
    helper_header: str | None = None  # a pytorch_npu_helper.hpp to use instead of ours
    python: str = sys.executable
    jobs: int = 4
    host_name: str | None = None  # the host source's file name (default <op_snake>.cpp)
    opdef_source: str | None = None  # the file with the OpDef when the host is split (<op>_def.cpp)

    @property
    def project(self) -> Path:
        return self.work / "project"

    @property
    def build_dir(self) -> Path:
        return self.work / "build"

    @property
    def vendor_root(self) -> Path:
        return self.work / "vendor"

    @property
    def op_json(self) -> Path:
        return self.work / f"{self.op_snake}.json"

    @property
    def log_dir(self) -> Path:
        return self.work / "logs"


def user_paths(spec: ProjectSpec, kernel: str, host: str | None, tiling: str | None) -> dict[str, str]:
    """Project copy -> the user's file, for the build-log parser."""
    m = {str(spec.project / "op_kernel" / f"{spec.op_snake}.cpp"): kernel}
    if host:
        m[str(spec.project / "op_host" / (spec.host_name or f"{spec.op_snake}.cpp"))] = host
    if tiling:
        m[str(spec.project / "op_host" / f"{spec.op_snake}_tiling.h")] = tiling
    return m


# --------------------------------------------------------------------------------------------------- commands


def msopgen_command(spec: ProjectSpec) -> Command:
    """``msopgen gen -i <op>.json -c ai_core-<soc> -lan cpp -out <project>`` (asc-devkit's 创建算子工程 page)."""
    return Command(
        [
            spec.msopgen,
            "gen",
            "-i",
            str(spec.op_json),
            "-c",
            f"ai_core-{spec.soc}",
            "-lan",
            "cpp",
            "-out",
            str(spec.project),
        ],
        spec.work,
        MSOPGEN_TIMEOUT_S,
        "msopgen",
    )


def build_env(spec: ProjectSpec) -> dict[str, str]:
    return {"ASCEND_HOME_PATH": str(spec.cann_home), "ASCENDC_BUILD_LOG_DIR": str(spec.log_dir)}


def build_command(spec: ProjectSpec) -> Command:
    """``bash build.sh`` in the project, 400 s (NPUKernelBench's compile timeout)."""
    return Command(["bash", "build.sh"], spec.project, BUILD_TIMEOUT_S, "build", build_env(spec))


def pybind_commands(spec: ProjectSpec) -> list[Command]:
    """Configure and build validation/ into work/build (NPUKernelBench's build.sh does this itself at its end; an
    msopgen-generated build.sh does not)."""
    shared = spec.project / "build_out" / "op_host"
    return [
        Command(
            [
                "cmake",
                "--no-warn-unused-cli",
                "-S",
                str(spec.project / "validation"),
                "-B",
                str(spec.build_dir),
                f"-DSHARED_LIB_DIR={shared}/",
                f"-DPython3_EXECUTABLE={spec.python}",
            ],
            spec.project,
            PYBIND_TIMEOUT_S,
            "pybind",
            build_env(spec),
        ),
        Command(
            ["cmake", "--build", str(spec.build_dir), "-j", str(spec.jobs)],
            spec.project,
            PYBIND_TIMEOUT_S,
            "pybind",
            build_env(spec),
        ),
    ]


def find_run_package(spec: ProjectSpec) -> Path | None:
    out = spec.project / "build_out"
    runs = sorted(out.glob("custom_opp_*.run")) if out.is_dir() else []
    return runs[0] if runs else None


def install_command(spec: ProjectSpec, run_file: Path) -> Command:
    """``custom_opp_<os>_<arch>.run --install-path=<vendor root>`` (asc-devkit's 算子包部署 page); the package lands
    in <vendor root>/vendors/<vendor_name>, which ASCEND_CUSTOM_OPP_PATH must name."""
    return Command(
        ["bash", str(run_file), f"--install-path={spec.vendor_root}"], spec.work, INSTALL_TIMEOUT_S, "install"
    )


def installed_vendor(spec: ProjectSpec) -> Path:
    return spec.vendor_root / "vendors" / VENDOR


# --------------------------------------------------------------------------------------------------- files


def write_op_json(spec: ProjectSpec) -> list[dict[str, Any]]:
    desc = op_description(spec.opdef_source or spec.host_source)
    spec.work.mkdir(parents=True, exist_ok=True)
    spec.op_json.write_text(json.dumps(desc, indent=2) + "\n", encoding="utf-8")
    return desc


def copy_template(spec: ProjectSpec) -> None:
    assert spec.template is not None
    copy_tree(spec.template, spec.project)  # no link out of the template is followed


def place_sources(spec: ProjectSpec) -> None:
    """The candidate's files replace the skeleton's op_host/op_kernel sources (CMakeLists.txt files are kept)."""
    for sub in ("op_host", "op_kernel"):
        d = spec.project / sub
        d.mkdir(parents=True, exist_ok=True)
        for p in d.iterdir():
            if p.is_file() and p.suffix in (".cpp", ".h", ".hpp", ".cc") and p.name != "CMakeLists.txt":
                p.unlink()
    host = spec.project / "op_host"
    kern = spec.project / "op_kernel"
    (host / (spec.host_name or f"{spec.op_snake}.cpp")).write_text(spec.host_source, encoding="utf-8")
    if spec.tiling_header is not None:
        (host / f"{spec.op_snake}_tiling.h").write_text(spec.tiling_header, encoding="utf-8")
    for name, text in spec.extra_host_files.items():
        (host / name).write_text(text, encoding="utf-8")
    (kern / f"{spec.op_snake}.cpp").write_text(spec.kernel_source, encoding="utf-8")
    for name, text in spec.extra_kernel_files.items():
        (kern / name).write_text(text, encoding="utf-8")


def patch_presets(spec: ProjectSpec) -> dict[str, Any]:
    """Set ASCEND_CANN_PACKAGE_PATH and ASCEND_COMPUTE_UNIT in CMakePresets.json (created when the skeleton has
    none); the other cache variables msopgen wrote are kept."""
    path = spec.project / "CMakePresets.json"
    data: dict[str, Any]
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except json.JSONDecodeError:
        data = {}
    presets = data.setdefault("configurePresets", [])
    if not presets:
        data.setdefault("version", 1)
        data.setdefault("cmakeMinimumRequired", {"major": 3, "minor": 19, "patch": 0})
        presets.append(
            {
                "name": "default",
                "displayName": "akgen",
                "generator": "Unix Makefiles",
                "binaryDir": "${sourceDir}/build_out",
                "cacheVariables": {},
            }
        )
    cache = presets[0].setdefault("cacheVariables", {})
    cache["ASCEND_CANN_PACKAGE_PATH"] = {"type": "PATH", "value": str(spec.cann_home)}
    cache["ASCEND_COMPUTE_UNIT"] = {"type": "STRING", "value": spec.compute_unit}
    cache.setdefault("vendor_name", {"type": "STRING", "value": VENDOR})
    cache.setdefault("CMAKE_BUILD_TYPE", {"type": "STRING", "value": "Release"})
    cache.setdefault("ENABLE_BINARY_PACKAGE", {"type": "BOOL", "value": "True"})
    path.write_text(json.dumps(data, indent=4) + "\n", encoding="utf-8")
    return data


_CXX_SCALAR = {"float": "double", "int": "int64_t", "bool": "bool"}


def generated_pybind(
    op_type: str, op_snake: str, desc: dict[str, Any], params: Sequence[tuple[str, str]]
) -> str:
    """A pybind.cpp for a task without one: ``kernel_gen_ops.<op>(args..., outputs...)`` takes the task's
    get_inputs arguments in order (tensors -> the OpDef inputs, scalars -> its attributes, in order) and the
    preallocated outputs, and calls ``aclnn<Op>`` (argument order of a generated aclnn API: inputs, attributes,
    outputs)."""
    attrs = list(desc.get("attr", []))
    outs = [o["name"] for o in desc.get("output_desc", [])]
    if not params:  # no case seen: the OpDef's inputs, then its attributes
        params = [("tensor", i["name"]) for i in desc.get("input_desc", [])] + [
            ("scalar", a["name"]) for a in attrs
        ]
    sig: list[str] = []
    tensors: list[str] = []
    scalars: list[str] = []
    for kind, name in params:
        if kind == "tensor":
            sig.append(f"at::Tensor &{name}")
            tensors.append(name)
        else:
            a = attrs[len(scalars)] if len(scalars) < len(attrs) else {"type": "float"}
            sig.append(f"{_CXX_SCALAR.get(str(a.get('type')), 'double')} {name}")
            scalars.append(name)
    out_names = [f"out_{n}" for n in outs]
    sig += [f"at::Tensor &{n}" for n in out_names]
    call = ", ".join(tensors + scalars + out_names)
    ret = ", ".join(out_names)
    return (
        f"// Generated by akgen for {op_type}: calls aclnn{op_type} through pytorch_npu_helper.hpp.\n"
        '#include <vector>\n#include <torch/extension.h>\n#include "pytorch_npu_helper.hpp"\n\n'
        f"std::vector<at::Tensor> akgen_{op_snake}({', '.join(sig)})\n{{\n"
        f"    EXEC_NPU_CMD(aclnn{op_type}, {call});\n    return {{{ret}}};\n}}\n\n"
        "PYBIND11_MODULE(kernel_gen_ops, m)\n{\n"
        f'    m.def("{op_snake}", &akgen_{op_snake}, "aclnn{op_type} (outputs preallocated by the caller)");\n'
        "}\n"
    )


def task_pybind(source: str, op_type: str, op_snake: str) -> str:
    """NPUKernelBench's validation/pybind.cpp with its placeholders filled as its batch_compile does: aclnnCustomOp
    -> aclnn<Op>, custom_pybind_api -> <op_snake>."""
    return source.replace("aclnnCustomOp", f"aclnn{op_type}").replace("custom_pybind_api", op_snake)


VALIDATION_CMAKE = """\
# akgen: builds the pybind extension kernel_gen_ops from pybind.cpp against torch, torch_npu and CANN.
cmake_minimum_required(VERSION 3.16)
project(akgen_kernel_gen_ops CXX)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
find_package(Python3 COMPONENTS Interpreter Development REQUIRED)
execute_process(COMMAND ${Python3_EXECUTABLE} -c
    "import torch, pybind11; print(torch.utils.cmake_prefix_path + ';' + pybind11.get_cmake_dir())"
    OUTPUT_VARIABLE AKGEN_PREFIX OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE AKGEN_RC)
if(NOT AKGEN_RC EQUAL 0)
    message(FATAL_ERROR "akgen: ${Python3_EXECUTABLE} cannot import torch and pybind11; install them there")
endif()
list(APPEND CMAKE_PREFIX_PATH ${AKGEN_PREFIX})
execute_process(COMMAND ${Python3_EXECUTABLE} -c "import os, torch_npu; print(os.path.dirname(torch_npu.__file__))"
    OUTPUT_VARIABLE TORCH_NPU_DIR OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE AKGEN_RC)
if(NOT AKGEN_RC EQUAL 0)
    message(FATAL_ERROR "akgen: ${Python3_EXECUTABLE} cannot import torch_npu; install the torch_npu matching torch")
endif()
find_package(pybind11 REQUIRED)
find_package(Torch REQUIRED)
if(NOT DEFINED ENV{ASCEND_HOME_PATH})
    message(FATAL_ERROR "akgen: ASCEND_HOME_PATH is not set; source the set_env.sh of your CANN install")
endif()
set(AKGEN_CANN $ENV{ASCEND_HOME_PATH})
pybind11_add_module(kernel_gen_ops SHARED pybind.cpp)
separate_arguments(AKGEN_TORCH_FLAGS UNIX_COMMAND "${TORCH_CXX_FLAGS}")
target_compile_options(kernel_gen_ops PRIVATE ${AKGEN_TORCH_FLAGS})
target_include_directories(kernel_gen_ops PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${TORCH_INCLUDE_DIRS}
    ${TORCH_NPU_DIR}/include ${SHARED_LIB_DIR} ${SHARED_LIB_DIR}/autogen ${AKGEN_CANN}/include
    ${AKGEN_CANN}/include/aclnn ${AKGEN_CANN}/include/experiment/runtime ${AKGEN_CANN}/include/experiment/msprof)
target_link_directories(kernel_gen_ops PRIVATE ${SHARED_LIB_DIR} ${TORCH_NPU_DIR}/lib ${AKGEN_CANN}/lib64)
target_link_libraries(kernel_gen_ops PRIVATE ${TORCH_LIBRARIES} ${TORCH_INSTALL_PREFIX}/lib/libtorch_python.so
    torch_npu ascendcl nnopbase dl)
"""

HELPER_HEADER = """\
// akgen's EXEC_NPU_CMD: converts the arguments (at::Tensor -> aclTensor, scalars as they are), looks up
// <api>GetWorkspaceSize and <api> in libcust_opapi.so, allocates the workspace on the NPU and launches on the
// current torch_npu stream. Written from the aclnn two-phase calling convention in the CANN docs; never compiled
// in akgen's own CI (no CANN, no torch_npu there).
#pragma once
#include <dlfcn.h>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>
#include <torch/extension.h>
#include "torch_npu/csrc/core/npu/NPUStream.h"
#include "acl/acl.h"
#include "aclnn/acl_meta.h"

namespace akgen_npu {

inline void *Symbol(const std::string &name)
{
    static void *lib = dlopen("libcust_opapi.so", RTLD_NOW | RTLD_GLOBAL);
    void *f = lib ? dlsym(lib, name.c_str()) : nullptr;
    if (f == nullptr) {
        throw std::runtime_error(name + " is not in libcust_opapi.so: install the custom op package and put its "
                                 "op_api/lib on LD_LIBRARY_PATH (ASCEND_CUSTOM_OPP_PATH names its vendor folder)");
    }
    return f;
}

inline aclDataType AclType(at::ScalarType t)
{
    switch (t) {
        case at::kHalf: return ACL_FLOAT16;
        case at::kFloat: return ACL_FLOAT;
        case at::kBFloat16: return ACL_BF16;
        case at::kDouble: return ACL_DOUBLE;
        case at::kChar: return ACL_INT8;
        case at::kByte: return ACL_UINT8;
        case at::kShort: return ACL_INT16;
        case at::kInt: return ACL_INT32;
        case at::kLong: return ACL_INT64;
        case at::kBool: return ACL_BOOL;
        default: throw std::runtime_error("akgen: a tensor dtype the helper does not map to aclDataType");
    }
}

inline aclTensor *Convert(const at::Tensor &t)
{
    std::vector<int64_t> dims(t.sizes().begin(), t.sizes().end());
    std::vector<int64_t> strides(t.strides().begin(), t.strides().end());
    std::vector<int64_t> storage{static_cast<int64_t>(t.storage().nbytes() / t.element_size())};
    return aclCreateTensor(dims.data(), dims.size(), AclType(t.scalar_type()), strides.data(), t.storage_offset(),
                           ACL_FORMAT_ND, storage.data(), storage.size(), const_cast<void *>(t.storage().data()));
}
inline double Convert(double v) { return v; }
inline int64_t Convert(int64_t v) { return v; }
inline bool Convert(bool v) { return v; }

inline void Release(aclTensor *t) { aclDestroyTensor(t); }
template <typename T> inline void Release(T) {}

template <typename Tuple, std::size_t... I>
int GetWorkspace(void *f, Tuple &args, uint64_t *size, aclOpExecutor **exec, std::index_sequence<I...>)
{
    using Fn = int (*)(std::tuple_element_t<I, Tuple>..., uint64_t *, aclOpExecutor **);
    return reinterpret_cast<Fn>(f)(std::get<I>(args)..., size, exec);
}

template <typename... Ts>
void Exec(const std::string &api, Ts &&...in)
{
    auto args = std::make_tuple(Convert(in)...);
    uint64_t size = 0;
    aclOpExecutor *exec = nullptr;
    int rc = GetWorkspace(Symbol(api + "GetWorkspaceSize"), args, &size, &exec,
                          std::index_sequence_for<Ts...>{});
    if (rc != 0) {
        throw std::runtime_error(api + "GetWorkspaceSize returned " + std::to_string(rc));
    }
    at::Tensor workspace;
    void *ws = nullptr;
    if (size > 0) {
        workspace = at::empty({static_cast<int64_t>(size)},
                              at::TensorOptions().device(at::DeviceType::PrivateUse1).dtype(at::kByte));
        ws = workspace.data_ptr();
    }
    using Run = int (*)(void *, uint64_t, aclOpExecutor *, aclrtStream);
    rc = reinterpret_cast<Run>(Symbol(api))(ws, size, exec, c10_npu::getCurrentNPUStream().stream(false));
    std::apply([](auto &...a) { (Release(a), ...); }, args);
    if (rc != 0) {
        throw std::runtime_error(api + " returned " + std::to_string(rc));
    }
}

}  // namespace akgen_npu

#define EXEC_NPU_CMD(api, ...) akgen_npu::Exec(#api, __VA_ARGS__)
"""


def write_validation(spec: ProjectSpec, desc: dict[str, Any]) -> Path:
    """validation/: pybind.cpp (the task's with its placeholders filled, else generated), our CMakeLists.txt when
    the skeleton has none, and the helper header (the given one, the template's, or ours)."""
    v = spec.project / "validation"
    v.mkdir(parents=True, exist_ok=True)
    if spec.pybind_source is not None:
        text = task_pybind(spec.pybind_source, spec.op_type, spec.op_snake)
    else:
        text = generated_pybind(spec.op_type, spec.op_snake, desc, spec.pybind_params)
    (v / "pybind.cpp").write_text(text, encoding="utf-8")
    if not (v / "CMakeLists.txt").is_file():
        (v / "CMakeLists.txt").write_text(VALIDATION_CMAKE, encoding="utf-8")
    helper = v / "pytorch_npu_helper.hpp"
    if spec.helper_header is not None:
        helper.write_text(spec.helper_header, encoding="utf-8")
    elif not helper.is_file():
        helper.write_text(HELPER_HEADER, encoding="utf-8")
    return v


def prepare_project(spec: ProjectSpec) -> list[Command]:
    """Write what can be written before msopgen runs and return the commands in order: [msopgen] (only without a
    template), build.sh; `finish_project` must run between msopgen and build.sh."""
    write_op_json(spec)
    spec.log_dir.mkdir(parents=True, exist_ok=True)
    if spec.template is not None:
        copy_template(spec)
        return [build_command(spec)]
    return [msopgen_command(spec), build_command(spec)]


# bisheng (clang) prints its fix-it hints as machine-readable lines, which the log parser turns into fixes
# (akgen_lsp/logs/fixits.py); add_ops_compile_options is the custom-op project's own way to pass kernel options.
FIXIT_OPTIONS = "add_ops_compile_options(ALL OPTIONS -fdiagnostics-parseable-fixits)"


def add_fixit_option(spec: ProjectSpec) -> None:
    """Ask bisheng for parseable fix-its in the project's op_kernel/CMakeLists.txt (once)."""
    cmake = spec.project / "op_kernel" / "CMakeLists.txt"
    if not cmake.is_file():
        return
    text = cmake.read_text(encoding="utf-8", errors="replace")
    if FIXIT_OPTIONS not in text:
        cmake.write_text(text.rstrip("\n") + "\n" + FIXIT_OPTIONS + "\n", encoding="utf-8")


def finish_project(spec: ProjectSpec) -> None:
    """After the skeleton exists: sources in place, presets patched, fix-its asked for, validation/ written."""
    desc = json.loads(spec.op_json.read_text(encoding="utf-8"))[0]
    place_sources(spec)
    patch_presets(spec)
    add_fixit_option(spec)
    write_validation(spec, desc)
