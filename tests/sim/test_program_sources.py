"""Programs of several sources (`run_program([...])`, `akgen sim run-program --source`, a folder): each source its
own translation unit (static names may repeat), the user's -I folders and -D macros, a build cache keyed by every
file g++ read (an edit to a header in an -I folder rebuilds instead of returning the stale program), and compile
errors in an included .cpp at that file's own line (programs/multi_src)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.cli import app
from akgen_lsp.sim.program import ProgramError, compile_program, run_program

from .conftest import needs_gxx

pytestmark = needs_gxx

DIR = Path(__file__).resolve().parent / "programs" / "multi_src"


def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(DIR, root)
    (root / "output").mkdir()
    return root


def test_sources_are_separate_units_with_include_dirs(tmp_path: Path) -> None:
    root = project(tmp_path)
    res = run_program([root / "main.cpp", root / "kernel.cpp"], root, include_dirs=[root / "inc"])
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    z = np.fromfile(root / "output" / "z.bin", dtype=np.float32)
    np.testing.assert_array_equal(z, np.arange(256, dtype=np.float32) * 3)
    assert "SCALE=3" in res.stdout


def test_an_edit_to_a_header_the_compile_read_rebuilds(tmp_path: Path) -> None:
    root = project(tmp_path)
    first = compile_program(root, include_dirs=[root / "inc"])
    assert first.ok and not first.cached
    again = compile_program(root, include_dirs=[root / "inc"])
    assert again.cached and again.key == first.key
    (root / "inc" / "params.h").write_text("#pragma once\nconstexpr int SCALE = 5;\n", encoding="utf-8")
    res = run_program(root, root, include_dirs=[root / "inc"])
    assert res.status == "ok" and not res.build["cached"], res.build
    assert "SCALE=5" in res.stdout
    z = np.fromfile(root / "output" / "z.bin", dtype=np.float32)
    np.testing.assert_array_equal(z, np.arange(256, dtype=np.float32) * 5)


def test_an_error_in_an_included_cpp_is_at_its_own_line(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "helper.inc.cpp").write_text("// included by kernel.cpp\nstatic int helper() { return undeclared_name; }\n",
                                         encoding="utf-8")
    text = (root / "kernel.cpp").read_text(encoding="utf-8")
    (root / "kernel.cpp").write_text(text.replace('#include "params.h"', '#include "params.h"\n#include "helper.inc.cpp"'),
                                     encoding="utf-8")
    build = compile_program(root, include_dirs=[root / "inc"])
    assert not build.ok
    hits = [f for f in build.findings if "undeclared_name" in f.message]
    assert hits, [(f.span.path, f.span.line, f.message) for f in build.findings]
    assert Path(hits[0].span.path).name == "helper.inc.cpp" and hits[0].span.line == 2
    # the included .cpp is part of kernel.cpp's unit, not a unit of its own
    assert all(Path(s).name != "helper.inc.cpp" for s in build.sources)


def test_the_sources_need_exactly_one_main(tmp_path: Path) -> None:
    root = project(tmp_path)
    with pytest.raises(ProgramError, match="none of them defines main"):
        compile_program([root / "kernel.cpp", _copy(root, "kernel.cpp", "other.cpp")])
    shutil.copy(root / "main.cpp", root / "main2.cpp")
    with pytest.raises(ProgramError, match="several define main"):
        compile_program(root, include_dirs=[root / "inc"])


def _copy(root: Path, name: str, to: str) -> Path:
    text = (root / name).read_text(encoding="utf-8").replace("scale_kernel", "other_kernel")
    (root / to).write_text(text, encoding="utf-8")
    return root / to


def test_cli_takes_sources_and_include_dirs(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    root = project(tmp_path)
    out = CliRunner().invoke(app, ["sim", "run-program", str(root / "main.cpp"), "--source", str(root / "kernel.cpp"),
                                   "-I", str(root / "inc"), "--workdir", str(root), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["status"] == "ok" and data["launches"][0]["blocks"] == 2
