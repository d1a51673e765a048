"""The hostile suite, compile time: the compiler runs on untrusted source in its box (a read-only view of the
toolchain, our headers and the kernel's own folders; memory, CPU and wall-clock limits; the whole process tree
killed at the limit). Includes and assembler directives that read files outside, devices that never end, bombs
that grow the compiler."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

import pytest

from .conftest import needs_gxx
from .hostile import Layout, box_processes, hostile, message_of

pytestmark = [needs_gxx, hostile]


def compile_error(layout: Layout, before: str, **extra: object) -> tuple[object, str]:
    res = layout.run(before=before, **extra)
    assert res.status == "compile_error", [(f.code, f.message) for f in res.findings]
    return res, " ".join(f.message for f in res.findings)


def test_include_of_an_absolute_secret_is_not_found(layout: Layout) -> None:
    res, text = compile_error(layout, '#include "SECRET"')
    assert not layout.leaked(res) and "No such file or directory" in text


def test_include_going_up_out_of_the_kernels_folder_is_not_found(layout: Layout) -> None:
    res, text = compile_error(layout, '#include "../secret.txt"')
    assert not layout.leaked(res) and "No such file or directory" in text


def test_angle_include_traversal_is_not_found(layout: Layout) -> None:
    _, text = compile_error(layout, "#include <../../../../../../etc/shadow>")
    assert "No such file or directory" in text


def test_etc_passwd_is_not_in_the_compilers_view(layout: Layout) -> None:
    _, text = compile_error(layout, '#include "/etc/passwd"')
    assert "root:" not in text and "No such file or directory" in text


def test_has_include_cannot_probe_for_files(layout: Layout) -> None:
    res = layout.run(before=f"""
#if __has_include("{layout.secret}") || __has_include("/root/.bashrc") || __has_include("/etc/hostname")
#error PROBE-FOUND
#endif""")
    assert res.status == "ok", [f.message for f in res.findings]


def test_include_of_stdin_neither_reads_the_tools_stdin_nor_hangs(layout: Layout) -> None:
    t0 = time.perf_counter()
    _, text = compile_error(layout, '#include "/dev/stdin"')
    assert time.perf_counter() - t0 < 60 and "No such file or directory" in text


def test_include_of_dev_zero_does_not_grow_the_compiler(layout: Layout) -> None:
    t0 = time.perf_counter()
    _, text = compile_error(layout, '#include "/dev/zero"')
    assert time.perf_counter() - t0 < 60 and "No such file or directory" in text


def test_assembler_incbin_cannot_read_a_secret(layout: Layout) -> None:
    res, text = compile_error(layout, f'asm(".section .rodata\\n.incbin \\"{layout.secret}\\"\\n.previous");')
    assert not layout.leaked(res) and "file not found" in text.lower()


def test_symlink_in_the_kernels_folder_to_a_secret_is_not_followed(layout: Layout) -> None:
    (layout.kernel / "config.h").symlink_to(layout.secret)
    res, text = compile_error(layout, '#include "config.h"')
    assert not layout.leaked(res) and "No such file or directory" in text


def test_compiler_cannot_read_the_callers_environment(layout: Layout) -> None:
    res = layout.run(before='#include "/proc/self/environ"\n#include "/proc/1/environ"')
    assert not layout.leaked(res)  # the box's environment is its own (and procfs reads as empty to cpp)
    assert "AKGEN_HOSTILE_SECRET" not in json.dumps(res.to_json())


def test_preprocessor_bomb_is_stopped_with_every_compiler_process(layout: Layout,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    builds = layout.root / "builds"  # the compile's folder, which g++ and cc1plus name on their command lines
    builds.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(builds))
    bomb = "#define B0 x x x x x x x x\n" + "".join(f"#define B{i} B{i - 1} B{i - 1} B{i - 1} B{i - 1}\n"
                                                    for i in range(1, 24))
    src = layout.source(before=bomb + "int bomb[] = { B23 };")
    from akgen_lsp.sim.build import compile_kernel
    from akgen_lsp.sim.build_types import BuildOptions

    t0 = time.perf_counter()
    build = compile_kernel([src], BuildOptions("hostile", [], timeout_s=8, use_cache=False))
    took = time.perf_counter() - t0
    assert not build.ok and took < 40
    assert "took more than 8 s" in build.log or "ran out of its limits" in build.log
    assert box_processes(str(builds)) == []  # cc1plus did not outlive the compile


def test_template_bomb_is_a_clear_compile_error(layout: Layout) -> None:
    _, text = compile_error(layout, """
template <int N> struct Bomb { static constexpr int v = Bomb<N - 1>::v + Bomb<N - 2>::v; };
template <> struct Bomb<0> { static constexpr int v = 1; };
static_assert(Bomb<100000>::v > 0);""")
    assert "template instantiation depth" in text or "limits" in text


def test_compile_error_messages_name_the_users_line_not_the_secret(layout: Layout) -> None:
    src = layout.source(before=f'#include "{layout.secret}"')
    res = layout.run(before=f'#include "{layout.secret}"')
    f = next(f for f in res.findings if f.code == "CXX")
    assert Path(f.span.path) == src and f.span.line == src.read_text().splitlines().index(
        f'#include "{layout.secret}"') + 1
    assert message_of(res, "CXX") and not layout.leaked(res)
