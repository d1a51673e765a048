"""Task code in the box (akgen_lsp/bench/ref_box.py): a task's prepare_inputs.py / reference_np.py run sandboxed;
what they write outside, read from the home folder, print, or hand back as a pickle never reaches the tool, and the
case's arrays still arrive (docs/security.md, "Task code")."""

from __future__ import annotations

import contextlib
import textwrap
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.bench import reference
from akgen_lsp.bench.tasks import load_task
from akgen_lsp.sandbox.mode import probe

pytestmark = [pytest.mark.hostile, pytest.mark.skipif(probe() is not None, reason="needs bubblewrap")]

PREPARE = """
import numpy as np
print("PRINTED BY THE TASK")
def get_inputs(param, device=None):
    return [np.random.rand(*eval(param['shape'])).astype(np.float32)]
"""


def make_task(tmp_path: Path, reference_np: str, prepare: str = PREPARE) -> object:
    root = tmp_path / "tasks" / "level1" / "Own" / "Twice"
    v = root / "validation"
    v.mkdir(parents=True)
    (v / "test_cases.csv").write_text("case_id;shape\n0;[64]\n")
    (v / "prepare_inputs.py").write_text(textwrap.dedent(prepare))
    (v / "reference_np.py").write_text(textwrap.dedent(reference_np))
    return load_task(root)


@pytest.fixture(autouse=True)
def no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AKGEN_BENCH_REF_CACHE", "0")
    monkeypatch.setenv("AKGEN_SIM_SANDBOX", "on")
    reference._cache.clear()


def test_a_reference_cannot_write_outside_or_read_home_and_its_prints_stay_in_the_box(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    marker = tmp_path / "pwned"
    secret = Path.home() / ".akgen-test-secret"
    secret.write_text("SECRET-VALUE")
    try:
        task = make_task(tmp_path, f"""
            import os
            def reference(param, x):
                for p in ({str(marker)!r}, {str(task_marker := tmp_path / "tasks" / "mine")!r}):
                    try:
                        open(p, "w").write("x")
                    except OSError:
                        pass
                try:
                    print(open({str(secret)!r}).read())
                except OSError:
                    pass
                return x * 2
            """)
        data = reference.load_case(task, task.cases()[0])
    finally:
        secret.unlink()
    np.testing.assert_allclose(data.outputs[0].array, data.inputs[0].array * 2)
    assert not marker.exists() and not task_marker.exists()
    out = capfd.readouterr()
    assert "PRINTED BY THE TASK" not in out.out + out.err and "SECRET-VALUE" not in out.out + out.err


def test_a_reference_cannot_reach_the_network_or_run_programs(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    task = make_task(tmp_path, f"""
        import socket, subprocess
        def reference(param, x):
            try:
                socket.create_connection(("127.0.0.1", 22), timeout=2)
                return x * 0 + 99
            except OSError:
                pass
            try:
                subprocess.run(["touch", {str(marker)!r}])
            except OSError:
                pass
            return x * 2
        """)
    data = reference.load_case(task, task.cases()[0])
    np.testing.assert_allclose(data.outputs[0].array, data.inputs[0].array * 2)
    assert not marker.exists()


def test_a_pickle_handed_back_by_the_task_is_never_loaded(tmp_path: Path) -> None:
    marker = tmp_path / "unpickled"
    task = make_task(tmp_path, f"""
        import os
        import numpy as np

        class Boom:
            def __reduce__(self):
                return (os.system, ("touch {marker}",))

        real_save = np.save
        def evil_save(path, arr, allow_pickle=True):  # the task replaces numpy.save inside the box
            real_save(path, np.array([Boom()], dtype=object), allow_pickle=True)
        np.save = evil_save

        def reference(param, x):
            return x * 2
        """)
    with pytest.raises(reference.ReferenceError_):
        reference.load_case(task, task.cases()[0])
    assert not marker.exists()


def test_a_task_that_never_ends_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from akgen_lsp.bench import ref_box

    monkeypatch.setattr(ref_box, "TIMEOUT_S", 5.0)
    task = make_task(tmp_path, """
        def reference(param, x):
            while True:
                pass
        """)
    with pytest.raises(reference.ReferenceError_, match="sandbox"):
        reference.load_case(task, task.cases()[0])


def test_a_workspace_reference_expression_cannot_escape_through_torch(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from akgen_lsp.check.kernel import _REFERENCE

    marker = tmp_path / "escaped"
    task = make_task(tmp_path, _REFERENCE)
    spec = {"reference": f"torch.os.system('touch {marker}') * 0 + x", "inputs": [{"name": "x"}], "params": {},
            "outputs": []}
    (task.validation / "spec.json").write_text(__import__("json").dumps(spec))
    with contextlib.suppress(reference.ReferenceError_, reference.Skip):
        reference.load_case(task, task.cases()[0])
    assert not marker.exists()
