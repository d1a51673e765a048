from __future__ import annotations

import numpy as np

from akgen_lsp.bench.compare import Tolerance, as_float, compare_outputs, comparison_finding


def test_passes_when_abs_or_rel_is_within() -> None:
    ref = np.array([1000.0, 0.0, 1.0])
    # 1000 + 0.5: abs 0.5 > 1e-3 but rel 5e-4 <= 1e-3 -> ok; 0 + 5e-4: abs ok
    out = np.array([1000.5, 5e-4, 1.0])
    assert compare_outputs([ref], [out]).ok


def test_fails_only_when_both_exceed() -> None:
    ref = np.array([1.0, 2.0, 3.0, 4.0])
    out = np.array([1.0, 2.0, 3.01, 4.0])
    cmp = compare_outputs([ref], [out], names=["y"])
    assert not cmp.ok
    assert cmp.first_bad == 2 and cmp.first_bad_index == (2,)
    assert cmp.max_abs == np.float64(0.01).item() or abs(cmp.max_abs - 0.01) < 1e-12
    assert abs(cmp.max_rel - 0.01 / 3) < 1e-6


def test_non_finite_fails_even_if_equal() -> None:
    ref = np.array([1.0, np.inf])
    out = np.array([1.0, np.inf])
    cmp = compare_outputs([ref], [out])
    assert not cmp.ok and cmp.reason == "non-finite value" and cmp.first_bad == 1
    cmp2 = compare_outputs([np.array([1.0])], [np.array([np.nan])])
    assert not cmp2.ok


def test_custom_tolerances() -> None:
    ref = np.array([100.0, 1.0])
    out = np.array([100.15, 1.0])
    assert not compare_outputs([ref], [out]).ok  # default: abs .15 > 1e-3 and rel 1.5e-3 > 1e-3
    assert compare_outputs([ref], [out], Tolerance(rtol=1 / 512, mode="scaled")).ok
    assert not compare_outputs([ref], [out], Tolerance(rtol=1 / 2048, mode="scaled")).ok
    assert compare_outputs([ref], [out], Tolerance(atol=0.2, rtol=0.0)).ok
    assert not compare_outputs([np.array([3])], [np.array([4])], Tolerance(mode="exact")).ok
    # a custom check decides, statistics still reported
    cmp = compare_outputs([ref], [out], custom=lambda: True)
    assert cmp.ok and cmp.max_abs > 0.14


def test_shape_mismatch_and_count_mismatch() -> None:
    assert not compare_outputs([np.zeros(4)], [np.zeros(3)]).ok
    assert not compare_outputs([np.zeros(4)], []).ok


def test_nd_index_and_finding() -> None:
    ref = np.zeros((2, 3, 4))
    out = ref.copy()
    out[1, 2, 3] = 7.0
    out[1, 0, 0] = 0.5
    cmp = compare_outputs([ref], [out], names=["z"])
    assert cmp.first_bad_index == (1, 0, 0) and cmp.first_bad == 12 and cmp.bad_count == 2
    f = comparison_finding(cmp, "k.cpp", "case 3")
    assert f.source == "akgen-run" and f.error_class == "precision"
    assert "max abs error 7" in f.message and "z[1, 0, 0]" in f.message and "flat 12" in f.message


def test_bfloat16_bits_are_widened() -> None:
    bits = np.array([0x3F80, 0x4000], dtype=np.uint16)  # 1.0, 2.0
    assert as_float(bits, "bfloat16").tolist() == [1.0, 2.0]


def test_matmul_tolerance_follows_npukernelbench_gmm() -> None:
    from akgen_lsp.bench.npref import matmul_tolerance, tolerance

    assert matmul_tolerance("float16", 256).rtol == 1 / 256 and matmul_tolerance("half", 4096).rtol == 1 / 128
    assert matmul_tolerance("bfloat16", 2047).rtol == 1 / 128 and matmul_tolerance("bf16", 2048).rtol == 1 / 64
    assert matmul_tolerance("float32", 64).rtol == 1 / 2048 and matmul_tolerance("float", 8192).rtol == 1 / 512
    # one bfloat16 ulp at 1.13 (a rounding flip from another accumulation order): the element-wise rule fails it,
    # the matmul rule accepts it, and two ulps still fail
    ref, out = np.array([1.1328125]), np.array([1.140625])
    assert not compare_outputs([ref], [out], tolerance("bfloat16")).ok
    assert compare_outputs([ref], [out], matmul_tolerance("bfloat16", 256)).ok
    assert not compare_outputs([ref], [np.array([1.1484375])], matmul_tolerance("bfloat16", 256)).ok


