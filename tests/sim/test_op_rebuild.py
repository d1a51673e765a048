"""The warm save of an operator's kernel UT (akgen_lsp/sim/op_rebuild.py, ut_pyrun.py): after CMake built it once,
an edit of the kernel's header is rebuilt without CMake and its effect is seen; an edit of what CMake read voids the
plan (the data scripts' replay: test_ut_broker.py)."""

from __future__ import annotations

import json
from pathlib import Path

from akgen_lsp.sim import op_rebuild
from akgen_lsp.sim.compiler import find_cxx
from akgen_lsp.sim.op_test import run_op_test
from akgen_lsp.sim.toolkit import ensure_toolkit

from .test_op_test import copy_repo, needs_ut_tools, ut_tools  # noqa: F401 - the fixture


@needs_ut_tools
def test_a_header_edit_is_rebuilt_without_cmake_and_a_cmakelists_edit_with_it(tmp_path: Path) -> None:
    repo = copy_repo(tmp_path)
    op = repo / "math" / "axpb"
    work = tmp_path / "work"
    first = run_op_test(op, work=work)
    assert first.ok and "Built target" in first.log
    plan = json.loads((work / op_rebuild.PLAN).read_text(encoding="utf-8"))
    kernel_obj = next(o for o in plan["objects"].values() if o["source"].endswith("op_kernel/axpb.cpp"))
    assert str(op / "op_kernel" / "axpb_common.h") in kernel_obj["deps"]  # from g++'s dependency list
    # our gtest main is the machine's, built once per SoC: linked, not compiled for the operator
    assert not any(o["source"].endswith("akgen_ut_main.cpp") for o in plan["objects"].values())
    assert any(op_rebuild.MAIN in o for o in plan["links"][0]["objects"])

    header = op / "op_kernel" / "axpb_common.h"
    good = header.read_text(encoding="utf-8")
    header.write_text(good.replace("Adds(y, y, b,", "Adds(y, y, a,"), encoding="utf-8")
    wrong = run_op_test(op, work=work)
    assert "Built target" not in wrong.log  # no CMake, no make
    assert wrong.built and wrong.golden == "mismatch" and not wrong.ok

    header.write_text(good, encoding="utf-8")
    again = run_op_test(op, work=work)
    assert again.ok and again.golden == "match" and "Built target" not in again.log

    cmake = op / "tests" / "ut" / "op_kernel" / "CMakeLists.txt"
    cmake.write_text(cmake.read_text(encoding="utf-8") + "# an edit\n", encoding="utf-8")
    rebuilt = run_op_test(op, work=work)
    assert rebuilt.ok and "Built target" in rebuilt.log  # the plan was void: CMake ran

    header.write_text(good.replace("Muls(y, x, a, count);", "Muls(y, x, a, count)"), encoding="utf-8")
    broken = run_op_test(op, work=work)
    assert not broken.built and "Built target" not in broken.log
    assert any(f.span.path == str(header) for f in broken.findings)
    header.write_text(good, encoding="utf-8")  # back to the text of a compile before: rebuilt, not reused
    fixed = run_op_test(op, work=work)
    assert fixed.ok and fixed.golden == "match" and "Built target" not in fixed.log


@needs_ut_tools
def test_the_gtest_main_is_built_once_per_soc_and_defines() -> None:
    cxx, toolkit = find_cxx(), ensure_toolkit().resolve()
    main = op_rebuild.ensure_ut_main(cxx, "Ascend910B2", toolkit)
    assert main is not None and main.is_file() and op_rebuild.MAIN in str(main)
    assert op_rebuild.ensure_ut_main(cxx, "Ascend910B2", toolkit) == main
    other = {op_rebuild.ensure_ut_main(cxx, "Ascend910B1", toolkit),
             op_rebuild.ensure_ut_main(cxx, "Ascend910B2", toolkit, ["-DAKGEN_TEST_DEFINE=1"])}
    assert None not in other and main not in other and len(other) == 2
