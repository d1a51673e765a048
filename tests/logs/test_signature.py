from __future__ import annotations

import pytest

from akgen_lsp.logs.signature import signature


def test_the_issue_example_shares_one_signature() -> None:
    a = signature("no member named 'Softmax' in namespace 'AscendC'")
    b = signature("no member named 'SyncFunc' in namespace 'AscendC'")
    assert a == b == "no member named '<id>' in namespace 'AscendC'"


@pytest.mark.parametrize(("message", "expected"), [
    ("\u2018Softmax\u2019 is not a member of \u2018AscendC\u2019; did you mean \u2018SoftMax\u2019?",
     "'<id>' is not a member of 'AscendC'"),
    ("no matching function for call to 'Exp(AscendC::LocalTensor<long int>&, AscendC::LocalTensor<long int>&)'",
     "no matching function for call to '<id>(...)'"),
    ("DataCopy of 100 elements x 2 B = 200 B is not a multiple of 32 B: the hardware copies 192 B",
     "DataCopy of <n> elements x <n> B = <n> B is not a multiple of <n> B: the hardware copies <n> B"),
    ("cannot convert 'AscendC::LocalTensor<half>' to 'const AscendC::LocalTensor<float>&'",
     "cannot convert 'AscendC::LocalTensor<T>' to 'const AscendC::LocalTensor<T>&'"),
    ("'class AscendC::TQue<AscendC::TPosition::VECIN, 2>' has no member named 'Dequeue'",
     "'class AscendC::TQue<T>' has no member named '<id>'"),
    ("/tmp/x/op_kernel/add.cpp:41 failed (reported in kernel_operator.h:3)", "<path>:<n> failed"),
    ("unused variable 'x' [-Wunused-variable]", "unused variable '<id>'"),
])
def test_identifiers_numbers_types_and_paths_are_abstracted(message: str, expected: str) -> None:
    assert signature(message) == expected


def test_different_errors_keep_different_signatures() -> None:
    assert signature("'x' was not declared in this scope") != signature("no member named 'x' in 'AscendC::TQue'")
    assert signature("expected ';' before '}' token") != signature("expected ')' before ';' token")
