"""The classifier: on the hand-labelled fixtures, and the catalog refinements one by one."""

from __future__ import annotations

import pytest

from akgen_lsp.errors.classify import Classifier
from akgen_lsp.errors.evaluate import confusion, render_confusion
from akgen_lsp.logs.blocks import ErrorBlock, Note
from akgen_lsp.logs.mine import mine_log
from tests.errors.conftest import LOGS, hand_labels, label_blocks


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier()


def test_every_hand_labelled_fixture_block_is_classified_as_labelled(classifier: Classifier) -> None:
    labelled = []
    for name in hand_labels():
        labelled.extend(label_blocks(name, classifier.classify_all(mine_log(LOGS / name))))
    result = confusion(labelled)
    assert result["n"] == len(labelled) >= 25
    assert result["accuracy"] == 1.0, render_confusion(result) + "\n" + str(result["mistakes"])


def _block(message: str, code: str = "CXX", tool: str = "gcc", notes: tuple[str, ...] = ()) -> ErrorBlock:
    return ErrorBlock(tool=tool, message=message, code=code, notes=[Note(n) for n in notes])


@pytest.mark.parametrize(("message", "expected", "why"), [
    ("no member named 'Softmax' in namespace 'AscendC'", "hallucinated_api", "invented"),
    ("'DataCopyAsyncX' is not a member of 'AscendC'", "hallucinated_api", "no API named"),
    ("'ReduceRepeat' is not a member of 'AscendC'", "renamed_api", "only in some CANN versions"),
    ("'WholeReduceSum' was not declared in this scope", "scope", "real API used where it is not visible"),
    ("'class AscendC::TQue<AscendC::TPosition::VECIN, 2>' has no member named 'Get'", "api_mismatch", "real API"),
    ("'Sofmax' was not declared in this scope", "hallucinated_api", "close to a real API"),
    ("'tileLength' was not declared in this scope", "scope", "message rule"),
])
def test_names_the_compiler_did_not_find(classifier: Classifier, message: str, expected: str, why: str) -> None:
    c = classifier.classify(_block(message))
    assert c.error_class == expected and why in c.reason


def test_no_matching_function_on_the_element_type_is_dtype(classifier: Classifier) -> None:
    msg = "no matching function for call to 'Add(AscendC::LocalTensor<half>&, AscendC::LocalTensor<float>&)'"
    dtype = _block(msg, notes=("template argument deduction/substitution failed:",
                               "deduced conflicting types for parameter 'T' ('half' and 'float')"))
    arity = _block(msg, notes=("candidate expects 4 arguments, 2 provided",))
    assert classifier.classify(dtype).error_class == "dtype"
    assert classifier.classify(arity).error_class == "api_mismatch"


def test_codes_npu_reports_and_defaults(classifier: Classifier) -> None:
    assert classifier.classify(_block("anything", code="SIM-QUE-EMPTY", tool="sim")).reason == "code SIM-QUE-EMPTY"
    npu = ErrorBlock(tool="npu-runtime", message="507035 ...", code="NPU-507035", error_class="runtime",
                     extra={"error_str": "Illegal instruction, which is usually caused by unaligned UUB addresses"})
    assert classifier.classify(npu).error_class == "memory"
    npu.extra["error_str"] = "The DDR address of the MTE instruction is out of range"
    assert classifier.classify(npu).error_class == "runtime"
    assert classifier.classify(_block("something nobody wrote a rule for")).error_class == "api_mismatch"
    assert classifier.classify(_block("CMake Error: odd", code="CMAKE", tool="cmake")).error_class == "harness"


def test_a_buffer_placed_past_the_ub_is_the_budget_not_an_index(classifier: Classifier) -> None:
    past = ("DataCopyPad: the ub address out of bounds (dst tensor at UB offset 270336, 4096 bytes; UB has 196608 "
            "bytes)")
    inside = past.replace("270336", "196000")
    assert classifier.classify(_block(past, code="SIM-UB-OOB", tool="sim")).error_class == "memory"
    assert classifier.classify(_block(inside, code="SIM-UB-OOB", tool="sim")).error_class == "runtime"


def test_an_undeclared_name_called_on_local_tensors_is_a_hallucinated_api(classifier: Classifier, tmp_path) -> None:
    kernel = tmp_path / "k.cpp"
    kernel.write_text(
        "#include \"kernel_operator.h\"\nusing namespace AscendC;\n__aicore__ inline void F(int n) {\n"
        "    LocalTensor<half> xLocal = inQueueX.DeQue<half>();\n    LocalTensor<half> yLocal = buf.Get<half>();\n"
        "    ScaledTanhBlend(yLocal, xLocal, n);\n    int k = tileCount + 1;\n}\n", encoding="utf-8")
    api = ErrorBlock(tool="gcc", message="'ScaledTanhBlend' was not declared in this scope", code="CXX",
                     file=str(kernel), line=6)
    var = ErrorBlock(tool="gcc", message="'tileCount' was not declared in this scope", code="CXX", file=str(kernel),
                     line=7)
    c = classifier.classify(api)
    assert c.error_class == "hallucinated_api" and "LocalTensor" in c.reason
    assert classifier.classify(var).error_class == "scope"


def test_a_helper_the_file_defines_stays_scope(classifier: Classifier, tmp_path) -> None:
    kernel = tmp_path / "k.cpp"
    kernel.write_text(
        "#include \"kernel_operator.h\"\nusing namespace AscendC;\n"
        "template <typename T> __aicore__ inline void MyHelperOp(LocalTensor<T>& d, int n) {\n}\n"
        "__aicore__ inline void F(int n) {\n    LocalTensor<half> xLocal = buf.Get<half>();\n"
        "    MyHelperOp(xLocal, n);\n}\n", encoding="utf-8")
    block = ErrorBlock(tool="gcc", message="'MyHelperOp' was not declared in this scope", code="CXX",
                       file=str(kernel), line=7)
    assert classifier.classify(block).error_class == "scope"
