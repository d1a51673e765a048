"""`akgen check`, `akgen rule`, `akgen serve` argument handling: exit codes, formats, odd inputs."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.ascendc.rules import all_rules
from akgen_lsp.cli import app

FIXTURES = Path(__file__).resolve().parents[1] / "server" / "fixtures"
runner = CliRunner()


@pytest.fixture
def kernels(tmp_path: Path) -> Path:
    """A folder with a broken kernel, a correct one, a plain C++ file and a Python file."""
    for name in ("broken_add.cpp", "good_add.cpp", "plain.cpp", "no_extern_c.cpp"):
        (tmp_path / name).write_text((FIXTURES / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "tool.py").write_text("print('not a kernel')\n", encoding="utf-8")
    return tmp_path


def check(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["check", *args])
    return result.exit_code, result.stdout, result.stderr


def _exit_status(path: Path) -> int:
    """What `akgen check` must return for one file: 1 when the library reports an error."""
    findings = lint_text(path.read_text(encoding="utf-8"), str(path))
    return 1 if any(f.severity.value == "error" for f in findings) else 0


def _error_codes(path: Path) -> list[str]:
    codes = [f.code for f in lint_text(path.read_text(encoding="utf-8"), str(path)) if f.severity.value == "error"]
    assert codes, f"{path.name} should have an error finding; the fixture needs updating"
    return codes


def test_an_error_exits_1(kernels: Path):
    codes = _error_codes(kernels / "no_extern_c.cpp")
    code, out, _ = check(str(kernels / "no_extern_c.cpp"))
    assert code == 1
    assert all(f"error[{c}]" in out for c in codes)


def test_finding_is_printed_with_source_line_and_caret(kernels: Path):
    path = kernels / "broken_add.cpp"
    code, out, err = check(str(path))
    assert code == _exit_status(path)
    first = lint_text(path.read_text(encoding="utf-8"), str(path))[0]
    head, source, caret = out.splitlines()[:3]
    assert f"broken_add.cpp:{first.span.line}:{first.span.column}: {first.severity.value}[{first.code}]:" in head
    assert caret.strip() and set(caret.strip()) == {"^"}
    assert caret.index("^") == len("    ") + first.span.column - 1
    assert source.strip() == path.read_text(encoding="utf-8").splitlines()[first.span.line - 1].strip()
    assert "Found" in err and "1 of 1 file" in err


def test_correct_kernel_passes(kernels: Path):
    code, out, err = check(str(kernels / "good_add.cpp"))
    assert code == 0
    assert out == ""
    assert "All checks passed" in err


def test_folder_checks_only_ascendc_files(kernels: Path):
    code, out, err = check(str(kernels), "--format", "json")
    assert code == 1
    findings = json.loads(out)
    assert {Path(f["path"]).name for f in findings} == {"broken_add.cpp", "no_extern_c.cpp"}
    assert "of 3 files" in err  # plain.cpp and tool.py are not AscendC


def test_json_matches_the_library(kernels: Path):
    path = kernels / "broken_add.cpp"
    code, out, _ = check(str(path), "-f", "json")
    findings = json.loads(out)
    expected = lint_text(path.read_text(encoding="utf-8"), "x")
    assert [f["code"] for f in findings] == [f.code for f in expected]
    first = findings[0]
    assert {"path", "line", "column", "end_line", "end_column", "severity", "code", "message", "fixes"} <= set(first)
    assert code == _exit_status(path)


def test_sarif_shape(kernels: Path):
    code, out, _ = check(str(kernels), "--format", "sarif")
    log = json.loads(out)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"] == "akgen"
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    result = run["results"][0]
    assert result["ruleId"] in rules
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] >= 1 and region["startColumn"] >= 1
    summaries = {r.code: r.summary for r in all_rules()}
    assert rules[result["ruleId"]]["shortDescription"]["text"] == summaries[result["ruleId"]]
    assert code == 1


def test_ignore_and_select(kernels: Path):
    path = kernels / "no_extern_c.cpp"
    errors = sorted(set(_error_codes(path)))
    code, out, _ = check(str(path), "--ignore", ",".join(errors))
    assert code == 0 and not any(e in out for e in errors)
    code, out, _ = check(str(path), "--select", errors[0], "-f", "json")
    assert code == 1 and {f["code"] for f in json.loads(out)} == {errors[0]}
    code, out, _ = check(str(path), "--select", "AKG9", "-f", "json")  # a prefix no rule has
    assert code == 0 and json.loads(out) == []


def test_settings_come_from_akgen_toml(kernels: Path):
    errors = sorted(set(_error_codes(kernels / "no_extern_c.cpp")))
    (kernels / "akgen.toml").write_text(f"[lint]\nignore = {json.dumps(errors)}\n", encoding="utf-8")
    code, _, _ = check(str(kernels / "no_extern_c.cpp"))
    assert code == 0


def test_usage_errors_exit_2(kernels: Path):
    code, _, err = check(str(kernels / "missing.cpp"))
    assert code == 2 and "path not found" in err
    code, _, err = check(str(kernels), "--arch", "Ascend999")
    assert code == 2 and "Ascend999" in err
    code, _, _ = check(str(kernels), "--format", "xml")
    assert code == 2
    (kernels / "akgen.toml").write_text("[lint]\nignore = 3\n", encoding="utf-8")
    code, _, err = check(str(kernels))
    assert code == 2 and "lint.ignore" in err


def test_binary_file_is_skipped_with_a_note(kernels: Path):
    blob = kernels / "weights.cpp"
    blob.write_bytes(b"\x7fELF\x00\x00\x01" + bytes(range(256)) * 4)
    code, out, err = check(str(blob))
    assert out == ""
    assert code == 0
    assert "binary" in err
    code, _, err = check(str(kernels))  # inside a folder: skipped too, the others still checked
    assert code == 1 and "binary" in err


def test_non_utf8_file_is_read_with_a_warning(kernels: Path):
    text = (FIXTURES / "good_add.cpp").read_text(encoding="utf-8")
    latin = kernels / "latin.cpp"
    latin.write_bytes(text.replace("// Element-wise", "// Elément-wise").encode("latin-1"))
    code, out, _ = check(str(latin), "-f", "json")
    findings = json.loads(out)
    encoding = [f for f in findings if f["code"] == "ENCODING"]
    assert len(encoding) == 1
    assert encoding[0]["severity"] == "warning" and encoding[0]["line"] == 1
    assert code == 0


def test_huge_file_finishes(kernels: Path):
    body = (FIXTURES / "good_add.cpp").read_text(encoding="utf-8")
    filler = "\n".join(f"// line {i}" for i in range(100_000))
    huge = kernels / "huge.cpp"
    huge.write_text(body + "\n" + filler + "\n", encoding="utf-8")
    started = time.perf_counter()
    code, _, err = check(str(huge))
    assert code == 0, err
    assert time.perf_counter() - started < 60  # generous: it must finish, not be fast


def test_a_named_file_that_is_not_cpp_is_skipped_with_a_note(kernels: Path):
    code, out, err = check(str(kernels / "tool.py"))
    assert code == 0 and out == ""
    assert "skipped" in err and "tool.py" in err and "0 files" in err


def test_output_file(kernels: Path, tmp_path: Path):
    target = tmp_path / "report.sarif"
    code, out, _ = check(str(kernels), "-f", "sarif", "-o", str(target))
    assert out == ""
    assert json.loads(target.read_text(encoding="utf-8"))["version"] == "2.1.0"
    assert code == 1


def test_rule_list_and_doc():
    result = runner.invoke(app, ["rule"])
    assert result.exit_code == 0
    for rule in all_rules():
        assert rule.code in result.stdout
    some = all_rules()[0]
    result = runner.invoke(app, ["rule", some.code.lower()])
    assert result.exit_code == 0
    assert some.code in result.stdout and some.name in result.stdout
    result = runner.invoke(app, ["rule", "AKG999"])
    assert result.exit_code == 2 and "akgen rule" in result.stderr


def test_serve_rejects_a_bad_address():
    result = runner.invoke(app, ["serve", "--tcp", "localhost"])
    assert result.exit_code == 2 and "HOST:PORT" in result.stderr


def test_check_does_not_import_the_language_server(kernels: Path):
    code = (
        "import sys\n"
        "from akgen_lsp.cli import app\n"
        "try:\n"
        f"    app(['check', {str(kernels / 'good_add.cpp')!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('pygls', 'lsprotocol'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stderr


def test_fix_applies_the_safe_fixes_in_place(kernels: Path):
    path = kernels / "no_extern_c.cpp"
    before = lint_text(path.read_text(encoding="utf-8"), str(path))
    safe = [f for f in before if any(fix.safe for fix in f.fixes)]
    assert safe, "the fixture should have a finding with a safe fix"
    code, out, err = check(str(path), "--fix", "-f", "json")
    after = json.loads(out)
    assert len(after) == len(before) - len(safe)
    assert f"Fixed {len(safe)} finding" in err
    assert code == (1 if any(f["severity"] == "error" for f in after) else 0)
    assert not [f for f in after if any(fix["safe"] for fix in f["fixes"])]
    unsafe_only = kernels / "broken_add.cpp"
    text = unsafe_only.read_text(encoding="utf-8")
    check(str(unsafe_only), "--fix")
    if not any(fix.safe for f in lint_text(text, "x") for fix in f.fixes):
        assert unsafe_only.read_text(encoding="utf-8") == text  # unsafe fixes are never applied


def test_safe_edits_skip_overlapping_fixes():
    from akgen_lsp.cli.check import safe_edits
    from akgen_lsp.findings import Edit, Finding, Fix, Span

    def finding(line: int, col: int, end: int, text: str, safe: bool = True) -> Finding:
        span = Span("f", line, col, line, end)
        return Finding("X", "m", span, fixes=(Fix("t", (Edit(span, text),), safe=safe),))

    edits, taken = safe_edits(
        [finding(1, 1, 5, "a"), finding(1, 3, 8, "b"), finding(2, 1, 1, "c"), finding(1, 5, 5, "d"), finding(3, 1, 2, "e", False)]
    )
    assert [e.new_text for e in edits] == ["a", "c", "d"] and taken == 3
