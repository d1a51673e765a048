from __future__ import annotations

import json
from pathlib import Path

import pytest

from akgen_lsp.errors.store import RepairStore, RepairStoreError, default_path

SIG = "no member named '<id>' in namespace 'AscendC'"


def test_add_similar_export(tmp_path: Path) -> None:
    store = RepairStore(tmp_path / "r.sqlite")
    a = store.add(SIG, "AscendC::Softmax(y, x);\n", "AscendC::SoftMax(y, x, t);\n", error_class="hallucinated_api",
                  message="no member named 'Softmax' in namespace 'AscendC'", task="level2/SoftmaxLastDim",
                  model="user", provenance="editor", path="op_kernel/softmax.cpp")
    assert a is not None
    assert store.add(SIG, "AscendC::Softmax(y, x);\n", "AscendC::SoftMax(y, x, t);\n") is None  # the same repair
    store.add("no template named '<id>' in namespace 'AscendC'", "a\n", "b\n", error_class="hallucinated_api",
              message="m", provenance="synthesized")
    store.add("'<id>' was not declared in this scope", "c\n", "d\n", error_class="scope", provenance="synthesized")
    assert store.count() == 3
    exact = store.similar(SIG, k=1)
    assert len(exact) == 1 and exact[0].score == 1.0 and exact[0].task == "level2/SoftmaxLastDim"
    assert "-AscendC::Softmax(y, x);" in exact[0].diff and "+AscendC::SoftMax(y, x, t);" in exact[0].diff
    near = store.similar(SIG, k=3, error_class="hallucinated_api")
    assert [r.score == 1.0 for r in near] == [True, False] and near[1].signature.startswith("no template named")
    out = tmp_path / "repairs.jsonl"
    assert store.export(out) == 3 and store.export(tmp_path / "s.jsonl", provenance="synthesized") == 2
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert {r["provenance"] for r in rows} == {"editor", "synthesized"} and all("before" in r for r in rows)


def test_a_repair_must_change_something_and_a_bad_place_is_named(tmp_path: Path) -> None:
    store = RepairStore(tmp_path / "r.sqlite")
    with pytest.raises(ValueError, match="must change"):
        store.add(SIG, "x", "x")
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(RepairStoreError, match=r"cannot open the repair store.*AKGEN_CACHE_DIR"):
        RepairStore(blocker / "sub" / "r.sqlite")


def test_the_default_store_lives_in_the_cache(isolated_cache: Path) -> None:
    assert default_path() == isolated_cache / "errors" / "repairs.sqlite"
    RepairStore().add(SIG, "a", "b")
    assert default_path().is_file()
