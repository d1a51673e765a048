"""The diagnostic report: from a lint finding, from a real sim build's finding, and with stored repairs."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.config import defaults
from akgen_lsp.errors.report import build_report
from akgen_lsp.errors.store import RepairStore
from akgen_lsp.logs.findings import block_from_finding
from akgen_lsp.logs.signature import signature
from akgen_lsp.sim import run_manifest

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
BAD = '''#include "kernel_operator.h"
using namespace AscendC;
class KernelCopy {
public:
    __aicore__ inline void Init(GM_ADDR x) { xGm.SetGlobalBuffer((__gm__ half*)x, 256); pipe.InitBuffer(que, 1, 512); }
    __aicore__ inline void Run()
    {
        LocalTensor<half> t = que.AllocTensor<half>();
        DataCopy(t, xGm, 256, tileLen);
        que.FreeTensor(t);
    }
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> que;
    GlobalTensor<half> xGm;
};
extern "C" __global__ __aicore__ void copy_bad(GM_ADDR x) { KernelCopy op; op.Init(x); op.Run(); }
'''


def test_report_of_a_lint_finding() -> None:
    path = SAMPLES / "broken" / "akg101_unknown_api.cpp"
    text = path.read_text()
    (f,) = [f for f in lint_text(text, str(path)) if f.code == "AKG101"]
    report = build_report(f, text, str(path), defaults())
    md = report.markdown()
    assert md.startswith("## hallucinated_api: Hallucinated (non-existent) API")
    assert "### Code" in md and f"> {f.span.line} |" in md and "Softmax" in md
    assert "- `Softmax`: use `AscendC::SoftMax`" in md
    assert "### The real API" in md and "`AscendC::SoftMax` (function, pipe V)" in md
    assert "dtypes on Ascend910B2: half, float" in md
    assert "### Hardware (Ascend910B2)" in md and "UB 196608 bytes" in md
    data = report.to_json()
    assert data["error_class"] == "hallucinated_api" and data["context"]["function"].endswith("Compute")
    assert data["unknown_names"][0]["replacement"] == "AscendC::SoftMax"
    assert json.loads(json.dumps(data)) == data  # plain JSON


def test_report_is_fast_enough_for_a_code_action() -> None:
    path = SAMPLES / "broken" / "akg101_unknown_api.cpp"
    text = path.read_text()
    (f,) = [f for f in lint_text(text, str(path)) if f.code == "AKG101"]
    build_report(f, text, str(path))
    t0 = time.perf_counter()
    for _ in range(5):
        build_report(f, text, str(path))
    assert (time.perf_counter() - t0) / 5 < 0.5  # generous bound for 2 shared cores; the benchmark has the figure


def test_report_of_a_real_sim_build_error_with_members_and_a_stored_repair(tmp_path: Path,
                                                                          isolated_cache: Path) -> None:
    src = tmp_path / "copy_bad.cpp"
    src.write_text(BAD)
    np.save(tmp_path / "x.npy", np.zeros(256, dtype=np.float16))
    (tmp_path / "m.json").write_text(json.dumps({"sources": [str(src)], "kernel": "copy_bad", "block_dim": 1,
                                                 "arch": "Ascend910B2", "args": [{"name": "x", "input": "x.npy"}]}))
    res = run_manifest(tmp_path / "m.json", confine=False)
    assert res.status == "compile_error"
    f = next(f for f in res.findings if "tileLen" in f.message)
    assert f"{src}: In member function" in f.data["raw"]  # the sim keeps the compiler's own lines
    block = block_from_finding(f)
    assert block.line == 9 and block.error_class == "scope"
    assert block.context == [f"{src}: In member function 'void KernelCopy::Run()'"]  # no glue include frames
    store = RepairStore()
    store.add(signature(f.message), "DataCopy(t, xGm, 256, tileLen);\n", "DataCopy(t, xGm, 256);\n",
              error_class="scope", message=f.message, task="copy", provenance="editor")
    report = build_report(f, BAD, str(src), defaults())
    assert [m.name for m in report.context.members] == ["xGm"]
    assert report.context.function == "KernelCopy::Run" and report.context.class_name == "KernelCopy"
    md = report.markdown()
    assert "Members of `KernelCopy` on this line: `xGm` (`GlobalTensor<half>`, line 15)." in md
    assert "### Similar errors already fixed" in md and "+DataCopy(t, xGm, 256);" in md
    assert any(a.name == "AscendC::DataCopy" for a in report.apis)


def test_report_without_a_source_still_says_what_it_knows() -> None:
    from akgen_lsp.logs.blocks import ErrorBlock

    b = ErrorBlock(tool="bisheng", message="no member named 'Sofmax' in namespace 'AscendC'", file="gone.cpp",
                   line=3, code="CXX")
    report = build_report(b, "", "gone.cpp")
    assert report.error_class == "hallucinated_api" and report.unknown[0].suggestions[0] == "SoftMax"
    assert "### Code" not in report.markdown()
