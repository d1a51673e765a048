"""The count forms' element loops (launcher/vec_loops.cpp, compiled at -O2) give the same bits as each op's element
expression computed one element at a time at the kernels' -Og, for every (op, dtype) of vec_ops.h's lists, over
inputs with every special value (every half and bfloat16 bit pattern, signed zeros, subnormals, infinities, NaNs,
integer extremes), including an in-place call (the destination is the first source). The one freedom: `NaN op NaN`
may carry either operand's NaN (IEEE leaves it open; -O2 may swap a commutative op's operands), still a NaN."""

from __future__ import annotations

import subprocess
from pathlib import Path

from akgen_lsp.sim.compiler import BASE_FLAGS, INCLUDE_DIR, LAUNCHER_SRC

from .conftest import needs_gxx

pytestmark = needs_gxx

PROGRAM = r"""
#include "akgen_sim/vec_ops.h"
#include <cstdio>
#include <cstring>
#include <vector>
using namespace akgen_sim;

constexpr int64_t N = 65536 * 2 + 13;  // every 16-bit pattern as a, paired with a shuffled b, and a tail

template <typename T> std::vector<T> values(uint32_t seed) {
    std::vector<T> v(N);
    uint32_t x = seed;
    for (int64_t i = 0; i < N; ++i) {
        x = x * 1664525u + 1013904223u;
        uint32_t bits = sizeof(T) == 2 ? static_cast<uint32_t>(i < 65536 ? i : x >> 16) : x;
        if (sizeof(T) == 4 && i < 64) {  // 32-bit specials: zeros, infinities, NaNs, subnormals, integer extremes
            static const uint32_t sp[] = {0u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u,
                                          1u, 0x807fffffu, 0x7fffffffu, 0x80000001u, 0xffffffffu, 0x3f800000u};
            bits = sp[i % 12];
        }
        std::memcpy(&v[i], &bits, sizeof(T));
    }
    return v;
}

// A NaN's bit pattern, for the floating types (the NaN of `NaN op NaN` is either operand's: IEEE leaves it open, and
// the optimiser may swap a commutative op's operands; every other result must be the same bits).
template <typename T> bool is_nan(uint32_t bits) {
    if constexpr (std::is_same_v<T, float>) return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu);
    else if constexpr (std::is_same_v<T, half>) return (bits & 0x7c00u) == 0x7c00u && (bits & 0x3ffu);
    else if constexpr (std::is_same_v<T, bfloat16_t>) return (bits & 0x7f80u) == 0x7f80u && (bits & 0x7fu);
    else return false;
}

int bad = 0, checked = 0, nan_pairs = 0;
template <typename T> void same(const char* op, const std::vector<T>& want, const std::vector<T>& got) {
    ++checked;
    for (int64_t i = 0; i < N; ++i) {
        uint32_t w = 0, g = 0;
        std::memcpy(&w, &want[i], sizeof(T));
        std::memcpy(&g, &got[i], sizeof(T));
        if (w == g) continue;
        if (is_nan<T>(w) && is_nan<T>(g)) {
            ++nan_pairs;
            continue;
        }
        ++bad;
        std::printf("MISMATCH %s (%zu bytes) element %lld: %x, the loop gave %x\n", op, sizeof(T),
                    static_cast<long long>(i), w, g);
        return;
    }
}

// The element expressions exactly as the API macros' lambdas compute them in a kernel (one element at a time).
template <typename T, typename F> std::vector<T> ref_binary(const std::vector<T>& a, const std::vector<T>& b, F f) {
    using C = calc_t<T>;
    std::vector<T> d(N);
    for (int64_t i = 0; i < N; ++i) d[i] = static_cast<T>(f(static_cast<C>(a[i]), static_cast<C>(b[i])));
    return d;
}
template <typename T, typename F> std::vector<T> ref_unary(const std::vector<T>& a, F f) {
    std::vector<T> d(N);
    for (int64_t i = 0; i < N; ++i) d[i] = f(a[i]);
    return d;
}

template <VecOp Op, typename T, typename F> void binary(const char* name, F f) {
    auto a = values<T>(1), b = values<T>(2);
    std::vector<T> d(N);
    binary_loop<Op, T>(d.data(), a.data(), b.data(), N);
    same(name, ref_binary(a, b, f), d);
    auto want = ref_binary(a, b, f);
    binary_loop<Op, T>(a.data(), a.data(), b.data(), N);  // in place
    same(name, want, a);
}
template <VecOp Op, typename T, typename F> void unary(const char* name, F f) {
    auto a = values<T>(3);
    std::vector<T> d(N);
    unary_loop<Op, T>(d.data(), a.data(), N);
    same(name, ref_unary(a, f), d);
}
template <VecOp Op, typename T, typename F> void scalar(const char* name, calc_t<T> s, F f) {
    auto a = values<T>(4);
    std::vector<T> d(N);
    scalar_loop<Op, T>(d.data(), a.data(), s, N);
    same(name, ref_unary(a, f), d);
}

#define EACH_1(M, ...) M(__VA_ARGS__)
#define B_ONE(NAME, EXPR, T) binary<VecOp::NAME, T>(#NAME, [](auto a, auto b) { return EXPR; });
#define U_ONE(NAME, EXPR, T) \
    unary<VecOp::NAME, T>(#NAME, [](const T& x) { using C = calc_t<T>; C a = static_cast<C>(x); return static_cast<T>(EXPR); });
#define S_ONE(NAME, EXPR, T, SV) { using C = calc_t<T>; const C s = static_cast<C>(SV); \
    scalar<VecOp::NAME, T>(#NAME, s, [s](const T& x) { C a = static_cast<C>(x); return static_cast<T>(EXPR); }); }
#define FOR_TYPES(M, NAME, EXPR, ...) FOR_TYPES_N(__VA_ARGS__, 5, 4, 3, 2, 1)(M, NAME, EXPR, __VA_ARGS__)
#define FOR_TYPES_N(_1, _2, _3, _4, _5, N, ...) FOR_TYPES_##N
#define FOR_TYPES_1(M, NAME, EXPR, T) M(NAME, EXPR, T)
#define FOR_TYPES_2(M, NAME, EXPR, T, ...) M(NAME, EXPR, T) FOR_TYPES_1(M, NAME, EXPR, __VA_ARGS__)
#define FOR_TYPES_3(M, NAME, EXPR, T, ...) M(NAME, EXPR, T) FOR_TYPES_2(M, NAME, EXPR, __VA_ARGS__)
#define FOR_TYPES_4(M, NAME, EXPR, T, ...) M(NAME, EXPR, T) FOR_TYPES_3(M, NAME, EXPR, __VA_ARGS__)
#define FOR_TYPES_5(M, NAME, EXPR, T, ...) M(NAME, EXPR, T) FOR_TYPES_4(M, NAME, EXPR, __VA_ARGS__)
#define B_ALL(NAME, COST, EXPR, ...) FOR_TYPES(B_ONE, NAME, EXPR, __VA_ARGS__)
#define U_ALL(NAME, COST, EXPR, ...) FOR_TYPES(U_ONE, NAME, EXPR, __VA_ARGS__)
#define S_ONE_A(NAME, EXPR, T) S_ONE(NAME, EXPR, T, 3) S_ONE(NAME, EXPR, T, -0.375) S_ONE(NAME, EXPR, T, 0)
#define S_ALL(NAME, COST, EXPR, ...) FOR_TYPES(S_ONE_A, NAME, EXPR, __VA_ARGS__)

int main() {
    AKGEN_BINARY_OPS(B_ALL)
    AKGEN_UNARY_OPS(U_ALL)
    AKGEN_SCALAR_OPS(S_ALL)
    std::printf("NaN pairs %d\nchecked %d bad %d\n", nan_pairs, checked, bad);
    return bad != 0;
}
"""


def test_the_optimised_loops_are_the_element_expressions_bit_for_bit(tmp_path: Path) -> None:
    src = tmp_path / "ref.cpp"
    src.write_text(PROGRAM, encoding="utf-8")
    exe = tmp_path / "ref"
    inc = ["-I", str(INCLUDE_DIR)]
    loops = tmp_path / "vec_loops.o"
    subprocess.run(["g++", *BASE_FLAGS, "-O2", *inc, "-c", str(LAUNCHER_SRC.parent / "vec_loops.cpp"), "-o",
                    str(loops)], check=True, timeout=300)
    subprocess.run(["g++", *BASE_FLAGS, *inc, str(src), str(loops), "-o", str(exe)], check=True, timeout=300)
    res = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    # 37 binary (each twice: into a new buffer and in place), 21 unary and 37 x 3 scalar checks
    assert res.stdout.strip().splitlines()[-1] == "checked 206 bad 0", res.stdout[-3000:]
    assert res.returncode == 0
