"""The data scripts' replay of a kernel UT (akgen_lsp/sim/ut_broker.py outside the box, ut_pyrun.py its client and
recorder): a run is replayed only while the script, its arguments, its folder and what it read are unchanged, only
from a record the broker sealed; a record planted or tampered with, in the store or by the UT's own box, is never
replayed as a real run."""

from __future__ import annotations

import hmac
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from akgen_lsp.sim.op_test import find_op, run_op_test, work_dir
from akgen_lsp.sim.ut_broker import PYRUN, ScriptBroker, record_key

from .test_op_test import copy_repo, needs_ut_tools, ut_tools  # noqa: F401 - the fixture

KEY = b"k" * 32


def _plain_box(argv: Sequence[str], cwd: Path, staging: Path) -> Any:
    """A script's recorded run without bubblewrap (the broker's logic is what these tests are about)."""
    p = subprocess.run(list(argv), cwd=cwd, capture_output=True, text=True, timeout=120)
    return SimpleNamespace(returncode=p.returncode, output=p.stdout + p.stderr)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[ScriptBroker]:
    work = tmp_path / "work"
    (work / "data").mkdir(parents=True)
    with ScriptBroker(tmp_path / "store", work, [tmp_path / "repo"], Path(sys.executable), _plain_box, KEY) as b:
        yield b


def _client(broker: ScriptBroker, *args: str) -> subprocess.CompletedProcess[str]:
    """What the shim runs in the test's box: `python -S ut_pyrun.py SCRIPT ARGS`."""
    env = {**os.environ, "AKGEN_UT_SCRIPT_BROKER": str(broker.folder)}
    return subprocess.run([sys.executable, "-S", str(PYRUN), *args], cwd=broker.work / "data", env=env,
                          capture_output=True, text=True, timeout=120)


def _gen(data: Path) -> None:
    (data / "in.txt").write_text("abc", encoding="utf-8")
    (data / "gen.py").write_text(
        "import sys\n"
        "text = open('in.txt').read()\n"
        "open('out.txt', 'w').write(text.upper() + sys.argv[1])\n"
        "print('made', text)\n"
        "sys.exit(3 if text == 'bad' else 0)\n", encoding="utf-8")


def test_a_data_script_is_replayed_only_while_what_it_read_is_unchanged(broker: ScriptBroker) -> None:
    data = broker.work / "data"
    _gen(data)
    runs = [_client(broker, "gen.py", "!") for _ in range(3)]
    assert all(r.returncode == 0 and "made abc" in r.stdout for r in runs), runs
    assert (data / "out.txt").read_text(encoding="utf-8") == "ABC!"
    # the first run records (out.txt is new in the folder, so the second has another key), the third is replayed
    assert (broker.ran, broker.replayed) == (2, 1)
    (data / "out.txt").write_text("xyzw", encoding="utf-8")  # a replay writes what the run wrote
    assert _client(broker, "gen.py", "!").returncode == 0
    assert (broker.ran, broker.replayed) == (2, 2) and (data / "out.txt").read_text() == "ABC!"

    (data / "in.txt").write_text("bad", encoding="utf-8")  # what it read changed: it runs
    bad = _client(broker, "gen.py", "!")
    assert bad.returncode == 3 and "made bad" in bad.stdout and (data / "out.txt").read_text() == "BAD!"
    assert _client(broker, "gen.py", "?").returncode == 3  # other arguments: it runs
    assert (broker.ran, broker.replayed) == (4, 2)

    (data / "spawn.py").write_text("import subprocess, sys\nsubprocess.run([sys.executable, '-c', 'pass'])\n",
                                   encoding="utf-8")
    for _ in range(3):
        assert _client(broker, "spawn.py").returncode == 0
    assert broker.ran == 7  # a run that starts a process is never replayed


def test_a_run_that_writes_outside_the_work_folder_or_reads_outside_the_box_is_not_replayed(
    broker: ScriptBroker, tmp_path: Path
) -> None:
    data = broker.work / "data"
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.txt").write_text("s", encoding="utf-8")
    (data / "out.py").write_text(f"open({str(outside / 'o.txt')!r}, 'w').write('x')\n", encoding="utf-8")
    (data / "peek.py").write_text(f"print(open({str(outside / 'secret.txt')!r}).read())\n", encoding="utf-8")
    for script in ("out.py", "peek.py"):
        for _ in range(2):
            assert _client(broker, script).returncode == 0
    assert (broker.ran, broker.replayed, broker.recorded) == (4, 0, 0)


def _forged(rc: int = 0, said: str = "PASSED!") -> dict[str, Any]:
    return {"cacheable": True, "reads": {}, "writes": {}, "blobs": {}, "rc": rc,
            "stdout": (said + "\n").encode().hex(), "stderr": ""}


