"""Build logs of a CANN custom-op build -> findings at the user's file and line (fixtures: fixtures/cann_logs/, our own
recordings of shapes from public issues; each file names its source)."""

from __future__ import annotations

from pathlib import Path

import pytest

from akgen_lsp.bench.cann import parse_build_log
from akgen_lsp.logs.blocks import ErrorBlock
from akgen_lsp.logs.mine import mine_log
from akgen_lsp.logs.paths import PathMapper, UserFiles
from akgen_lsp.logs.text import mine_lines

LOGS = Path(__file__).parent / "fixtures" / "cann_logs"
W1 = "/tmp/akgen-cann-w1/cann/project/op_kernel/add_math.cpp"


def _log(name: str) -> str:
    """The fixture without its leading `# akgen fixture` comment lines (they are not part of the log)."""
    lines = (LOGS / name).read_text().splitlines()
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    return "\n".join(lines)


def _where(fs) -> list[tuple[str, int, int]]:
    return [(f.span.path, f.span.line, f.span.column) for f in fs]


def test_kernel_errors_deduplicated_and_mapped_from_build_copies() -> None:
    fs = parse_build_log(_log("kernel_errors_binary_build.log"), {W1: "kernels/add_math.cpp"})
    # the warning is dropped; the copy under build_out (same basename) maps to the user's file; repeats collapse
    assert _where(fs) == [("kernels/add_math.cpp", 41, 18), ("kernels/add_math.cpp", 57, 26)]
    assert [f.error_class for f in fs] == ["hallucinated_api", "dtype"]  # the taxonomy (error_classes.toml)
    assert all(f.code == "CXX" and f.source == "akgen-build" and f.data["compiler"] == "bisheng" for f in fs)


def test_error_in_a_cann_header_moves_to_the_users_instantiation() -> None:
    user = {"/tmp/akgen-cann-w2/cann/project/op_kernel/gelu_act.cpp": "kernels/gelu_act.cpp"}
    fs = parse_build_log(_log("header_instantiation.log"), user)
    assert len(fs) == 1
    f = fs[0]
    assert (f.span.path, f.span.line, f.span.column) == ("kernels/gelu_act.cpp", 64, 9)  # innermost user frame
    assert "CastIntrinsicsImpl" in f.message and "kernel_operator_vec_duplicate_impl.h:59" in f.message
    assert f.data["header"].endswith("kernel_operator_vec_duplicate_impl.h:59:5")
    # without the user's file known, the error stays where the compiler put it
    raw = parse_build_log(_log("header_instantiation.log"))
    assert raw[0].span.path.endswith("kernel_operator_vec_duplicate_impl.h") and raw[0].span.line == 59


def test_indented_fatal_include() -> None:
    user = {"/tmp/akgen-cann-w3/cann/project/op_kernel/rms_norm.cpp": "rms_norm.cpp"}
    fs = parse_build_log(_log("fatal_include_pip.log"), user)
    assert _where(fs) == [("rms_norm.cpp", 3, 10)] and "file not found" in fs[0].message


def test_cmake_error_with_detail_lines_and_chinese_make() -> None:
    fs = parse_build_log(_log("cmake_ascconfig.log"))
    assert len(fs) == 1 and fs[0].code == "CMAKE" and fs[0].error_class == "harness"
    assert fs[0].span.path.endswith("ASCConfig.cmake") and fs[0].span.line == 20
    assert "include could not find requested file:" in fs[0].message and "FindASC.cmake" in fs[0].message
    assert "Call Stack" not in fs[0].message
    assert fs[0].data["command"] == "include"


def test_cmake_fatal_error_of_the_pybind_build() -> None:
    fs = parse_build_log(_log("pybind_cmake_torch_npu.log"))
    assert len(fs) == 1 and fs[0].span.line == 20
    assert fs[0].message == ("CMake Error: akgen: /usr/bin/python3.10 cannot import torch_npu; install the torch_npu "
                             "matching torch")


def test_ld_and_lld_undefined_symbols() -> None:
    fs = parse_build_log(_log("link_errors.log"), {W1: "kernels/add_math.cpp"})
    assert [f.code for f in fs] == ["LINK", "LINK"]
    assert "optiling::TilingFuncMissing(gert::TilingContext*)" in fs[0].message
    assert "AscendC::SetAtomicAddTypo<float>()" in fs[1].message
    assert fs[0].span.path == "kernels/add_math.cpp" and fs[0].error_class == "tiling"  # a missing TilingFunc
    assert fs[1].error_class == "hallucinated_api"


def test_driver_error_without_location() -> None:
    fs = parse_build_log(_log("driver_crash.log"), {W1: "kernels/add_math.cpp"})
    assert len(fs) == 1 and fs[0].span.path == "kernels/add_math.cpp" and fs[0].span.line == 1
    assert fs[0].message.startswith("bisheng: clang frontend command failed with exit code 139")


def test_msopgen_errors_point_at_the_op_description() -> None:
    fs = parse_build_log(_log("msopgen_error.log"), op_json="/w/add_math.json", tool="msopgen")
    assert [f.code for f in fs] == ["MSOPGEN", "MSOPGEN"] and fs[0].span.path == "/w/add_math.json"
    assert 'is not supported: "fp16"' in fs[0].message
    # in an ordinary build log, an "[ERROR]" line of the kernel compiler is not an msopgen error
    assert all(f.code != "MSOPGEN" for f in parse_build_log(_log("kernel_errors_binary_build.log")))


