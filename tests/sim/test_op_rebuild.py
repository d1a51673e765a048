"""The warm save of an operator's kernel UT (akgen_lsp/sim/op_rebuild.py, ut_pyrun.py): after CMake built it once,
an edit of the kernel's header is rebuilt without CMake and its effect is seen; an edit of what CMake read voids the
plan; a data script's recorded run is replayed only while nothing it read changed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from akgen_lsp.sim import op_rebuild
from akgen_lsp.sim.op_test import run_op_test

from .test_op_test import copy_repo, needs_ut_tools, ut_tools  # noqa: F401 - the fixture

PYRUN = Path(op_rebuild.__file__).with_name("ut_pyrun.py")


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


def _pyrun(cwd: Path, cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AKGEN_UT_SCRIPT_CACHE": str(cache)}
    return subprocess.run([sys.executable, str(PYRUN), *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=60)


def test_a_data_script_is_replayed_only_while_what_it_read_is_unchanged(tmp_path: Path) -> None:
    data, cache, log = tmp_path / "data", tmp_path / "cache", tmp_path / "runs.log"
    data.mkdir()
    (data / "in.txt").write_text("abc", encoding="utf-8")
    (data / "gen.py").write_text(
        "import sys\n"
        f"open({str(log)!r}, 'a').write('ran\\n')\n"
        "text = open('in.txt').read()\n"
        "open('out.txt', 'w').write(text.upper() + sys.argv[1])\n"
        "print('made', text)\n"
        "sys.exit(3 if text == 'bad' else 0)\n", encoding="utf-8")
    runs = [_pyrun(data, cache, "gen.py", "!") for _ in range(3)]
    assert all(r.returncode == 0 and "made abc" in r.stdout for r in runs)
    assert (data / "out.txt").read_text(encoding="utf-8") == "ABC!"
    # the first run records (out.txt is new in the folder), the second records again, the third is replayed
    assert log.read_text(encoding="utf-8").count("ran") == 2
    (data / "out.txt").unlink()
    (data / "out.txt").write_text("xxxx", encoding="utf-8")  # a replay writes what the run wrote
    assert _pyrun(data, cache, "gen.py", "!").returncode == 0
    assert log.read_text(encoding="utf-8").count("ran") == 2 and (data / "out.txt").read_text() == "ABC!"

    (data / "in.txt").write_text("bad", encoding="utf-8")  # what it read changed: it runs
    bad = _pyrun(data, cache, "gen.py", "!")
    assert bad.returncode == 3 and "made bad" in bad.stdout and (data / "out.txt").read_text() == "BAD!"
    assert log.read_text(encoding="utf-8").count("ran") == 3
    assert _pyrun(data, cache, "gen.py", "?").returncode == 3  # other arguments: it runs
    assert log.read_text(encoding="utf-8").count("ran") == 4

    (data / "spawn.py").write_text(
        "import subprocess, sys\n"
        f"open({str(log)!r}, 'a').write('spawned\\n')\n"
        "subprocess.run([sys.executable, '-c', 'pass'])\n", encoding="utf-8")
    for _ in range(3):
        assert _pyrun(data, cache, "spawn.py").returncode == 0
    assert log.read_text(encoding="utf-8").count("spawned") == 3  # a run that starts a process is never replayed
