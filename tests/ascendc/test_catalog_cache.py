from __future__ import annotations

import os
from pathlib import Path

import pytest

from akgen_lsp.ascendc.catalog import load_catalog_cached

ONE = """
[meta]
schema = 1
[[entry]]
name = "AscendC::Add"
kind = "function"
pipe = "V"
  [[entry.overload]]
  signature = "void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count)"
"""


def test_compiled_cache_is_used_and_invalidated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "v.toml").write_text(ONE)
    monkeypatch.setenv("AKGEN_CACHE_DIR", str(tmp_path / "cache"))
    first = load_catalog_cached(data)
    pickles = list((tmp_path / "cache" / "catalog").glob("*.pickle"))
    assert len(pickles) == 1
    assert load_catalog_cached(data).get("AscendC::Add").overloads[0].min_args == 4
    # a change to the data makes a new key: the new entry is seen
    (data / "v.toml").write_text(ONE.replace("AscendC::Add", "AscendC::Sub"))
    st = (data / "v.toml").stat()
    os.utime(data / "v.toml", ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))
    second = load_catalog_cached(data)
    assert "AscendC::Sub" in second and "AscendC::Add" in first


def test_broken_cache_file_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "v.toml").write_text(ONE)
    monkeypatch.setenv("AKGEN_CACHE_DIR", str(tmp_path / "cache"))
    load_catalog_cached(data)
    (pickle_file,) = (tmp_path / "cache" / "catalog").glob("*.pickle")
    pickle_file.write_bytes(b"not a pickle")
    assert "AscendC::Add" in load_catalog_cached(data)
