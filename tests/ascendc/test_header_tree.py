"""Reading an Ascend C header tree (our own small headers, laid out as asc-devkit is) and writing the names file."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.ascendc.catalog import read_names
from akgen_lsp.ascendc.header_tree import read_tree, write_names

from .test_header_names import HEADER


def test_read_tree_merges_archs_aliases_and_round_trips_through_the_names_file(tmp_path: Path) -> None:
    inc = tmp_path / "include" / "basic_api"
    inc.mkdir(parents=True)
    (inc / "demo.h").write_text(HEADER, encoding="utf-8")
    impl = tmp_path / "impl" / "basic_api" / "dav_3510"
    impl.mkdir(parents=True)
    (impl / "only.h").write_text("namespace AscendC {\nnamespace MicroAPI = Reg;\n"
                                 "__aicore__ inline void NewOnly(int a) {}\n}\n", encoding="utf-8")
    facts = read_tree(tmp_path)
    assert facts["AscendC::NewOnly"].archs == {"3510"}
    assert "AscendC::MicroAPI::Add" in facts  # the namespace alias names the same functions
    out = tmp_path / "names.tsv"
    write_names(facts.values(), out, "a test tree")
    names = read_names(out)
    assert names["AscendC::MicroAPI::Add"].accepts(4) and not names["AscendC::MicroAPI::Add"].accepts(3)
    assert names["AscendC::NewOnly"].archs == ("3510",)
    assert names["AscendC::LocalThing"].bases == ("BaseThing",)
