"""Logs -> error blocks, on the fixtures (real g++ and clang output, recorded CANN shapes)."""

from __future__ import annotations

import gzip
import json
import tracemalloc
from pathlib import Path

import pytest

from akgen_lsp.logs.blocks import ErrorBlock
from akgen_lsp.logs.mine import LogFormatError, detect_format, mine_log
from akgen_lsp.logs.paths import PathMapper
from tests.errors.conftest import KERNELS, LOGS


def _by_line(blocks: list[ErrorBlock], line: int) -> ErrorBlock:
    return next(b for b in blocks if b.line == line)


def test_gcc_on_our_headers() -> None:
    blocks = mine_log(LOGS / "gcc_add_errors.log")
    assert detect_format(LOGS / "gcc_add_errors.log") == "gcc"
    assert [(b.line, b.column) for b in blocks] == [(25, 42), (29, 18), (33, 31), (54, 17), (30, 12), (31, 12)]
    deq = _by_line(blocks, 25)
    assert deq.file == "kernels/add_errors.cpp" and deq.tool == "gcc" and deq.code == "CXX"
    assert deq.fixits == ["DeQue"]
    assert deq.source_line is not None and "inQueueX.Dequeue<T>()" in deq.source_line
    # the two "expected primary-expression" parse errors of the same line are its follow-ons, not blocks
    assert [n.message for n in deq.notes if n.message.startswith("follow-on")] == [
        "follow-on error: expected primary-expression before '>' token",
        "follow-on error: expected primary-expression before ')' token"]
    assert "In member function 'void KernelAdd<T>::Compute()'" in deq.context[0]
    add = _by_line(blocks, 30)
    # the template backtrace is one block at the user's line; the candidates in our headers are its notes
    assert add.context[:2] == ["kernels/add_errors.cpp: In instantiation of 'void KernelAdd<T>::Compute() [with T = "
                               "long int]'", "kernels/add_errors.cpp:54: required from here"]
    assert any("candidate expects 4 arguments, 3 provided" in n.message for n in add.notes)
    assert any(n.file and "akgen_sim/vec_binary.h" in n.file for n in add.notes)
    assert _by_line(blocks, 54).fixits == [";"]
    assert "error: 'tileLen' was not declared in this scope" in _by_line(blocks, 33).raw


def test_an_error_inside_our_header_moves_to_the_users_call() -> None:
    (block,) = mine_log(LOGS / "gcc_exp_int.log")
    assert (block.file, block.line, block.column) == ("kernels/exp_int.cpp", 12, 12)  # the Exp call, not main's line
    assert block.message.startswith("static assertion failed: Failed to check dtype in Exp")
    assert any(c.startswith("reported in /opt/akgen-lsp/akgen_lsp/sim/include/akgen_sim/vec_unary.h:10")
               for c in block.context)
    # the ambiguous exp() further down the same instantiation is a follow-on of it
    assert any(n.message.startswith("follow-on error: call of overloaded 'exp(C&)'") for n in block.notes)


def test_clang_fixits_notes_and_twenty_uses_grouped() -> None:
    blocks = mine_log(LOGS / "clang_stub.log")
    assert detect_format(LOGS / "clang_stub.log") == "clang"
    soft = _by_line(blocks, 16)
    assert soft.fixits == ["SoftMax"] and soft.notes[0].message == "'SoftMax' declared here"
    assert soft.source_line == "    AscendC::Softmax(z, x, 4096);"
    undeclared = _by_line(blocks, 19)
    assert undeclared.count == 3 and undeclared.occurrences == [("kernels/clang_stub.cpp", 20, 29),
                                                                ("kernels/clang_stub.cpp", 21, 29)]
    # one message, two causes: the candidates' notes keep them apart
    assert _by_line(blocks, 17).count == 1 and _by_line(blocks, 18).count == 1


