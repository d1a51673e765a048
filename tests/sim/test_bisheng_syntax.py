"""bisheng-only syntax in the sim build (akgen_lsp/sim/build.py): `[aicore]` attribute lists blanked and in-class
explicit specializations of member function templates turned into constrained overloads, in a shadow copy that keeps
the user's lines (diagnostics and runtime findings name the user's file and line); the core-type pass (g_coreType)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.cxx_text import code_only
from akgen_lsp.sim.shadow import bisheng_shadow_text
from akgen_lsp.sim.split import infer_core_type

from .conftest import KERNELS, marker_line, needs_gxx

BISHENG = KERNELS / "bisheng"


def test_code_only_blanks_comments_and_literals_and_keeps_layout() -> None:
    text = 'a = "[aicore]"; // [aicore]\n/* [host]\n */ b = \'[\'; c = R"x([aicore])x"; d = 1\'000;\n'
    code = code_only(text)
    assert len(code) == len(text)
    assert [i for i, ch in enumerate(text) if ch == "\n"] == [i for i, ch in enumerate(code) if ch == "\n"]
    assert "aicore" not in code and "host" not in code
    assert code.startswith("a = ") and "d = 1'000;" in code


def test_attribute_lists_become_blanks_of_the_same_length() -> None:
    text = ("__forceinline__ [aicore]\nvoid f();\n[host, aicore] inline int g();\ntemplate <class T> [aicore] void h();\n"
            "struct S { static constexpr [aicore] int k() { return 1; } };\n")
    out = bisheng_shadow_text(text)
    assert out is not None
    assert "[" not in out
    assert [len(line) for line in out.splitlines()] == [len(line) for line in text.splitlines()]
    assert out.splitlines()[1] == "void f();"


def test_subscripts_comments_and_strings_are_left_alone() -> None:
    text = 'int v = table[host]; int w = arr[aicore];\n// __forceinline__ [aicore]\nconst char* s = " [aicore] ";\n'
    assert bisheng_shadow_text(text) is None


def test_in_class_explicit_specialization_becomes_a_constrained_overload() -> None:
    text = ("struct K {\n    template <int32_t C = 2>\n    void run(int x);\n    template <>\n"
            "    void run<1>(int x) {}\n    template <>\n    void run<2>(int x) {}\n};\n"
            "template <>\nvoid Other::f<3>(int) {}\n")
    out = bisheng_shadow_text(text)
    assert out is not None
    lines = out.splitlines()
    assert len(lines) == len(text.splitlines())
    assert lines[3].strip() == "template <int32_t C = 2> requires ((C == (1)))"
    assert lines[4].strip().startswith("void run   (int x)")
    assert lines[5].strip() == "template <int32_t C = 2> requires ((C == (2)))"
    assert lines[8] == "template <>"  # namespace scope: g++ accepts it as written


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
def test_rewritten_specializations_pick_the_same_function_as_bisheng(tmp_path: Path) -> None:
    src = ("#include <cstdio>\n#include <type_traits>\nconstexpr int core = 2;\n"
           "template <class T> struct K {\n"
           "    template <int C = core> int run(int x);\n"
           "    template <> int run<1>(int x) { return x + 100; }\n"
           "    template <> int run<2>(int x) { return x + 200; }\n"
           "    template <class U, int N> int pick();\n"
           "    template <> int pick<float, 3>() { return 7; }\n"
           "    template <class U> struct H { using type = int; };\n"
           "    template <> struct H<void> { using type = char; };\n"
           "};\n"
           "int main() { K<int> k; std::printf(\"%d %d %d %d %d\\n\", k.run(1), k.template run<1>(1),\n"
           "    k.template pick<float, 3>(), int(sizeof(K<int>::H<void>::type)), int(sizeof(K<int>::H<long>::type))); }\n")
    out = bisheng_shadow_text(src)
    assert out is not None
    (tmp_path / "t.cpp").write_text(out, encoding="utf-8")
    subprocess.run(["g++", "-std=c++20", "t.cpp", "-o", "t"], cwd=tmp_path, check=True, capture_output=True)
    assert subprocess.run([str(tmp_path / "t")], capture_output=True, text=True).stdout.split() == ["201", "101", "7", "1", "4"]


def test_defaulted_only_constructor_is_dropped_so_the_class_stays_an_aggregate(tmp_path: Path) -> None:
    src = ("#define DEV __forceinline__ [aicore]\n#define __forceinline__ inline\n"
           "struct W {\n    DEV\n    W() = default;\n    int *p{nullptr};\n    unsigned s;\n};\n"
           "struct V {\n    V() = default;\n    V(int x) : s(x) {}\n    int s = 0;\n};\n"
           "struct E {\n    explicit constexpr E() = default;\n    int a, b;\n};\n"
           "int main() { int x = 3; W w; w = {&x, 2u}; V v; E e = {1, 1}; return *w.p + int(w.s) + v.s + e.a + e.b - 7; }\n")
    out = bisheng_shadow_text(src)
    assert out is not None
    lines = out.splitlines()
    assert lines[3].strip() == "" and lines[4].strip() == ""  # W's attribute macro and defaulted constructor
    assert lines[9].strip() == "V() = default;"  # V has another constructor: kept
    if shutil.which("g++") is not None:
        (tmp_path / "t.cpp").write_text(out, encoding="utf-8")
        subprocess.run(["g++", "-std=c++20", "t.cpp", "-o", "t"], cwd=tmp_path, check=True, capture_output=True)
        assert subprocess.run([str(tmp_path / "t")]).returncode == 0


def test_core_type_pass_follows_the_cube_instructions() -> None:
    assert infer_core_type(["AscendC::Mmad(c, a, b, p);"]) == "aic"
    assert infer_core_type(["AscendC::Fixpipe<half, float, AscendC::CFG_ROW_MAJOR>(dst, src, p);"]) == "aic"
    assert infer_core_type(["// Mmad(c, a, b, p) in a comment", "AscendC::Add(z, x, y, n);"]) == "aiv"


@needs_gxx
def test_bisheng_kernel_with_a_shadowed_header_runs(write_manifest, tmp_path: Path) -> None:
    n = 256
    x = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    m = write_manifest(BISHENG / "bisheng_kernel.cpp", "bisheng_kernel", [
        {"name": "x", "input": x},
        {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [n]},
        {"name": "n", "scalar": n, "type": "uint32_t"},
    ])
    res = run_manifest(m, tmp_path / "out", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["y"]), x * 2)


@needs_gxx
def test_compile_errors_name_the_users_file_and_line(write_manifest, tmp_path: Path) -> None:
    src = BISHENG / "bisheng_error.cpp"
    m = write_manifest(src, "bisheng_error", [{"name": "x", "input": np.zeros(8, np.float32)}])
    res = run_manifest(m, tmp_path / "out", confine=False)
    assert res.status == "compile_error"
    errs = [f for f in res.findings if f.code == "CXX"]
    assert errs and all(Path(f.span.path).name == "bisheng_error.cpp" for f in errs), [f.span for f in errs]
    assert (errs[0].span.line, errs[0].span.column) == (marker_line(src, "CXX"), 5)
    assert Path(errs[0].span.path) == src.resolve()
    assert "undeclared_name" in errs[0].message
