"""Integrity of the bundled Ascend C API catalog (akgen_lsp/ascendc/catalog/*.toml)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from akgen_lsp.ascendc.catalog import (
    CATALOG_DIR,
    KINDS,
    PIPES,
    Catalog,
    Entry,
    load_catalog,
    load_catalog_dir,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

FAMILIES = ("core", "types", "vector_binary", "vector_unary", "vector_scalar", "vector_cmpsel", "vector_reduce", "vector_misc",
            "datacopy", "cube", "sync", "adv", "tiling", "kernel")

# Names that real kernels (NPUKernelBench answers, asc-devkit vector/cube examples) use: each must be in the catalog.
REAL_KERNEL_NAMES = [
    "AscendC::TPipe", "AscendC::TQue", "AscendC::TQueBind", "AscendC::TBuf", "AscendC::GlobalTensor", "AscendC::LocalTensor",
    "AscendC::TPipe::InitBuffer", "AscendC::TQueBind::AllocTensor", "AscendC::TQueBind::EnQue", "AscendC::TQueBind::DeQue",
    "AscendC::TQueBind::FreeTensor", "AscendC::TBuf::Get", "AscendC::GlobalTensor::SetGlobalBuffer",
    "AscendC::LocalTensor::GetValue", "AscendC::LocalTensor::SetValue", "AscendC::LocalTensor::ReinterpretCast",
    "AscendC::LocalTensor::GetPhyAddr", "AscendC::TPipe::FetchEventID", "AscendC::GetBlockIdx", "AscendC::GetBlockNum",
    "AscendC::GetSubBlockIdx", "AscendC::GetSubBlockNum", "GetTPipePtr", "GetSysWorkSpacePtr", "AscendC::GetUserWorkspace",
    "AscendC::DataCopy", "AscendC::DataCopyPad", "AscendC::DataCopyParams", "AscendC::DataCopyExtParams",
    "AscendC::DataCopyPadExtParams", "AscendC::Add", "AscendC::Sub", "AscendC::Mul", "AscendC::Div", "AscendC::Max",
    "AscendC::Min", "AscendC::Adds", "AscendC::Muls", "AscendC::Mins", "AscendC::Maxs", "AscendC::Exp", "AscendC::Ln",
    "AscendC::Sqrt", "AscendC::Abs", "AscendC::Cast", "AscendC::Duplicate", "AscendC::Compare", "AscendC::Select",
    "AscendC::ReduceSum", "AscendC::WholeReduceSum", "AscendC::BlockReduceSum", "AscendC::Brcb", "AscendC::GatherMask",
    "AscendC::SetFlag", "AscendC::WaitFlag", "AscendC::PipeBarrier", "AscendC::CrossCoreSetFlag",
    "AscendC::CrossCoreWaitFlag", "AscendC::SyncAll", "AscendC::LoadData", "AscendC::Mmad", "AscendC::Fixpipe",
    "AscendC::LoadData2DParams", "AscendC::MmadParams", "AscendC::FixpipeParamsV220", "AscendC::Nd2NzParams",
    "AscendC::HardEvent::MTE2_V", "AscendC::TPosition::VECCALC", "AscendC::QuePosition::VECIN",
    "AscendC::RoundMode::CAST_NONE", "AscendC::CMPMODE::LT", "AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE",
    "AscendC::Matmul", "AscendC::Matmul::IterateAll", "AscendC::SoftMax", "AscendC::SoftmaxFlashV2", "AscendC::Sigmoid",
    "AscendC::SelectWithBytesMask", "AscendC::BroadCast", "AscendC::CFG_ROW_MAJOR", "AscendC::ONE_BLK_SIZE",
    "GET_TILING_DATA", "TILING_KEY_IS", "KERNEL_TASK_TYPE_DEFAULT", "REGIST_MATMUL_OBJ", "GET_TILING_DATA_WITH_STRUCT",
    "__global__", "__aicore__", "GM_ADDR", "pipe_t", "PIPE_V", "half", "bfloat16_t",
]


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog_dir(CATALOG_DIR)


def _known_type(cat: Catalog, name: str) -> bool:
    return name in cat or f"AscendC::{name}" in cat


def test_every_file_loads_with_schema_and_family() -> None:
    seen = set()
    for path in sorted(CATALOG_DIR.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert data["meta"]["schema"] == 1, path.name
        assert data["meta"]["sources"], f"{path.name} names no sources"
        seen.add(data["meta"]["family"])
    assert set(FAMILIES) <= seen
    assert "invented" in seen


def test_size_and_family_counts(cat: Catalog) -> None:
    assert len(cat) > 150
    counts: dict[str, int] = {}
    for e in cat:
        counts[e.family] = counts.get(e.family, 0) + 1
    for fam in FAMILIES:
        assert counts.get(fam, 0) > 0, f"family {fam} is empty"
    assert counts["vector_binary"] >= 15 and counts["core"] >= 40


def test_no_duplicate_names_across_files() -> None:
    names: dict[str, str] = {}
    for path in sorted(CATALOG_DIR.glob("*.toml")):
        for raw in tomllib.loads(path.read_text(encoding="utf-8")).get("entry", ()):
            assert raw["name"] not in names, f"{raw['name']} is in {names.get(raw['name'])} and {path.name}"
            names[raw["name"]] = path.name


def test_kinds_and_pipes_are_valid(cat: Catalog) -> None:
    for e in cat:
        assert e.kind in KINDS and e.pipe in PIPES, e.name


def test_callables_have_overloads_docs_and_matching_names(cat: Catalog) -> None:
    sig_name = re.compile(r"(~?[A-Za-z_]\w*|operator\s*\S+?)\s*\(")
    for e in cat:
        if e.kind in ("function", "method"):
            assert e.overloads, f"{e.name} has no overload"
        if e.kind in ("function", "method", "class", "macro", "enum"):
            assert e.doc, f"{e.name} has no doc"
        for ov in e.overloads:
            assert ov.returns or e.kind in ("class", "macro") or e.short.startswith("operator"), (e.name, ov.signature)
            head = ov.signature.split("(")[0]
            found = sig_name.search(ov.signature)
            assert found, ov.signature
            if not e.short.startswith("operator") and e.kind != "macro":
                assert head.split()[-1].lstrip("*&") == e.short, (e.name, ov.signature)


def test_mask_arrays_are_written_const(cat: Catalog) -> None:
    for e in cat:
        for ov in e.overloads:
            for p in ov.params:
                if p.name == "mask" and p.type.endswith("[]"):
                    assert p.type.startswith("const "), (e.name, ov.signature)


def test_parents_bases_and_replacements_exist(cat: Catalog) -> None:
    for e in cat:
        if e.kind == "method":
            parent = cat.get(e.parent)
            assert parent is not None and parent.kind == "class", f"{e.name}: parent class {e.parent} missing"
        if e.kind in ("variable", "enumerator") and e.parent and e.parent not in ("AscendC",):
            assert e.parent in cat, f"{e.name}: parent {e.parent} missing"
        for base in e.bases:
            assert cat.get(base) is not None and cat.get(base).kind == "class", f"{e.name}: base {base} missing"
        if e.replaced_by:
            assert e.replaced_by in cat, f"{e.name}: replaced_by {e.replaced_by} missing"
    for inv in cat.invented.values():
        assert inv.replacement in cat, f"invented {inv.name}: replacement {inv.replacement} missing"
        assert inv.note, inv.name


def test_dtype_names_are_catalog_types(cat: Catalog) -> None:
    for e in cat:
        for arch, types in e.dtypes.items():
            assert arch in ("2201", "2002"), (e.name, arch)
            for t in types:
                assert _known_type(cat, t), f"{e.name}: dtype {t} is not a type entry"


def test_real_kernel_names_present(cat: Catalog) -> None:
    missing = [n for n in REAL_KERNEL_NAMES if n not in cat]
    assert not missing, missing


def test_nothing_real_kernels_use_is_missing_at_the_default_version(cat: Catalog) -> None:
    # the default target is CANN 8.5: no entry may be reported as absent there (only `deprecated`)
    absent = [e.name for e in cat if not e.exists_in("8.5")]
    assert not absent, absent
    for name in ("AscendC::WholeReduceSum", "AscendC::BlockReduceMax", "AscendC::PairReduceSum"):
        assert cat.get(name).exists_in("8.5") and cat.get(name).exists_in("9.1")


def test_binary_op_forms_and_dtypes(cat: Catalog) -> None:
    add = cat.get("AscendC::Add")
    forms = {ov.form for ov in add.overloads}
    assert {"count", "mask_repeat", "mask_bits"} <= forms
    count = next(ov for ov in add.overloads if ov.form == "count")
    assert [p.name for p in count.params] == ["dst", "src0", "src1", "count"] and count.accepts(4)
    assert add.pipe == "V"
    assert set(add.dtypes_for("2201")) == {"half", "float", "int16_t", "int32_t"}
    assert set(cat.get("AscendC::Div").dtypes_for("2201")) == {"half", "float"}
    assert "bfloat16_t" in cat.get("AscendC::Duplicate").dtypes_for("2201")
    assert "bfloat16_t" not in cat.get("AscendC::Duplicate").dtypes_for("2002")


def test_renames_and_deprecations(cat: Catalog) -> None:
    whole = cat.get("AscendC::WholeReduceSum")
    assert whole.deprecated and whole.replaced_by == "AscendC::ReduceRepeat" and whole.removed is None
    assert cat.get("AscendC::BlockReduceSum").replaced_by == "AscendC::ReduceDataBlock"
    assert cat.get("AscendC::PairReduceSum").replaced_by == "AscendC::ReducePairElem"
    cmp_scalar = cat.get("AscendC::CompareScalar")
    assert cmp_scalar.deprecated and cmp_scalar.replaced_by == "AscendC::Compares"
    assert not cat.get("AscendC::Compares").deprecated
    # argument order of the old block reduce: repeat before mask
    blk = cat.get("AscendC::BlockReduceSum").overloads[0]
    assert [p.name for p in blk.params][2:4] == ["repeatTime", "mask"]


def test_invented_names(cat: Catalog) -> None:
    soft = cat.invented["AscendC::Softmax"]
    assert soft.certain and soft.replacement == "AscendC::SoftMax" and "Tiling" in soft.note
    sync = cat.invented["AscendC::SyncFunc"]
    assert not sync.certain and sync.replacement == "AscendC::SetFlag"
    divs = cat.invented["AscendC::Divs"]
    assert divs.max_version == "9.0" and divs.replacement == "AscendC::Muls"
    assert cat.invented["bfloat16"].replacement == "bfloat16_t"
    assert cat.invented_short["GetValue"][0].replacement == "AscendC::LocalTensor::GetValue"
    for inv in cat.invented.values():
        assert inv.name not in cat or inv.max_version, f"{inv.name} is a real name; only version-bound entries may be both"


def test_class_members_resolve_through_bases(cat: Catalog) -> None:
    assert cat.member("AscendC::TQue", "AllocTensor") is cat.get("AscendC::TQueBind::AllocTensor")
    assert cat.member("AscendC::TBuf", "Get") is cat.get("AscendC::TBuf::Get")
    names = {m.short for m in cat.members("AscendC::TQue")}
    assert {"EnQue", "DeQue", "AllocTensor", "FreeTensor", "VacantInQue"} <= names
    fields = {m.short for m in cat.members("AscendC::DataCopyParams") if m.kind == "variable"}
    assert {"blockCount", "blockLen", "srcStride", "dstStride"} <= fields
    block_len = cat.get("AscendC::DataCopyExtParams::blockLen")
    assert block_len.kind == "variable" and block_len.extra["type"] == "uint32_t"


def test_pipes_of_data_movement_and_cube(cat: Catalog) -> None:
    assert cat.get("AscendC::DataCopy").extra["pipe_by_direction"]["ub_to_gm"] == "MTE3"
    assert cat.get("AscendC::DataCopyPad").extra["archs"] == ["2201"]
    assert cat.get("AscendC::Mmad").pipe == "M"
    assert cat.get("AscendC::LoadData").pipe == "MTE1"
    assert cat.get("AscendC::Fixpipe").pipe == "FIX"
    assert cat.get("AscendC::SetFlag").pipe == "S"


def test_kernel_entry_facts(cat: Catalog) -> None:
    glob = cat.get("__global__")
    assert glob.kind == "macro" and "extern" in glob.doc and "void" in glob.doc
    assert cat.get("GM_ADDR").value == "__gm__ uint8_t*"
    assert {"__vector__", "__cube__", "__mix__", "__gm__"} <= {e.name for e in cat if e.family == "kernel"}


def test_lookup_by_short_name_and_suggestions(cat: Catalog) -> None:
    assert any(e.name == "AscendC::SoftMax" for e in cat.lookup("SoftMax"))
    pool = [e.short for e in cat.namespace_members("AscendC")]
    assert "SoftMax" in cat.suggest("Softmax", pool)
    assert "ReduceSum" in cat.suggest("ReduceSun", pool)


def test_bundled_loader_is_cached() -> None:
    assert load_catalog() is load_catalog()
    assert isinstance(load_catalog().get("AscendC::Add"), Entry)


def test_arch_support_and_cast_conversions(cat: Catalog) -> None:
    pad = cat.get("AscendC::DataCopyPad")
    assert pad.supported_on("2201") and not pad.supported_on("2002")
    assert cat.get("AscendC::Add").supported_on("2002")
    assert not cat.get("AscendC::RpSort16").supported_on("2201")
    conv = cat.get("AscendC::Cast").extra["conversions"]
    assert "half->float" in conv["2201"] and "float->bfloat16_t" in conv["2201"]
    assert not any("bfloat16_t" in c for c in conv["2002"])


def test_catalog_errors_are_reported_with_the_file(tmp_path: Path) -> None:
    from akgen_lsp.ascendc.catalog import CatalogError

    (tmp_path / "bad.toml").write_text(
        '[meta]\nschema = 1\n[[entry]]\nname = "AscendC::X"\nkind = "function"\n[[entry.overload]]\nsignature = "void X("\n',
        encoding="utf-8")
    with pytest.raises(CatalogError, match=r"bad\.toml"):
        load_catalog_dir(tmp_path)