def test_bisheng_build_sh_log() -> None:
    blocks = mine_log(LOGS / "bisheng_build_sh.log")
    assert detect_format(LOGS / "bisheng_build_sh.log") == "bisheng"
    assert [(b.tool, b.line) for b in blocks] == [("bisheng", 44), ("bisheng", 51)]  # make/[ERROR] wrappers dropped
    soft, row = blocks
    assert soft.fixits == ["SoftMax"] and soft.notes[0].file and soft.notes[0].file.endswith("softmax.h")
    assert soft.count == 1  # the copy build_out compiles again is the same error of the same file
    assert row.count == 3 and row.message == "use of undeclared identifier 'rowLen'"


def test_the_source_folder_maps_build_paths_to_the_users_files(tmp_path: Path) -> None:
    src = tmp_path / "mykernel" / "op_kernel"
    src.mkdir(parents=True)
    (src / "softmax_row.cpp").write_text("// the user's copy\n")
    blocks = mine_log(LOGS / "bisheng_build_sh.log", mapper=PathMapper([tmp_path / "mykernel"]))
    assert {b.file for b in blocks} == {str((src / "softmax_row.cpp").resolve())}


def test_cmake_make_ninja_and_the_linker() -> None:
    cm = mine_log(LOGS / "cmake_configure.log")
    assert [b.tool for b in cm] == ["cmake", "make"]
    assert cm[0].message.startswith("CMake Error: include could not find requested file:")
    assert cm[0].line == 20 and cm[0].file and cm[0].file.endswith("ASCConfig.cmake")
    assert "CMakeLists.txt:3 (find_package)" in cm[0].context
    assert cm[1].message == "gmake: *** No rule to make target 'Makefile'.  Stop."
    (nj,) = mine_log(LOGS / "ninja_failed.log")
    assert (nj.tool, nj.file, nj.line) == ("bisheng", "/home/ci/op/op_kernel/add_math.cpp", 30)
    assert "requires 4 arguments, but 3 were provided" in nj.notes[0].message
    ld = mine_log(LOGS / "link.log")
    assert [b.message for b in ld] == ["undefined reference to `optiling::AddMathTiling(gert::TilingContext*)'",
                                       "undefined symbol `AscendC::SetAtomicAddf32()'"]
    assert ld[0].context == ["in function aclnnAddMath (CMakeFiles/cust_opapi.dir/aclnn_add_math.cpp.o)"]
    assert ld[1].notes[0].message == "referenced by add_math.cpp"


def test_msopgen_lines() -> None:
    blocks = mine_log(LOGS / "msopgen.log")
    assert detect_format(LOGS / "msopgen.log") == "msopgen"
    assert [b.message for b in blocks] == ['msopgen: The value of "type" for input "x" is not supported: "fp16".',
                                           "msopgen: msopgen gen failed: the op description json is invalid."]


@pytest.mark.parametrize(("name", "code", "words"), [
    ("npu_507015.log", "NPU-507015", "The DDR address of the MTE instruction is out of range"),
    ("npu_507035.log", "NPU-507035", "unaligned UUB addresses"),
    ("npu_507014.log", "NPU-507014", "timeout or trap error"),
    ("aclnn_561103.log", "NPU-561103", "ACLNN_ERR_INNER_NULLPTR"),
])
def test_npu_runtime_errors_are_one_block_per_failure(name: str, code: str, words: str) -> None:
    assert detect_format(LOGS / name) == "npu"
    (block,) = mine_log(LOGS / name)
    assert block.code == code and block.tool == "npu-runtime" and words in block.message
    assert block.extra["npu_source"]  # the meaning comes with its public source


def test_the_report_lines_of_an_ez9999_failure() -> None:
    (block,) = mine_log(LOGS / "npu_507015.log")
    assert (block.file, block.line) == ("/home/ci/run/add_custom/main.cpp", 108)
    assert block.extra["exception"] == "aicore error exception" and block.extra["core"] == 0
    assert block.notes[0].message == "kernel task error retCode=0x26 [aicore exception]"
    assert block.context == ["returned by aclrtSynchronizeStream"]


