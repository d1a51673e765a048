"""The golden verdict of a kernel UT's data scripts (op_run._golden_verdict on the shims' log, ut_python.write_shims):
many of the repositories' compare_data.py print "FAILED!" and exit 0 all the same, and a compare run after a data
script that could not make the golden data compares nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from akgen_lsp.sim.op_layout import OpLayout
from akgen_lsp.sim.op_result import OpTestResult
from akgen_lsp.sim.op_run import _golden_verdict
from akgen_lsp.sim.ut_python import write_shims


def _verdict(tmp_path: Path, scripts: dict[str, str], calls: list[list[str]], golden_py: bool = False) -> OpTestResult:
    shims, data = tmp_path / "shims", tmp_path / "data"
    data.mkdir(parents=True)
    for name, text in scripts.items():
        (data / name).write_text(text, encoding="utf-8")
    log = tmp_path / "scripts.log"
    write_shims(shims, Path(sys.executable), log)
    for argv in calls:  # as the UT's system("cd data && python3 ...") runs them
        subprocess.run([str(shims / "python3"), *argv], cwd=data, capture_output=True, check=False)
    layout = OpLayout("op", tmp_path, tmp_path, tmp_path, tmp_path / "golden.py" if golden_py else None)
    res = OpTestResult("op", str(tmp_path), "Ascend910B1")
    _golden_verdict(res, layout, log, Path(sys.executable))
    return res


GEN_OK = "open('golden.bin', 'wb').write(b'1')\n"
GEN_BROKEN = "import a_module_the_box_lacks\n"
COMPARE = """import sys
ok = open('golden.bin', 'rb').read() == open('output.bin', 'rb').read() if __import__('os').path.exists('golden.bin') \\
    else None
if ok is not None:
    print("PASSED!" if ok else "FAILED!")
"""  # exits 0 whatever it found, like many of the repositories' compare_data.py


def test_a_compare_that_prints_failed_and_exits_0_is_a_mismatch(tmp_path: Path) -> None:
    good = _verdict(tmp_path / "a", {"gen.py": GEN_OK, "compare_data.py": COMPARE, "output.bin": "1"},
                    [["gen.py"], ["compare_data.py", "float32"]])
    assert (good.golden, good.golden_detail) == ("match", "1 compare runs passed")
    bad = _verdict(tmp_path / "b", {"gen.py": GEN_OK, "compare_data.py": COMPARE, "output.bin": "2"},
                   [["gen.py"], ["compare_data.py", "float32"], ["gen.py"], ["compare_data.py", "float16"]])
    assert bad.golden == "mismatch"
    assert bad.golden_detail == "2 of 2 compare runs failed (python3 compare_data.py float32 -> printed 'FAILED!')"
    summary = _verdict(tmp_path / "c", {"compare.py": "print('Result: 3 PASSED, 0 FAILED')\n"}, [["compare.py"]])
    assert summary.golden == "match"  # a count of failures that is 0 is no failure


def test_a_compare_after_a_failed_data_script_is_not_a_match(tmp_path: Path) -> None:
    res = _verdict(tmp_path / "a", {"gen.py": GEN_BROKEN, "compare_data.py": COMPARE, "output.bin": "1"},
                   [["gen.py", "(8,)"], ["compare_data.py", "float32"]])
    assert res.golden == "not-compared"
    assert res.golden_detail.startswith("a data script failed (python3 gen.py (8,) -> ModuleNotFoundError")
    assert res.golden_detail.endswith("so its 1 compare run(s) had no golden data to compare with")
    none = _verdict(tmp_path / "b", {"gen.py": GEN_BROKEN}, [["gen.py"]])
    assert none.golden == "none" and "a data script failed: python3 gen.py" in none.golden_detail
