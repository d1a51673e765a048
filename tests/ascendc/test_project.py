"""What a kernel's project says: its CANN version, its kind and the arch of a file; and the lint that follows it."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.ascendc.lint import lint_text, target_arch, target_cann
from akgen_lsp.ascendc.project import clear_cache, file_arch, project_facts
from akgen_lsp.config import defaults


def _ops_repo(tmp_path: Path) -> Path:
    tmp_path = tmp_path / "repo"
    tmp_path.mkdir()
    (tmp_path / "version.cmake").write_text('set_cann_package(ops_demo VERSION "9.1.0")\n', encoding="utf-8")
    op = tmp_path / "math" / "demo"  # the repository's layout: <category>/<op>/op_kernel
    (op / "op_host").mkdir(parents=True)
    (op / "op_kernel" / "arch35").mkdir(parents=True)
    clear_cache()
    return op


def test_the_version_comes_from_the_ops_repositories_convention(tmp_path: Path) -> None:
    op = _ops_repo(tmp_path)
    facts = project_facts(op / "op_kernel" / "demo.cpp")
    assert (facts.cann_version, facts.kind) == ("9.1.0", "ops-repo")
    assert "set_cann_package" in facts.version_source
    assert target_cann(defaults(), facts) == ("9.1.0", facts.version_source)
    pinned = defaults().with_overrides({"cann.version": "8.5"}, "akgen.toml")
    assert target_cann(pinned, facts)[0] == "8.5"  # a setting the user wrote wins


def test_version_info_requirements_and_custom_op_layout(tmp_path: Path) -> None:
    a = tmp_path / "a"
    (a / "op_host").mkdir(parents=True)
    (a / "op_kernel").mkdir()
    (a / "version.info").write_text("Version=8.5.0\n", encoding="utf-8")
    b = tmp_path / "b"
    b.mkdir()
    (b / "requirements.txt").write_text("numpy\ncann==9.0.1\n", encoding="utf-8")
    clear_cache()
    fa = project_facts(a / "op_kernel" / "k.cpp")
    assert (fa.cann_version, fa.kind) == ("8.5.0", "custom-op")
    assert project_facts(b / "k.asc").cann_version == "9.0.1" and project_facts(b / "k.asc").kind == "direct"
    assert project_facts("<memory>").cann_version is None


def test_the_arch_is_read_from_arch35_includes_310p_names_and_cmake(tmp_path: Path) -> None:
    assert file_arch("/x/op_kernel/arch35/k.h", "")[0] == "Ascend950PR"
    assert file_arch("/x/op_kernel/k_apt.cpp", '#include "arch35/k_impl.h"\n')[0] == "Ascend950PR"
    assert file_arch("/x/op_kernel/k_310p.h", "")[0] == "Ascend310P"
    assert file_arch("/x/op_kernel/k.cpp", '#include "kernel_operator.h"\n') is None
    (tmp_path / "CMakeLists.txt").write_text('set(CMAKE_ASC_ARCHITECTURES "dav-3510" CACHE STRING "")\n',
                                             encoding="utf-8")
    clear_cache()
    arch, why = target_arch(defaults(), str(tmp_path / "k.asc"), "")
    assert arch == "Ascend950PR" and "CMakeLists.txt" in why
    assert target_arch(defaults().with_overrides({"arch": "Ascend910B1"}, "test"), str(tmp_path / "k.asc"), "")[0] \
        == "Ascend910B1"


def test_an_ops_repo_entry_without_extern_c_and_a_9_1_api_are_fine_there(tmp_path: Path) -> None:
    op = _ops_repo(tmp_path)
    kernel = op / "op_kernel" / "demo.cpp"
    text = ('#include "kernel_operator.h"\nusing namespace AscendC;\n'
            "__global__ __aicore__ void demo(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)\n{\n"
            "    GET_TILING_DATA(t, tiling);\n}\n")
    kernel.write_text(text, encoding="utf-8")
    assert [f.code for f in lint_text(text, str(kernel))] == []
    loose = tmp_path / "elsewhere" / "op_kernel"
    (loose.parent / "op_host").mkdir(parents=True)
    loose.mkdir()
    (loose / "demo.cpp").write_text(text, encoding="utf-8")
    clear_cache()
    (f,) = lint_text(text, str(loose / "demo.cpp"))
    assert f.code == "AKG110" and 'extern "C"' in f.message and "custom-op project" in f.message
