"""Hover over a simulator finding that is a memory-safety or concurrency fault shows its CWE (with MITRE's link),
alone or above the API's own hover; findings without a CWE add nothing."""

from __future__ import annotations

from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.config import defaults
from akgen_lsp.findings import Finding, Span
from akgen_lsp.server.features import hover

TEXT = "void k() {\n    DataCopy(dst, src, 100);\n    int x = 1;\n}\n"


def finding(line: int, cwe: int | None, code: str = "SIM-GM-OOB-WRITE") -> Finding:
    return Finding(code, "DataCopy writes bytes [0, 400) of GM buffer 'z', which has 256 bytes",
                   Span("k.cpp", line, 1, line, 40), source="akgen-run", data={"cwe": cwe} if cwe else {})


def test_a_finding_with_a_cwe_shows_it_above_the_api() -> None:
    f = finding(2, 787)
    here = hover.findings_at([f], 1, 6)
    res = hover.hover(TEXT, 1, 6, defaults(), load_catalog(), [f.code for f in here], here)
    assert res is not None
    assert res.markdown.startswith("**SIM-GM-OOB-WRITE**")
    assert "[CWE-787: Out-of-bounds Write](https://cwe.mitre.org/data/definitions/787.html)" in res.markdown
    assert "DataCopy" in res.markdown.split("---", 1)[1]  # the API's own hover follows


def test_a_finding_on_a_plain_word_shows_only_its_cwe() -> None:
    f = finding(3, 457, "SIM-INIT-UB")
    res = hover.hover(TEXT, 2, 9, defaults(), load_catalog(), [f.code], hover.findings_at([f], 2, 9))
    assert res is not None and "CWE-457: Use of Uninitialized Variable" in res.markdown


def test_findings_without_a_cwe_add_nothing() -> None:
    f = finding(3, None, "SIM-DTYPE")
    assert hover.hover(TEXT, 2, 9, defaults(), load_catalog(), [f.code], hover.findings_at([f], 2, 9)) is None