def test_unknown_and_binary_logs_are_refused_with_what_to_do(tmp_path: Path) -> None:
    text = tmp_path / "notes.log"
    text.write_text("all good here\nnothing failed\n")
    with pytest.raises(LogFormatError, match=r"could not recognise this log.*use --format"):
        mine_log(text)
    assert mine_log(text, "gcc") == []  # a format given: nothing found is an empty result, not an error
    binary = tmp_path / "core.bin"
    binary.write_bytes(bytes(range(256)) * 64)
    with pytest.raises(LogFormatError, match="binary data"):
        mine_log(binary)
    with pytest.raises(LogFormatError, match="unknown format"):
        mine_log(text, "visual-studio")


def test_a_huge_log_is_streamed_in_bounded_memory(tmp_path: Path) -> None:
    log = tmp_path / "huge.log.gz"
    error = (LOGS / "clang_stub.log").read_text()
    with gzip.open(log, "wt") as fh:
        fh.write("x" * (8 << 20) + "\n")  # one 8 MiB line
        for i in range(60_000):
            fh.write(f"[{i}/60000] Building CXX object op_kernel/obj_{i}.o\n")
        fh.write(error)
    tracemalloc.start()
    blocks = mine_log(log, "clang")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(blocks) == 5 and peak < 20 << 20


def test_akgen_json_outputs(tmp_path: Path) -> None:
    sim = tmp_path / "run.json"
    sim.write_text(json.dumps({"status": "runtime_error", "findings": [
        {"path": "k.cpp", "line": 12, "column": 9, "severity": "error", "code": "SIM-QUE-EMPTY", "source": "akgen-run",
         "message": "DeQue from an empty queue: no tensor was EnQue'd", "error_class": "memory", "fixes": []},
        {"path": "k.cpp", "line": 3, "severity": "warning", "code": "SIM-DC-ROUNDDOWN", "message": "w"}]}))
    assert detect_format(sim) == "sim"
    (b,) = mine_log(sim)
    assert (b.tool, b.code, b.error_class, b.line) == ("sim", "SIM-QUE-EMPTY", "memory", 12)
    assert len(mine_log(sim, warnings=True)) == 2
    results = tmp_path / "results.jsonl"
    rec = {"task": "level1/Math/AddMath", "level": 1, "sample": 0, "mode": "static", "status": "compile_error",
           "findings": [{"path": "a.cpp", "line": 5, "code": "CXX", "severity": "error", "source": "akgen-build",
                         "message": "'tileLen' was not declared in this scope"}]}
    results.write_text(json.dumps(rec) + "\n" + json.dumps({**rec, "sample": 1}) + "\n" + '{"task": "cut')
    (tmp_path / "summary.json").write_text(json.dumps({"candidates_from": "/runs/qwen3-8b"}))
    assert detect_format(results) == "bench"
    blocks = mine_log(results)
    assert [(b.origin["task"], b.origin["sample"], b.origin["model"]) for b in blocks] == [
        ("level1/Math/AddMath", 0, "qwen3-8b"), ("level1/Math/AddMath", 1, "qwen3-8b")]
    lint = tmp_path / "check.json"
    lint.write_text(json.dumps([{"path": "a.cpp", "line": 2, "column": 3, "code": "AKG101", "severity": "error",
                                 "source": "akgen-lint", "message": "no member named 'Softmax'"}]))
    assert detect_format(lint) == "lint"
    assert [(b.tool, b.error_class) for b in mine_log(lint)] == [("lint", "hallucinated_api")]


def test_kernels_of_the_fixtures_exist() -> None:
    assert (KERNELS / "add_errors.cpp").is_file() and (KERNELS / "exp_int.cpp").is_file()
