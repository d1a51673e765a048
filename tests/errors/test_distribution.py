from __future__ import annotations

import re

from akgen_lsp.errors.classify import Classifier
from akgen_lsp.errors.distribution import distribution
from akgen_lsp.errors.html_report import render_html
from akgen_lsp.logs.blocks import ErrorBlock
from akgen_lsp.logs.mine import mine_log
from tests.errors.conftest import LOGS


def _blocks() -> list[ErrorBlock]:
    out = []
    for name, model in (("gcc_add_errors.log", "model-a"), ("clang_stub.log", "model-b"),
                        ("npu_507015.log", "model-b")):
        for b in mine_log(LOGS / name, model=model):
            b.origin.update(task="level1/Math/AddMath", level=1)
            out.append(b)
    return Classifier().classify_all(out)


def test_counts_shares_breakdowns_and_top_signatures() -> None:
    blocks = _blocks()
    d = distribution(blocks)
    assert d["blocks"] == len(blocks) == 12 and d["occurrences"] == 14 and d["kernel_errors"] == 12
    by = {c["class"]: c for c in d["classes"]}
    assert len(by) == 13 and by["hallucinated_api"]["count"] == 3 and by["harness"]["count"] == 0
    assert abs(sum(c["share"] for c in d["classes"]) - 1.0) < 1e-3
    assert d["by_model"]["model-a"]["hallucinated_api"] == 2 and sum(d["by_model"]["model-b"].values()) == 6
    assert d["by_tool"]["npu-runtime"] == {"runtime": 1} and d["by_level"]["1"]["dtype"] == 3
    top = d["top_signatures"]["hallucinated_api"]
    assert top[0]["count"] == 1 and top[0]["example"]["where"]
    assert d["classes"][0]["count"] >= d["classes"][1]["count"]


def test_html_is_self_contained() -> None:
    page = render_html(distribution(_blocks()))
    assert page.startswith("<!doctype html>") and "<svg" in page and page.count("<rect") == 6
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", page) and "<script" not in page
    assert "Per model" in page and "model-a" in page and "&lt;id&gt;" in page  # signatures escaped