def test_make_failure_alone_is_reported_once() -> None:
    text = "[ 50%] Building CXX object x.o\ngmake[2]: *** [x/build.make:70: x.o] Error 1\ngmake: *** [all] Error 2\n"
    fs = parse_build_log(text, {W1: "kernels/add_math.cpp"})
    assert len(fs) == 1 and fs[0].code == "BUILD" and "gmake: *** [all] Error 2" in fs[0].message
    assert parse_build_log("all good\n[100%] Built target package\n") == []


def test_handmade_fixtures_still_parse() -> None:
    user = {"/tmp/work/project/op_kernel/add_math.cpp": "kernels/add_math.cpp"}
    assert _where(parse_build_log(_log("handmade_bisheng_errors.log"), user)) == [
        ("kernels/add_math.cpp", 41, 9), ("kernels/add_math.cpp", 57, 26)]
    cm = parse_build_log(_log("handmade_cmake_error.log"))
    assert len(cm) == 1 and "ASCEND_CANN_PACKAGE_PATH" in cm[0].message and cm[0].span.path == "cmake/config.cmake"
    assert [f.code for f in parse_build_log(_log("handmade_link_error.log"))] == ["LINK"]


def test_fixit_lines_become_fixes_at_the_users_file(tmp_path: Path) -> None:
    src = tmp_path / "fixit_add.cpp"
    src.write_text((LOGS / "fixit_add.cpp").read_text())
    fs = parse_build_log(_log("fixits_clang.log"), {"/tmp/fixclang/cann/project/op_kernel/fixit_add.cpp": str(src)})
    assert [(f.span.line, f.span.column) for f in fs] == [(9, 14), (10, 17)]
    assert fs[0].fixes == ()  # clang had no suggestion for 'Ad'
    (fix,) = fs[1].fixes
    assert not fix.safe and fix.title == "Change 'xLocl' to 'xLocal' (the compiler's fix-it)"
    (edit,) = fix.edits
    assert (edit.span.path, edit.span.line, edit.span.column, edit.span.end_column, edit.new_text) == (
        str(src), 10, 17, 22, "xLocal")


def test_a_further_error_of_the_same_header_goes_where_the_previous_one_went() -> None:
    # clang prints a header's include chain once per compile, so the second error inside the same instantiation
    # comes with no chain and no note of its own: it is at the user's line of the first (as `akgen errors mine`)
    header = "/usr/local/Ascend/ascend-toolkit/latest/tools/tikcpp/tikcfw/impl/kernel_operator_vec_binary_impl.h"
    kernel = "/tmp/akgen-cann-w4/cann/project/op_kernel/add_math.cpp"
    log = "\n".join([
        f"In file included from {kernel}:1:",
        f"{header}:40:7: error: no matching function for call to 'AddImpl'",
        f"{kernel}:30:9: note: in instantiation of function template specialization 'AscendC::Add<float>' "
        "requested here",
        f"{header}:52:3: error: use of undeclared identifier 'addMask'",
        "2 errors generated.",
    ])
    fs = parse_build_log(log, {kernel: "kernels/add_math.cpp"})
    assert _where(fs) == [("kernels/add_math.cpp", 30, 9), ("kernels/add_math.cpp", 30, 9)]
    assert [f.data["header"] for f in fs] == [f"{header}:40:7", f"{header}:52:3"]
    assert fs[1].message == "use of undeclared identifier 'addMask' (reported in kernel_operator_vec_binary_impl.h:52)"
    # the miner's blocks: the same places, and the header's place kept through the blocks' JSON
    blocks = list(mine_lines(log.splitlines(), "bisheng", UserFiles({kernel: "kernels/add_math.cpp"})))
    assert [(b.file, b.line, b.column) for b in blocks] == _where(fs)
    assert [ErrorBlock.from_json(b.to_json()).header for b in blocks] == [f"{header}:40:7", f"{header}:52:3"]


@pytest.mark.parametrize("name", ["header_instantiation.log", "kernel_errors_binary_build.log",
                                  "handmade_bisheng_errors.log", "fixits_clang.log", "fatal_include_pip.log"])
def test_the_editor_and_akgen_errors_mine_read_a_log_to_the_same_places(name: str, tmp_path: Path) -> None:
    # one reader: the editor's findings and the miner's blocks of a CANN log are at the same user lines
    log = tmp_path / name
    log.write_text(_log(name))
    kernels = {b.file for b in mine_log(log, "bisheng") if b.file and "/op_kernel/" in b.file}
    users = {k: str(tmp_path / "src" / Path(k).name) for k in kernels}
    for shown in users.values():
        Path(shown).parent.mkdir(exist_ok=True)
        Path(shown).write_text("// the user's kernel\n")
    mined = mine_log(log, "bisheng", PathMapper([tmp_path / "src"]))
    editor = parse_build_log(_log(name), users)
    assert users and editor
    assert [(b.file, b.line, b.column) for b in mined] == sorted(
        {(f.span.path, f.span.line, f.span.column) for f in editor}, key=[(f.span.path, f.span.line, f.span.column) for f in editor].index)
