"""The kernel's other files: a queue hierarchy across headers, a project's own names in namespace AscendC."""

from __future__ import annotations

import os
from pathlib import Path

from akgen_lsp.ascendc.includes import project_index
from akgen_lsp.ascendc.lint import lint_text

BASE = """#include "kernel_operator.h"
using namespace AscendC;
template <typename T>
class GradBase {
protected:
    __aicore__ inline void CopyOut() {
        LocalTensor<T> out = this->outQueXGrad.template DeQue<T>();
        DataCopy(outGm, out, 256);
        this->outQueXGrad.FreeTensor(out);
    }
    TQue<TPosition::VECOUT, 1> outQueXGrad;
    GlobalTensor<T> outGm;
};
"""
DERIVED = """#include "grad_base.h"
template <typename T>
class GradFast : public GradBase<T> {
    __aicore__ inline void Compute() {
        LocalTensor<T> out = this->outQueXGrad.template AllocTensor<T>();
        this->outQueXGrad.template EnQue<T>(out);
    }
};
"""


def test_a_deque_in_a_base_class_enqueued_by_a_derived_class_in_another_header(tmp_path: Path) -> None:
    kernel = tmp_path / "op_kernel"
    kernel.mkdir()
    (kernel / "grad_base.h").write_text(BASE, encoding="utf-8")
    alone = lint_text(BASE, "<memory>")
    assert any(f.code == "AKG120" and "nothing ever calls outQueXGrad.EnQue" in f.message for f in alone)
    (kernel / "grad_fast.h").write_text(DERIVED, encoding="utf-8")
    os.utime(kernel, None)
    index = project_index(kernel / "grad_base.h")
    assert index is not None
    index.listed_at = 0.0  # list the tree again now (the index relists every few seconds)
    assert "outQueXGrad" in index.enqueued(kernel / "grad_base.h")
    assert [f for f in lint_text(BASE, str(kernel / "grad_base.h")) if f.code == "AKG120"] == []


def test_a_kernel_beside_it_in_the_same_folder_is_another_kernel(tmp_path: Path) -> None:
    """A folder of independent kernels (samples/broken, a benchmark's answers): a queue of the same name EnQue'd in
    a file that neither includes this one nor is included with it does not hide this file's missing EnQue."""
    (tmp_path / "grad_base.h").write_text(BASE, encoding="utf-8")
    (tmp_path / "other_kernel.cpp").write_text(DERIVED.replace('#include "grad_base.h"', '#include "kernel_operator.h"'),
                                               encoding="utf-8")
    index = project_index(tmp_path / "grad_base.h")
    assert index is not None and index.enqueued(tmp_path / "grad_base.h") == frozenset()
    found = [f for f in lint_text(BASE, str(tmp_path / "grad_base.h")) if f.code == "AKG120"]
    assert any("nothing ever calls outQueXGrad.EnQue" in f.message for f in found)


def test_names_the_project_declares_in_namespace_ascendc_are_its_own(tmp_path: Path) -> None:
    kernel = tmp_path / "op_kernel"
    (tmp_path / "common" / "utils").mkdir(parents=True)
    kernel.mkdir()
    (tmp_path / "common" / "utils" / "constant.h").write_text(
        "namespace AscendC {\nnamespace Std {\ntemplate <typename... T>\nconstexpr bool project_false_v = false;\n}\n"
        "class ProjectCopy {\npublic:\n    __aicore__ inline void Run() {}\n};\n}\n", encoding="utf-8")
    text = ('#include "kernel_operator.h"\n#include "utils/constant.h"\n'
            "template <int N> __aicore__ inline void F() {\n"
            "    static_assert(AscendC::Std::project_false_v<decltype(N)>, \"no\");\n"
            "    AscendC::ProjectCopy op;\n}\n")
    (kernel / "k.cpp").write_text(text, encoding="utf-8")
    assert [f.code for f in lint_text(text, "<memory>") if f.code == "AKG101"]  # without the project: unknown
    assert [f for f in lint_text(text, str(kernel / "k.cpp")) if f.code == "AKG101"] == []
