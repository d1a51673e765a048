from __future__ import annotations

from pathlib import Path

import pytest

from akgen_lsp.bench.tasks import (
    TaskError,
    camel_to_snake,
    case_dtypes,
    discover_tasks,
    find_task_for_path,
    normalize_dtype,
    parse_shape,
    parse_test_cases,
)

REF = Path("/work/ref/NPUKernelBench")


def test_shapes() -> None:
    assert parse_shape("[48, 128, 512]") == (48, 128, 512)
    assert parse_shape("[1]") == (1,)
    assert parse_shape("[]") == ()
    assert parse_shape("64") == (64,)
    assert parse_shape(7) == (7,)
    for bad in ("[1.5, 2]", "abc", "[[1], [2]]", "[True]"):
        with pytest.raises(TaskError):
            parse_shape(bad)


def test_csv_columns_are_typed_like_pandas() -> None:
    text = ("case_id;input_shape;dtype;scale;flag;mode;eps\n"
            "0;[48, 128, 512];float16;2;true;mean;1e-5\n"
            "1;[1];bfloat16;3;False;sum;0.5\n")
    cases = parse_test_cases(text)
    assert cases[0] == {"case_id": 0, "input_shape": "[48, 128, 512]", "dtype": "float16", "scale": 2,
                        "flag": True, "mode": "mean", "eps": 1e-5}
    assert cases[1]["flag"] is False and isinstance(cases[1]["eps"], float)
    assert cases[1].case_id == 1 and cases[1].get("dtype") == "bfloat16" and cases[1].scale == 3


def test_csv_mixed_int_float_column_becomes_float_and_missing_cells() -> None:
    cases = parse_test_cases("case_id;alpha;note\n0;1;\n1;2.5;x\n2;;y\n")
    assert cases[0]["alpha"] == 1.0 and isinstance(cases[0]["alpha"], float)
    assert cases[0]["note"] is None
    assert cases[2]["alpha"] != cases[2]["alpha"]  # NaN, as pandas


def test_csv_errors_name_the_line() -> None:
    with pytest.raises(TaskError, match=r"x.csv:3: 2 cells for 3 columns"):
        parse_test_cases("case_id;shape;dtype\n0;[1];float\n1;[2]\n", "x.csv")
    with pytest.raises(TaskError, match="empty"):
        parse_test_cases("\n\n")


def test_csv_without_trailing_newline_and_crlf() -> None:
    cases = parse_test_cases("case_id;m;k;n;dtype\r\n0;128;256;512;float16\r\n1;640;512;210;float16")
    assert [c["n"] for c in cases] == [512, 210]


def test_dtypes() -> None:
    assert normalize_dtype("float") == "float32" and normalize_dtype("half") == "float16"
    assert normalize_dtype("bfloat16") == "bfloat16" and normalize_dtype("strange") is None
    assert case_dtypes({"dtype": "float", "indices_dtype": "int32", "x": "y"}) == {"dtype": "float32",
                                                                                  "indices_dtype": "int32"}
    assert camel_to_snake("AbsMath") == "abs_math" and camel_to_snake("GeluV2") == "gelu_v2"


@pytest.mark.skipif(not REF.is_dir(), reason="no NPUKernelBench checkout at /work/ref/NPUKernelBench")
def test_every_real_csv_parses() -> None:
    tasks = discover_tasks(REF)
    assert len(tasks) == 157
    for t in tasks:
        cases = t.cases()
        assert cases, t.id
        for c in cases:
            for k, v in c.items():
                if "shape" in k.lower() and isinstance(v, str) and v.startswith("["):
                    try:
                        parse_shape(v)
                    except TaskError:
                        assert "[[" in v or "," in v, (t.id, k, v)  # lists of shapes are left to prepare_inputs


def test_discover_and_find_bundled(tmp_path: Path) -> None:
    root = tmp_path / "tasks" / "level1" / "Math" / "MyAdd"
    (root / "validation").mkdir(parents=True)
    (root / "answer" / "0" / "op_kernel").mkdir(parents=True)
    (root / "answer" / "0" / "op_host").mkdir(parents=True)
    k = root / "answer" / "0" / "op_kernel" / "my_add.cpp"
    k.write_text("// kernel\n")
    (root / "answer" / "0" / "op_host" / "my_add.cpp").write_text("// host\n")
    (root / "answer" / "0" / "op_host" / "my_add_tiling.h").write_text("// tiling\n")
    (root / "validation" / "test_cases.csv").write_text("case_id;shape;dtype\n0;[8];float16\n")
    tasks = discover_tasks(tmp_path)
    assert [t.id for t in tasks] == ["level1/Math/MyAdd"]
    t = tasks[0]
    assert t.op == "my_add" and t.answers[0].kernel == k and t.answers[0].tiling_header is not None
    assert discover_tasks(tmp_path, level=2) == []
    assert discover_tasks(tmp_path, names=["my_add"])[0].name == "MyAdd"
    found = find_task_for_path(k)
    assert found is not None and found[0].name == "MyAdd" and found[1] == 0
    assert find_task_for_path(tmp_path / "elsewhere.cpp") is None
    with pytest.raises(TaskError):
        discover_tasks(tmp_path / "nope")
