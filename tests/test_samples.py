"""The samples workspace is the linter's expectation test.

- every correct kernel (``samples/kernels``, ``samples/add_custom_op/op_kernel``) lints clean;
- every broken kernel (``samples/broken``) shows exactly the findings its ``// expect: AKG1xx`` comments mark, by line
  and code; a marked code whose rule is not written yet is skipped with the reason, the rest is still checked;
- every runtime-only sample (``samples/broken/runtime``) carries ``// expect-run:`` markers for the simulator and no
  static findings (unless it also marks some with ``// expect:``);
- host files (no Ascend C header) are not treated as Ascend C at all;
- every Ascend C sample parses without tree-sitter error nodes;
- the ``[[task]]`` table of ``samples/akgen.toml`` names real files and real kernel entries.

Settings come from the nearest ``akgen.toml`` of each file, as in the editor (``broken/cann_9_1`` targets CANN 9.1).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from akgen_lsp.ascendc.lint import is_ascendc, lint_text
from akgen_lsp.ascendc.rules import rule_by_code
from akgen_lsp.ascendc.syntax import error_nodes, parse
from akgen_lsp.config import load_settings
from akgen_lsp.findings import Finding, render_text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
SOURCE_SUFFIXES = {".cpp", ".cc", ".cxx", ".h", ".hpp", ".asc"}

EXPECT_RE = re.compile(r"//\s*expect:\s*(.*?)\s*$")
EXPECT_RUN_RE = re.compile(r"//\s*expect-run:\s*(\S.*?)\s*$")
CODE_RE = re.compile(r"^AKG\d{3}$")
ENTRY_RE = re.compile(r'extern\s+"C"\s+(?:__global__\s+)?(?:__aicore__\s+)?\w+\s+(\w+)\s*\(')


def _rel(path: Path) -> str:
    return path.relative_to(SAMPLES).as_posix()


def _sources() -> list[Path]:
    return sorted(p for p in SAMPLES.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES)


def _kind(path: Path) -> str:
    rel = _rel(path)
    if rel.startswith("broken/runtime/"):
        return "runtime"
    if rel.startswith("broken/"):
        return "broken"
    if rel.startswith(("kernels/", "add_custom_op/op_kernel/")):
        return "correct"
    if rel.startswith(("host/", "add_custom_op/op_host/")):
        return "host"
    return "unclassified"


def _of_kind(kind: str) -> list[Path]:
    return [p for p in _sources() if _kind(p) == kind]


def _ids(paths: Iterable[Path]) -> list[str]:
    return [_rel(p) for p in paths]


def _lint(path: Path) -> list[Finding]:
    settings = load_settings(path.parent, env={})
    return lint_text(path.read_text(encoding="utf-8"), _rel(path), settings)


def _markers(text: str) -> set[tuple[int, str]]:
    """The (line, code) pairs of the ``// expect: AKG101, AKG120`` comments of a file."""
    out: set[tuple[int, str]] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        match = EXPECT_RE.search(line)
        if match:
            codes = [c.strip() for c in match.group(1).split(",") if c.strip()]
            assert codes and all(CODE_RE.match(c) for c in codes), (
                f"line {number}: malformed marker {line.strip()!r}"
            )
            out.update((number, c) for c in codes)
    return out


def _run_markers(text: str) -> list[tuple[int, str]]:
    return [
        (number, m.group(1))
        for number, line in enumerate(text.splitlines(), start=1)
        if (m := EXPECT_RUN_RE.search(line))
    ]


def _explain(path: Path, findings: Iterable[Finding]) -> str:
    text = path.read_text(encoding="utf-8")
    return "\n".join(render_text(f, text) for f in findings) or "(no findings)"


# ------------------------------------------------------------------------------------------------ layout


def test_samples_workspace_has_every_kind() -> None:
    kinds = {_kind(p) for p in _sources()}
    assert {"correct", "broken", "runtime", "host"} <= kinds


def test_every_sample_source_is_classified() -> None:
    loose = [_rel(p) for p in _sources() if _kind(p) == "unclassified"]
    assert not loose, f"samples outside kernels/, broken/, host/, add_custom_op/ are never checked: {loose}"


@pytest.mark.parametrize("path", _of_kind("host"), ids=_ids(_of_kind("host")))
def test_host_file_is_not_ascendc(path: Path) -> None:
    settings = load_settings(path.parent, env={})
    assert not is_ascendc(path, path.read_text(encoding="utf-8"), settings)


ASCENDC = [p for p in _sources() if _kind(p) in ("correct", "broken", "runtime")]


