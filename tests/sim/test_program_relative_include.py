"""`akgen sim run-program` keeps a program's relative includes that climb out of its folder (an operator
repository's example or test including `../../../op_kernel/x.cpp`) when the file is in the program's own project, and
shows nothing outside the project."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.sim.program import relative_include_dirs, run_program

from .conftest import needs_gxx

MAIN = """#include <cstdio>
#include "kernel_operator.h"
#include "../../../op_kernel/helper.cpp"
int main()
{
    std::printf("helper says %d\\n", HelperValue());
    return 0;
}
"""


def _repo(tmp: Path) -> Path:
    (tmp / "repo" / ".git").mkdir(parents=True)
    kernel = tmp / "repo" / "math" / "op" / "op_kernel"
    kernel.mkdir(parents=True)
    (kernel / "helper.cpp").write_text("inline int HelperValue() { return 42; }\n", encoding="utf-8")
    main = tmp / "repo" / "math" / "op" / "tests" / "ut" / "op_kernel" / "main.cpp"
    main.parent.mkdir(parents=True)
    main.write_text(MAIN, encoding="utf-8")
    return main


@needs_gxx
def test_a_relative_include_out_of_the_programs_folder_is_found(tmp_path: Path) -> None:
    main = _repo(tmp_path)
    res = run_program(main, tmp_path)
    assert res.status == "ok", [f.message for f in res.findings]
    assert "helper says 42" in res.stdout


def test_nothing_outside_the_project_is_shown(tmp_path: Path) -> None:
    main = _repo(tmp_path)
    (tmp_path / "secret.h").write_text("int secret;\n", encoding="utf-8")
    text = MAIN + '#include "../../../../../../secret.h"\n'
    dirs = relative_include_dirs([main], {main: text})
    assert dirs == [(tmp_path / "repo" / "math" / "op" / "op_kernel").resolve()]
