"""The samples workspace is the expectation test of the linter and of the simulator.

- every correct kernel (``samples/kernels``, ``samples/add_custom_op/op_kernel``) lints clean;
- every broken kernel (``samples/broken``) shows exactly the findings its ``// expect: AKG1xx`` comments mark, by line
  and code; a marked code whose rule is not written yet is skipped with the reason, the rest is still checked; a
  ``// known-gap: AKG1xx: why`` comment makes that code's markers an expected failure until the rule finds them;
- every runtime-only sample (``samples/broken/runtime``) has no static findings, and on the CPU simulator reports
  exactly the codes of its ``// expect-run: SIM-...`` markers at those lines;
- every correct kernel runs on the simulator with the shapes of its ``[[task]]`` and matches numpy (a kernel that
  calls an API the simulator lacks is skipped with the names);
- host files (no Ascend C header) are not treated as Ascend C at all, and every Ascend C sample parses without
  tree-sitter error nodes;
- the ``[[task]]`` table of ``samples/akgen.toml`` names real files and kernel entries, and every rule has a sample;
- ``akgen check samples/ --format json`` reports what the linter reports.

Settings come from the nearest ``akgen.toml`` of each file, as in the editor (``broken/cann_9_1`` targets CANN 9.1,
``broken/kernel_only`` enables AKG161/AKG162).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
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

EXPECT_RE = re.compile(r"//\s*expect:\s*(.*?)\s*(?://.*)?$")  # an expect-run: comment may follow
EXPECT_RUN_RE = re.compile(r"//\s*expect-run:\s*(\S.*?)\s*$")
KNOWN_GAP_RE = re.compile(r"//\s*known-gap:\s*(AKG\d{3}):\s*(\S.*?)\s*$")
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


def _known_gaps(text: str) -> dict[str, str]:
    """``// known-gap: AKG103: why`` comments: marked codes that the checker does not find yet, with the reason."""
    gaps: dict[str, str] = {}
    for line in text.splitlines():
        match = KNOWN_GAP_RE.search(line)
        if match:
            gaps[match.group(1)] = match.group(2)
    return gaps


def _check_against_markers(path: Path) -> None:
    """Findings equal the markers for every marked code whose rule exists; skip naming the codes that have none.

    A code named by a ``// known-gap:`` comment is an expected failure: its markers are checked apart, and the test
    fails as soon as they hold, so that the comment is removed and the check becomes strict again.
    """
    text = path.read_text(encoding="utf-8")
    expected = _markers(text)
    gaps = _known_gaps(text)
    missing = sorted({code for _, code in expected if rule_by_code(code) is None})
    findings = _lint(path)
    got = {(f.span.line, f.code) for f in findings}
    strict = {c for _, c in expected | got if c not in missing and c not in gaps}
    expected_now = {(line, code) for line, code in expected if code in strict}
    got_now = {(line, code) for line, code in got if code in strict}
    assert got_now == expected_now, (
        f"\nexpected (line, code): {sorted(expected_now)}\ngot: {sorted(got_now)}\n"
        + _explain(path, findings)
    )
    if missing:
        pytest.skip(
            f"rule(s) {', '.join(missing)} not implemented yet (no akgNNN_*.py module in ascendc/rules)"
        )
    for code, reason in sorted(gaps.items()):
        if {m for m in expected if m[1] == code} == {g for g in got if g[1] == code}:
            pytest.fail(f"{code} now finds exactly what {path.name} marks: remove its // known-gap: comment")
        pytest.xfail(f"known gap in {code}: {reason}")


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
            assert (SAMPLES / str(task["tiling"]["header"])).is_file()  # type: ignore[index]
            assert task["cases"] and all(int(d) > 0 for c in task["cases"] for d in c["shape"])  # type: ignore[union-attr]


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