@pytest.mark.parametrize("path", ASCENDC, ids=_ids(ASCENDC))
def test_ascendc_sample_is_recognised_and_parses(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert is_ascendc(path, text, load_settings(path.parent, env={}))
    parsed = parse(text, _rel(path))
    errors = [(n.start_point[0] + 1, parsed.node_text(n)[:60]) for n in error_nodes(parsed)]
    assert not errors, f"tree-sitter error nodes (line, text): {errors}"


# ------------------------------------------------------------------------------------------------ findings


@pytest.mark.parametrize("path", _of_kind("correct"), ids=_ids(_of_kind("correct")))
def test_correct_kernel_has_no_findings(path: Path) -> None:
    assert not _markers(path.read_text(encoding="utf-8")), "a correct kernel carries no // expect: markers"
    findings = _lint(path)
    assert not findings, "\n" + _explain(path, findings)


def _check_against_markers(path: Path) -> None:
    """Findings equal the markers for every marked code whose rule exists; skip naming the codes that have none."""
    expected = _markers(path.read_text(encoding="utf-8"))
    missing = sorted({code for _, code in expected if rule_by_code(code) is None})
    expected_now = {(line, code) for line, code in expected if code not in missing}
    findings = _lint(path)
    got = {(f.span.line, f.code) for f in findings}
    assert got == expected_now, (
        f"\nexpected (line, code): {sorted(expected_now)}\ngot: {sorted(got)}\n" + _explain(path, findings)
    )
    if missing:
        pytest.skip(
            f"rule(s) {', '.join(missing)} not implemented yet (no akgNNN_*.py module in ascendc/rules)"
        )


BROKEN = _of_kind("broken")


@pytest.mark.parametrize("path", BROKEN, ids=_ids(BROKEN))
def test_broken_sample_findings_match_markers(path: Path) -> None:
    assert _markers(path.read_text(encoding="utf-8")), (
        "a broken sample marks its mistake with // expect: AKG1xx"
    )
    _check_against_markers(path)


RUNTIME = _of_kind("runtime")


@pytest.mark.parametrize("path", RUNTIME, ids=_ids(RUNTIME))
def test_runtime_sample_is_silent_to_the_static_checker(path: Path) -> None:
    assert _run_markers(path.read_text(encoding="utf-8")), (
        "a runtime sample marks its mistake with // expect-run:"
    )
    _check_against_markers(path)


def test_every_static_rule_has_a_broken_sample() -> None:
    from akgen_lsp.ascendc.rules import all_rules

    shown = {code for p in BROKEN for _, code in _markers(p.read_text(encoding="utf-8"))}
    missing = sorted(r.code for r in all_rules() if r.code not in shown)
    assert not missing, (
        f"rules with no sample in samples/broken: {missing}; add a kernel with the mistake marked "
        "// expect: <code> (a rule that is off by default needs a folder whose akgen.toml enables it, "
        "like samples/broken/kernel_only)"
    )


def test_nested_config_targets_its_own_cann_version() -> None:
    assert load_settings(SAMPLES, env={})["cann.version"] == "8.5"
    assert load_settings(SAMPLES / "broken" / "cann_9_1", env={})["cann.version"] == "9.1"


# ------------------------------------------------------------------------------------------------ tasks


def _tasks() -> list[dict[str, object]]:
    with (SAMPLES / "akgen.toml").open("rb") as fh:
        return list(tomllib.load(fh).get("task", []))


def test_task_table_names_real_files_and_entries() -> None:
    tasks = _tasks()
    assert tasks
    for task in tasks:
        source = SAMPLES / str(task["file"])
        assert source.is_file(), f"task {task['name']}: {source} does not exist"
        entries = ENTRY_RE.findall(source.read_text(encoding="utf-8"))
        assert task["kernel"] in entries, (
            f'task {task["name"]}: no extern "C" entry {task["kernel"]} in {source}'
        )
        assert task["mode"] in ("static", "dynamic")
        if task["mode"] == "static":
            assert int(task["block_dim"]) > 0  # type: ignore[call-overload]
            for tensor in [*task["inputs"], *task["outputs"]]:  # type: ignore[misc]
                assert tensor["shape"] and all(int(d) > 0 for d in tensor["shape"])
                assert tensor["dtype"] in ("float16", "bfloat16", "float32", "int32", "int8")
        else:
            assert (SAMPLES / str(task["op_host"])).is_dir()


def test_every_correct_kernel_belongs_to_a_task() -> None:
    mapped = {str(t["file"]) for t in _tasks()}
    unmapped = [_rel(p) for p in _of_kind("correct") if _rel(p) not in mapped]
    assert not unmapped, f"correct kernels without a [[task]] in samples/akgen.toml: {unmapped}"


# ------------------------------------------------------------------------------------------------ CLI


def test_cli_check_reports_the_same_findings() -> None:
    from typer.testing import CliRunner

    from akgen_lsp.cli import app

    runner = CliRunner()
    help_text = runner.invoke(app, ["check", "--help"]).output
    if "--format" not in help_text:
        pytest.skip("`akgen check` does not take --format yet")
    result = runner.invoke(app, ["check", str(SAMPLES), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    reported = {
        (Path(f["path"]).resolve(), f["line"], f["code"])
        for f in json.loads(result.stdout)
        if f.get("source", "akgen-lint") == "akgen-lint"
    }
    expected = {((SAMPLES / f.span.path).resolve(), f.span.line, f.code) for p in ASCENDC for f in _lint(p)}
    assert reported == expected