def test_complex_outputs_compare_real_and_imaginary_parts() -> None:
    ref = np.array([[1 + 1j, 2 - 2j], [3 + 0.5j, -4j]], dtype=np.complex64)
    assert compare_outputs([ref], [ref.copy()]).ok
    out = ref.copy()
    out[1, 0] = 3 + 0.9j  # the imaginary part is off; the magnitude alone would hide a swapped sign too
    cmp = compare_outputs([ref], [out], names=["y"])
    assert not cmp.ok and cmp.first_bad == 2 and cmp.first_bad_index == (1, 0) and cmp.part == "imag"
    assert cmp.expected == 0.5 and abs(cmp.actual - 0.9) < 1e-6 and cmp.bad_count == 1
    msg = comparison_finding(cmp, "k.cpp", "case 0").message
    assert "y[1, 0] (flat 2) (imag part)" in msg
    conj = np.conj(ref)  # same magnitudes, wrong signs
    bad = compare_outputs([ref], [conj])
    assert not bad.ok and bad.part == "imag" and bad.first_bad == 0


def test_identical_outputs_still_fail_on_non_finite_values() -> None:
    bits = np.array([0x3F80, 0x7F80, 0x4000], np.uint16)  # bfloat16 1.0, +inf, 2.0
    cmp = compare_outputs([bits], [bits.copy()], dtypes=["bfloat16"])
    assert not cmp.ok and cmp.first_bad == 1 and cmp.reason == "non-finite value"
    nan = np.array([1.0, np.nan], np.float16)
    assert not compare_outputs([nan], [nan.copy()]).ok
    ok = np.arange(10, dtype=np.float16)
    assert compare_outputs([ok], [ok.copy()]).ok and compare_outputs([ok], [ok.copy()]).max_abs == 0.0


class _Custom:
    def __init__(self, ok: bool) -> None:
        self.ok, self.last_stats, self.calls = ok, None, 0

    def __call__(self) -> bool:
        self.calls += 1
        self.last_stats = (0.25, 0.5)
        return self.ok


def test_a_passing_custom_check_supplies_the_statistics() -> None:
    ref = np.array([1.0, 2.0, 3.0])
    out = np.array([1.0, 2.25, 3.0])
    passed = compare_outputs([ref], [out], custom=_Custom(True))
    assert passed.ok and passed.max_abs == 0.25 and passed.max_rel == 0.5 and passed.first_bad is None
    failed = compare_outputs([ref], [out], custom=_Custom(False))  # a failure still names the first bad element
    assert not failed.ok and failed.first_bad == 1 and failed.max_abs == 0.25
    lenient = compare_outputs([ref], [out], custom=lambda: True)  # no stats from the check: computed here
    assert lenient.ok and lenient.max_abs == 0.25


def test_the_finite_test_on_16_bit_floats_agrees_with_isfinite_on_every_pattern() -> None:
    from akgen_lsp.bench.compare import _all_finite_raw, _same_bits

    bits = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    half = bits.view(np.float16)
    as_f32 = (bits.astype(np.uint32) << 16).view(np.float32)  # bfloat16 widened
    for i in range(0, 1 << 16, 997):  # every pattern, alone and among finite values
        chunk = np.concatenate([np.zeros(5, np.uint16), bits[i:i + 997]])
        assert _all_finite_raw(chunk.view(np.float16), "float16") == bool(np.isfinite(chunk.view(np.float16)).all())
        widened = (chunk.astype(np.uint32) << 16).view(np.float32)
        assert _all_finite_raw(chunk, "bfloat16") == bool(np.isfinite(widened).all())
    assert not _all_finite_raw(half, "float16") and not _all_finite_raw(bits, "bfloat16")
    assert np.isfinite(as_f32).sum() == 65536 - 2 * 128  # all but the patterns with the exponent all ones
    assert _all_finite_raw(np.zeros(0, np.float16), "float16")
    # the same bits, not the same values: -0 and +0 differ, a NaN equals itself
    assert not _same_bits(np.array([0.0], np.float16), np.array([-0.0], np.float16))
    assert _same_bits(np.array([np.nan], np.float16), np.array([np.nan], np.float16))
