"""The on-disk reference cache: a hit does not recompute; a changed validation file invalidates."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.bench import refcache, reference
from akgen_lsp.bench.tasks import load_task


@pytest.fixture
def own_task(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("AKGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AKGEN_BENCH_REF_CACHE", "1")
    monkeypatch.setenv("AKGEN_TEST_REF_CALLS", str(tmp_path / "calls.txt"))  # outside validation/ (part of the key)
    # the reference counts its calls in a file outside its folder, which the box would not let it write: these
    # tests are about the cache, so the task's code runs in this process (the user's own AKGEN_SIM_SANDBOX=off)
    monkeypatch.setenv("AKGEN_SIM_SANDBOX", "off")
    root = tmp_path / "tasks" / "level1" / "Own" / "Twice"
    (root / "validation").mkdir(parents=True)
    v = root / "validation"
    (v / "test_cases.csv").write_text("case_id;shape\n0;[64]\n1;[8, 3]\n")
    (v / "prepare_inputs.py").write_text(
        "import numpy as np\n\n\ndef get_inputs(param, device=None):\n"
        "    return [np.random.rand(*eval(param['shape'])).astype(np.float32)]\n")
    (v / "reference_np.py").write_text(
        "import os\n\n\n"
        "def reference(param, x):\n    with open(os.environ['AKGEN_TEST_REF_CALLS'], 'a') as fh:\n"
        "        fh.write('x')\n    return x * 2\n")
    return load_task(root)


def _calls(task) -> int:
    p = task.root.parents[3] / "calls.txt"
    n = len(p.read_text()) if p.is_file() else 0
    p.unlink(missing_ok=True)
    return n


def test_hit_does_not_recompute_and_a_changed_file_invalidates(own_task) -> None:
    task = own_task
    case = task.cases()[0]
    first = reference.load_case(task, case)
    assert _calls(task) == 1
    again = reference.load_case(task, case)
    assert _calls(task) == 0  # served from the cache: the reference did not run
    assert np.array_equal(again.inputs[0].array, first.inputs[0].array)
    assert np.array_equal(again.outputs[0].array, first.outputs[0].array * 1)
    assert again.outputs[0].array.shape == (64,) and again.n_raw == 1
    other = reference.load_case(task, task.cases()[1])  # another case: its own entry
    assert other.outputs[0].array.shape == (8, 3)
    assert _calls(task) == 1
    src = task.validation / "reference_np.py"
    src.write_text(src.read_text().replace("x * 2", "x * 3"))
    reference._cache.clear()  # a new process would load the edited module
    changed = reference.load_case(task, case)
    assert _calls(task) == 1  # the edited validation file changed the key: recomputed
    assert np.allclose(changed.outputs[0].array, changed.inputs[0].array * 3)


def test_cache_off_and_entries_are_atomic_files(own_task, monkeypatch: pytest.MonkeyPatch) -> None:
    task = own_task
    monkeypatch.setenv("AKGEN_BENCH_REF_CACHE", "0")
    reference.load_case(task, task.cases()[0])
    reference.load_case(task, task.cases()[0])
    assert _calls(task) == 2 and not refcache.cache_root().exists()
    key = "ab" + "0" * 62
    assert refcache.put(key, {"x": np.arange(3)}) and refcache.get(key)["x"].tolist() == [0, 1, 2]
    assert not list(refcache.cache_root().rglob(".tmp-*"))
    (refcache.cache_root() / "ab" / f"{key}.pkl").write_bytes(b"truncated")
    assert refcache.get(key) is None  # a damaged entry is a miss, never an error
    shutil.rmtree(refcache.cache_root())


def test_arrays_are_views_of_the_entry_and_writes_stay_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AKGEN_BENCH_REF_CACHE_DIR", str(tmp_path / "ref"))
    key = "cd" + "1" * 62
    big = np.arange(300_000, dtype=np.float32).reshape(600, 500)
    value = {"big": big, "fortran": np.asfortranarray(big[:40, :30]), "strided": big[::7, ::3], "small": np.int8(3),
             "text": "case 0"}
    assert refcache.put(key, value)
    entry = refcache.cache_root() / "cd" / f"{key}.pkl"
    before = entry.read_bytes()
    got = refcache.get(key)
    assert got["text"] == "case 0" and got["small"] == 3
    for name in ("big", "fortran", "strided"):
        assert np.array_equal(got[name], value[name]) and got[name].dtype == value[name].dtype
    assert got["fortran"].flags.f_contiguous
    assert not got["big"].flags.owndata  # a view of the mapped file: nothing was copied
    got["big"][0, 0] = -1.0  # the harness may write to a case's arrays: its own copy, never the entry
    assert entry.read_bytes() == before and refcache.get(key)["big"][0, 0] == 0.0
    damaged = bytearray(before)
    damaged[24:32] = (1 << 40).to_bytes(8, "little")  # a buffer table that points past the file
    entry.write_bytes(bytes(damaged))
    assert refcache.get(key) is None
    entry.write_bytes(before[: len(before) // 2])  # cut short
    assert refcache.get(key) is None


def test_a_cached_input_is_linked_into_the_case_folder_not_written(own_task, tmp_path: Path) -> None:
    from akgen_lsp.bench.pipeline.manifest import _write_input

    task = own_task
    case = task.cases()[0]
    reference.load_case(task, case)  # computed and stored
    hit = reference.load_case(task, case)
    t = hit.inputs[0]
    assert t.stored is not None and t.stored[1] is t.array
    stored = t.stored[0]
    assert np.array_equal(np.load(stored), t.array)  # only that input: no reference output in the file
    linked = tmp_path / "x.npy"
    _write_input(linked, t)
    assert linked.stat().st_ino == stored.stat().st_ino
    # a tensor made from it with another array is not that file: written
    other = replace(t, array=t.array * 2)
    _write_input(tmp_path / "y.npy", other)
    assert (tmp_path / "y.npy").stat().st_ino != stored.stat().st_ino
    assert np.array_equal(np.load(tmp_path / "y.npy"), t.array * 2)
    stored.unlink()  # pruned meanwhile: written again on the next hit
    again = reference.load_case(task, case)
    assert again.inputs[0].stored is not None and again.inputs[0].stored[0].is_file()