# ------------------------------------------------------------------------------------------------ simulator
#
# The correct kernels run on the CPU simulator with the shapes of their [[task]] and match a numpy reference; each
# runtime sample makes the simulator report exactly the codes its `// expect-run:` markers name, at those lines.
# A kernel that uses an Ascend C API the simulator does not have yet is skipped with the missing names.

needs_gxx = pytest.mark.skipif(
    shutil.which("g++") is None, reason="g++ is not installed (the simulator needs it)"
)
RUN_CODE_RE = re.compile(r"^SIM-[A-Z0-9-]+$")
_MISSING_API_RE = re.compile(r"'(\w+)' (?:is not a member of 'AscendC'|was not declared in this scope)")


@pytest.fixture(scope="module")
def sim_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One build cache for this module, outside the user's cache."""
    path = tmp_path_factory.mktemp("akgen-sim-cache")
    old = os.environ.get("AKGEN_CACHE_DIR")
    os.environ["AKGEN_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("AKGEN_CACHE_DIR", None)
    else:
        os.environ["AKGEN_CACHE_DIR"] = old


def _simulate(
    source: Path,
    kernel: str,
    block_dim: int,
    args: list[dict[str, Any]],
    folder: Path,
    tiling: dict[str, Any] | None = None,
    defines: dict[str, str] | None = None,
) -> Any:
    """Write a manifest (numpy inputs saved beside it) and run it; skip when the simulator lacks an API."""
    from akgen_lsp.ascendc.catalog import load_catalog
    from akgen_lsp.sim import run_manifest

    out_args: list[dict[str, Any]] = []
    tiling_arg = {"name": "tiling", "tiling": tiling} if tiling else {"name": "tiling", "workspace_bytes": 0}
    for arg in [*args, {"name": "workspace", "workspace_bytes": 0}, tiling_arg]:
        arg = dict(arg)
        if isinstance(arg.get("input"), np.ndarray):
            np.save(folder / f"{arg['name']}.npy", arg["input"])
            arg["input"] = f"{arg['name']}.npy"
        out_args.append(arg)
    manifest = folder / "manifest.json"
    manifest.write_text(
        json.dumps(
            {
                "sources": [str(source)],
                "kernel": kernel,
                "block_dim": block_dim,
                "arch": "Ascend910B2",
                "defines": defines or {},
                "args": out_args,
            }
        ),
        encoding="utf-8",
    )
    run = run_manifest(manifest, folder / "out", confine=False)
    if run.status == "compile_error":
        catalog = load_catalog()
        missing = sorted(
            {
                m.group(1)
                for f in run.findings
                if (m := _MISSING_API_RE.search(f.message))
                and catalog.get(f"AscendC::{m.group(1)}") is not None
            }
        )
        if missing:
            pytest.skip(f"the simulator does not implement {', '.join('AscendC::' + n for n in missing)} yet")
    return run


def _numpy_dtype(name: str) -> type:
    return {"float16": np.float16, "float32": np.float32}[name]


def _reference(task: dict[str, Any], inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The expected outputs of a correct sample, by task name (numpy, rounded as the kernel rounds)."""
    name = task["name"]
    if name == "AddCustom":
        return {"z": inputs["x"] + inputs["y"]}
    if name == "ScaledAdd":
        alpha = np.float32(task["params"]["alpha"])
        return {"z": alpha * inputs["x"] + inputs["y"]}
    if name == "RowReduceSum":
        return {"y": inputs["x"].astype(np.float64).sum(axis=-1).astype(np.float32)}
    if name == "ExpHalf":
        return {"y": np.exp(inputs["x"].astype(np.float32)).astype(np.float16)}
    if name == "BasicMatmul":
        return {"c": (inputs["a"].astype(np.float32) @ inputs["b"].astype(np.float32)).astype(np.float16)}
    raise AssertionError(f"no numpy reference for task {name}: add one to _reference")


# Tolerances per task: (rtol, atol). Element-wise kernels round exactly as numpy does; the rest may differ in the
# order of additions (reductions) or in the last bit of a transcendental function.
_TOLERANCE = {
    "AddCustom": (0.0, 0.0),
    "ScaledAdd": (0.0, 0.0),
    "RowReduceSum": (1e-5, 1e-2),
    "ExpHalf": (2.0**-10, 0.0),
    "BasicMatmul": (2.0**-8, 1e-2),
}

# the runtime samples' tasks (broken/runtime/) are there to show their failure on save: not correct kernels
STATIC_TASKS = [t for t in _tasks() if t["mode"] == "static" and not str(t["file"]).startswith("broken/")]


@needs_gxx
@pytest.mark.parametrize("task", STATIC_TASKS, ids=[str(t["file"]) for t in STATIC_TASKS])
def test_correct_kernel_matches_reference_on_the_simulator(
    task: dict[str, Any], sim_cache: Path, tmp_path: Path
) -> None:
    rng = np.random.default_rng(2026)
    inputs = {
        spec["name"]: rng.standard_normal(spec["shape"]).astype(_numpy_dtype(spec["dtype"]))
        for spec in task["inputs"]
    }
    args: list[dict[str, Any]] = [{"name": name, "input": value} for name, value in inputs.items()]
    args += [
        {
            "name": spec["name"],
            "output": f"{spec['name']}.npy",
            "dtype": spec["dtype"],
            "shape": spec["shape"],
        }
        for spec in task["outputs"]
    ]
    run = _simulate(SAMPLES / str(task["file"]), str(task["kernel"]), int(task["block_dim"]), args, tmp_path)
    assert run.status == "ok", [f"{f.code} line {f.span.line}: {f.message}" for f in run.findings]
    rtol, atol = _TOLERANCE[str(task["name"])]
    for name, expected in _reference(task, inputs).items():
        got = np.load(run.outputs[name])
        assert got.shape == expected.shape
        np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64), rtol=rtol, atol=atol)


@needs_gxx
def test_scaled_add_is_right_for_any_core_count(sim_cache: Path, tmp_path: Path) -> None:
    """The tail kernel splits by GetBlockNum(): 7 cores and 1 core give the same result as 48."""
    task = next(t for t in STATIC_TASKS if t["name"] == "ScaledAdd")
    rng = np.random.default_rng(7)
    n = int(task["inputs"][0]["shape"][0])  # type: ignore[index]
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    expected = _reference(task, {"x": x, "y": y})["z"]
    for block_dim in (7, 1):
        folder = tmp_path / str(block_dim)
        folder.mkdir()
        args = [
            {"name": "x", "input": x},
            {"name": "y", "input": y},
            {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [n]},
        ]
        run = _simulate(SAMPLES / str(task["file"]), str(task["kernel"]), block_dim, args, folder)
        assert run.status == "ok", [f.message for f in run.findings]
        np.testing.assert_array_equal(np.load(run.outputs["z"]), expected)


# How to launch each runtime sample: kernel entry, block_dim, and its GM arguments (inputs as arrays).
def _runtime_launch(name: str) -> tuple[str, int, list[dict[str, Any]]]:
    rng = np.random.default_rng(3)
    if name == "ub_subtensor_out_of_bounds.cpp":
        x = rng.standard_normal(2 * 32768).astype(np.float32)
        return (
            "fold_add",
            2,
            [
                {"name": "x", "input": x},
                {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [32768]},
            ],
        )
    if name == "double_free_tensor.cpp":
        x = rng.standard_normal(2 * 16384).astype(np.float16)
        return (
            "half_to_float",
            2,
            [
                {"name": "x", "input": x},
                {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [2 * 16384]},
            ],
        )
    if name == "unpaired_set_flag.cpp":
        x = rng.standard_normal(2 * 16384).astype(np.float16)
        return (
            "abs_manual_sync",
            2,
            [
                {"name": "x", "input": x},
                {"name": "y", "output": "y.npy", "dtype": "float16", "shape": [2 * 16384]},
            ],
        )
    if name == "repeat_time_overflow.cpp":
        x = rng.standard_normal(48 * 65536).astype(np.float32)
        return (
            "scale_repeat",
            48,
            [
                {"name": "x", "input": x},
                {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [48 * 65536]},
            ],
        )
    raise AssertionError(f"no launch for runtime sample {name}: add one to _runtime_launch")


@needs_gxx
@pytest.mark.parametrize("path", RUNTIME, ids=_ids(RUNTIME))
def test_runtime_sample_fails_on_the_simulator_where_marked(
    path: Path, sim_cache: Path, tmp_path: Path
) -> None:
    expected: set[tuple[int, str]] = set()
    for line, what in _run_markers(path.read_text(encoding="utf-8")):
        codes = [c.strip() for c in what.split(",")]
        assert all(RUN_CODE_RE.match(c) for c in codes), (
            f"line {line}: expect-run takes simulator codes, got {what!r}"
        )
        expected.update((line, c) for c in codes)
    kernel, block_dim, args = _runtime_launch(path.name)
    run = _simulate(path, kernel, block_dim, args, tmp_path)
    got = {(f.span.line, f.code) for f in run.findings if Path(f.span.path).name == path.name}
    assert got == expected, [f"{f.code} line {f.span.line}: {f.message}" for f in run.findings]


def _add_custom_tiling(total: int, block_dim: int, ub_bytes: int) -> int:
    """tileNum as add_custom_op/op_host/add_custom.cpp chooses it: the fewest tiles of whole 32-byte blocks whose six
    half buffers fit in UB, at most 16 KiB each."""
    block_length = total // block_dim
    t = 1
    while t * 2 * 16 <= block_length:
        tile_bytes = block_length // t // 2 * 2
        if block_length % (t * 2 * 16) == 0 and tile_bytes <= 16 * 1024 and tile_bytes * 6 <= ub_bytes:
            return t
        t += 1
    raise AssertionError(f"no tiling for {total} elements on {block_dim} cores")


DYNAMIC_TASKS = [t for t in _tasks() if t["mode"] == "dynamic"]


@needs_gxx
@pytest.mark.parametrize("task", DYNAMIC_TASKS, ids=[str(t["file"]) for t in DYNAMIC_TASKS])
def test_custom_op_kernel_matches_reference_on_the_simulator(
    task: dict[str, Any], sim_cache: Path, tmp_path: Path
) -> None:
    """The custom-op kernel with GET_TILING_DATA and DTYPE_X, on the two smallest bench cases."""
    cases = sorted(task["cases"], key=lambda c: int(np.prod(c["shape"])))[:2]
    rng = np.random.default_rng(11)
    for index, case in enumerate(cases):
        total, block_dim = int(np.prod(case["shape"])), 48
        x = rng.standard_normal(total).astype(np.float16)
        y = rng.standard_normal(total).astype(np.float16)
        folder = tmp_path / str(index)
        folder.mkdir()
        tiling = {
            "header": str(SAMPLES / task["tiling"]["header"]),
            "struct": task["tiling"]["struct"],
            "fields": {"totalLength": total, "tileNum": _add_custom_tiling(total, block_dim, 196608)},
        }
        args = [
            {"name": "x", "input": x},
            {"name": "y", "input": y},
            {"name": "z", "output": "z.npy", "dtype": "float16", "shape": [total]},
        ]
        run = _simulate(
            SAMPLES / str(task["file"]),
            str(task["kernel"]),
            block_dim,
            args,
            folder,
            tiling=tiling,
            defines={"DTYPE_X": "half", "DTYPE_Y": "half", "DTYPE_Z": "half"},
        )
        assert run.status == "ok", [f"{f.code} line {f.span.line}: {f.message}" for f in run.findings]
        np.testing.assert_array_equal(np.load(run.outputs["z"]), x + y)