def test_a_planted_or_tampered_record_in_the_store_is_not_replayed(broker: ScriptBroker) -> None:
    data = broker.work / "data"
    (data / "out.bin").write_bytes(b"wrong")
    (data / "compare.py").write_text(
        "import sys\nok = open('out.bin', 'rb').read() == b'right'\nprint('PASSED!' if ok else 'FAILED!')\n"
        "sys.exit(0 if ok else 1)\n", encoding="utf-8")
    key = record_key(sys.executable, str(data / "compare.py"), [], str(data), broker.roots)
    assert key is not None
    entry = broker.store / key
    # planted: a record that says the compare passed, with no seal, then with a seal of another key
    entry.mkdir(parents=True)
    (entry / "record.json").write_text(json.dumps(_forged()), encoding="utf-8")
    first = _client(broker, "compare.py")
    assert first.returncode == 1 and "FAILED!" in first.stdout and broker.replayed == 0
    entry.mkdir(parents=True, exist_ok=True)
    raw = json.dumps(_forged()).encode()
    (entry / "record.json").write_bytes(raw)
    (entry / "seal").write_text(hmac.new(b"x" * 32, raw, "sha256").hexdigest(), encoding="ascii")
    second = _client(broker, "compare.py")
    assert second.returncode == 1 and "FAILED!" in second.stdout and broker.replayed == 0

    # the broker's own record of the failing run: replayed while out.bin is unchanged
    assert _client(broker, "compare.py").returncode == 1 and broker.replayed == 1
    rec = json.loads((entry / "record.json").read_text(encoding="utf-8"))
    assert rec["rc"] == 1 and str(data / "out.bin") in rec["reads"]
    # tampered: the status of the sealed record changed, or its reads dropped
    for change in ({"rc": 0}, {"reads": {}}):
        (entry / "record.json").write_text(json.dumps({**rec, **change}), encoding="utf-8")
        again = _client(broker, "compare.py")
        assert again.returncode == 1 and "FAILED!" in again.stdout
    assert broker.replayed == 1


def test_a_tampered_output_of_a_sealed_record_is_not_replayed(broker: ScriptBroker) -> None:
    data = broker.work / "data"
    _gen(data)
    (data / "out.txt").write_text("....", encoding="utf-8")  # the same folder listing on every run
    for _ in range(2):
        assert _client(broker, "gen.py", "!").returncode == 0
    assert (broker.ran, broker.replayed) == (1, 1)
    entry = next(p for p in broker.store.iterdir() if (p / "seal").is_file())
    (entry / "out0").write_text("EVIL", encoding="utf-8")
    assert _client(broker, "gen.py", "!").returncode == 0
    assert (broker.ran, broker.replayed) == (2, 1) and (data / "out.txt").read_text() == "ABC!"


_PLANT = """#!/bin/sh
# a UT whose box tries to make the next compare a recorded pass: it overwrites every record it can find
forged='{"cacheable": true, "reads": {}, "writes": {}, "blobs": {}, "rc": 0, "stdout": "", "stderr": ""}'
n=0
for f in $(find "$HOME" "$AKGEN_CACHE_DIR" -name record.json 2>/dev/null); do
  if (printf '%s' "$forged" > "$f") 2>/dev/null; then n=$((n+1)); fi
done
echo "$n" > "$HOME/planted"
"""


@needs_ut_tools
def test_a_ut_box_that_plants_records_does_not_turn_a_wrong_kernel_into_a_match(tmp_path: Path) -> None:
    repo = copy_repo(tmp_path)
    op = repo / "math" / "axpb"
    ut = op / "tests" / "ut" / "op_kernel"
    (ut / "plant.sh").write_text(_PLANT, encoding="utf-8")
    test = ut / "test_axpb.cpp"
    test.write_text(test.read_text(encoding="utf-8").replace(
        'system("cd ./axpb_data/ && python3 compare_data.py float32");',
        'system("sh ../../../../math/axpb/tests/ut/op_kernel/plant.sh");\n'
        '    system("cd ./axpb_data/ && python3 compare_data.py float32");'), encoding="utf-8")
    first = run_op_test(op)
    assert first.ok and first.golden == "match", first.log[-3000:]
    header = op / "op_kernel" / "axpb_common.h"
    header.write_text(header.read_text(encoding="utf-8").replace("Adds(y, y, b,", "Adds(y, y, a,"),
                      encoding="utf-8")
    wrong = run_op_test(op)
    assert wrong.built and wrong.ran and wrong.golden == "mismatch" and not wrong.ok, wrong.golden_detail
    # the records are where the box cannot write (and a record it could write would lack the seal)
    layout = find_op(op)
    assert layout is not None and (work_dir(layout, wrong.soc) / "planted").read_text().strip() == "0"
