"""The bundled suite itself: layout, cases, and the numpy references agreeing with the PyTorch ones."""

from __future__ import annotations

import numpy as np
import pytest

from akgen_lsp.bench.compare import as_float, compare_outputs
from akgen_lsp.bench.reference import case_seed, load_case, task_python, torch_available
from akgen_lsp.bench.tasks import discover_tasks


def test_layout_and_coverage(suite) -> None:
    tasks = discover_tasks(suite)
    assert len(tasks) >= 24
    cats = {(t.level_number, t.category) for t in tasks}
    for need in [(1, "Math"), (1, "Comparison"), (1, "Condition"), (1, "TensorCreation"), (2, "Activation"),
                 (2, "Norm"), (2, "Reduce"), (2, "Loss"), (2, "Foreach"), (3, "Matmul")]:
        assert need in cats
    for t in tasks:
        assert t.api_desc.is_file() and t.question_kernel.is_file() and t.question_host.is_file(), t.id
        a = t.answers[0]
        assert a.kernel and a.host and a.tiling_header, t.id
        cases = t.cases()
        assert len(cases) >= 4 and len({c["dtype"] for c in cases}) >= 2, t.id
        assert (t.validation / "reference_np.py").is_file(), t.id


@pytest.mark.skipif(not torch_available(), reason="torch is not installed")
def test_numpy_and_torch_references_agree(suite) -> None:
    import torch

    checked = 0
    for t in discover_tasks(suite):
        tp = task_python(t)
        if not (t.validation / "module.py").is_file():
            continue
        from akgen_lsp.bench.reference import _load

        module = _load(t.validation / "module.py", f"check_{t.op}")
        for case in t.cases()[:: 4]:  # one shape per dtype
            data = load_case(t, case)
            np.random.seed(case_seed(t.id, case.case_id))
            raw = tp.prepare.get_inputs(case)
            init = tp.prepare.get_init_inputs(case)
            tins = []
            for x in raw:
                arr = np.asarray(x)
                if arr.dtype == np.uint16:
                    tins.append(torch.from_numpy(arr.view(np.int16).copy()).view(torch.bfloat16))
                else:
                    tins.append(torch.from_numpy(arr.copy()))
            out = module.Model(*init)(*tins)
            outs = list(out) if isinstance(out, tuple) else [out]
            got = [as_float(o.float().numpy() if o.dtype == torch.bfloat16 else o.numpy()) for o in outs]
            ref = [as_float(o.array, o.dtype) for o in data.outputs]
            cmp = compare_outputs(ref, got, data.tolerance)
            assert cmp.ok, (t.id, case, cmp)
            checked += 1
    assert checked >= 40
