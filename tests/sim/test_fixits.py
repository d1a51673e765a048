"""The compiler's fix-it hints (``-fdiagnostics-parseable-fixits``) as fixes on the sim's CXX findings."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.findings import Finding, Span, apply_edits
from akgen_lsp.logs.fixits import parse_fixits, user_file_resolver, with_fixits
from akgen_lsp.sim import run_manifest

from .conftest import marker_line, needs_gxx


def test_fixit_lines_are_parsed_with_c_escapes() -> None:
    raw = ('k.cpp:3:5: error: oops\n'
           'fix-it:"/w/k.cpp":{3:5-3:9}:"DeQue"\n'
           'fix-it:"/w/a \\"b\\".cpp":{1:1-1:1}:"x\\n\\303\\251"\n'
           'not a fix-it:"x":{1:1-1:2}:"y"\n')
    items = parse_fixits(raw)
    assert [(i.file, i.line, i.byte_column, i.end_line, i.end_byte_column, i.text) for i in items] == [
        ("/w/k.cpp", 3, 5, 3, 9, "DeQue"), ('/w/a "b".cpp', 1, 1, 1, 1, "x\né")]


def test_byte_columns_become_character_columns(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text("int a = 1;\n/* é */ int y = xLocl;\n", encoding="utf-8")
    # g++ counts bytes: 'xLocl' starts at byte 18 of line 2 (é is two bytes), character 17
    raw = f'{src}:2:18: error: x\nfix-it:"{src}":{{2:18-2:23}}:"xLocal"\n'
    f = Finding("CXX", "x", Span.point(str(src), 2, 17), source="akgen-build", data={"raw": raw})
    (out,) = with_fixits([f], user_file_resolver({str(src): str(src)}))
    (fix,) = out.fixes
    (edit,) = fix.edits
    assert (edit.span.column, edit.span.end_column) == (17, 22) and fix.title.startswith("Change 'xLocl' to 'xLocal'")
    assert apply_edits(src.read_text(encoding="utf-8"), fix.edits).splitlines()[1] == "/* é */ int y = xLocal;"


def test_a_fixit_outside_the_users_files_is_no_fix(tmp_path: Path) -> None:
    raw = 'fix-it:"/usr/include/x.h":{1:1-1:2}:"y"\n'
    f = Finding("CXX", "x", Span.point(str(tmp_path / "k.cpp"), 1), data={"raw": raw})
    assert with_fixits([f], user_file_resolver({str(tmp_path / "k.cpp"): str(tmp_path / "k.cpp")}))[0].fixes == ()


@needs_gxx
def test_gxx_suggestions_reach_the_finding(write_manifest, tmp_path: Path) -> None:
    src = tmp_path / "typo.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   'extern "C" __global__ __aicore__ void typo(GM_ADDR x)\n'
                   '{\n'
                   '    AscendC::LocalTensor<float> xLocal;\n'
                   '    AscendC::Duplicate(xLocl, 1.0f, 8);  // EXPECT CXX\n'
                   '}\n')
    m = write_manifest(src, "typo", [{"name": "x", "input": np.zeros(8, dtype=np.float32)}])
    res = run_manifest(m, confine=False)
    assert res.status == "compile_error"
    f = res.findings[0]
    assert f.span.line == marker_line(src, "CXX") and "did you mean 'xLocal'" in f.message
    (fix,) = f.fixes
    assert not fix.safe and fix.title == "Change 'xLocl' to 'xLocal' (the compiler's fix-it)"
    fixed = apply_edits(src.read_text(), fix.edits)
    assert "AscendC::Duplicate(xLocal, 1.0f, 8);" in fixed
