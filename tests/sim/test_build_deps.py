"""Every file a build reads is part of what a cached build must find unchanged (the compiler's -MD list), kernel side
and host side; the op_host build sees op_host's sub-folders and the manifest's include folders and leaves out an
InferShape source it does not need; a finding in a header of a sibling folder (`#include "../inc/plat.h"`) is the
kernel's own, not a sign of forged events. Our own small operator in the repositories' layout."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.host import run_host_tiling

from .conftest import KERNELS, needs_gxx

pytestmark = needs_gxx

PLAT = """#pragma once
#include "kernel_operator.h"
constexpr float PLAT_VALUE = {value};
inline void PlatFill(GM_ADDR y)
{{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::Duplicate(t, PLAT_VALUE, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)y, 16);
    AscendC::DataCopy(g, t, 12);  // 48 bytes: the NPU copies whole 32-byte blocks only (a warning here)
}}
"""

KERNEL = """#include "kernel_operator.h"
#include "../inc/plat.h"
extern "C" __global__ __aicore__ void plat_fill(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    PlatFill(y);
}
"""


def _kernel_case(tmp: Path, value: float) -> Path:
    (tmp / "op" / "op_kernel").mkdir(parents=True, exist_ok=True)
    (tmp / "op" / "inc").mkdir(exist_ok=True)
    (tmp / "op" / "op_kernel" / "plat_fill.cpp").write_text(KERNEL, encoding="utf-8")
    (tmp / "op" / "inc" / "plat.h").write_text(PLAT.format(value=f"{value:.1f}f"), encoding="utf-8")
    manifest = {"sources": ["op/op_kernel/plat_fill.cpp"], "kernel": "plat_fill", "block_dim": 1,
                "include_dirs": ["op"],
                "args": [{"name": "y", "output": "y.npy", "dtype": "float32", "shape": [16]},
                         {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}]}
    (tmp / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return tmp / "manifest.json"


def test_a_sibling_folders_header_is_the_kernels_own_and_its_edit_rebuilds(tmp_path: Path) -> None:
    res = run_manifest(_kernel_case(tmp_path, 1.0), tmp_path / "out1")
    codes = [f.code for f in res.findings]
    assert "SIM-UNTRUSTED-EVENTS" not in codes, [f.message for f in res.findings]
    assert any(f.span.path.endswith("plat.h") for f in res.findings), [(f.code, f.span.path) for f in res.findings]
    assert np.load(res.outputs["y"])[:8].tolist() == [1.0] * 8
    # the header is in a sub-folder of the include folder, not beside the source: only the compiler's list has it
    _kernel_case(tmp_path, 2.0)
    again = run_manifest(tmp_path / "manifest.json", tmp_path / "out2")
    assert again.build.get("cached") is False
    assert np.load(again.outputs["y"])[:8].tolist() == [2.0] * 8


def _host_case(tmp: Path, bias: int) -> Path:
    op = tmp / "scale_op"
    if not op.exists():
        shutil.copytree(KERNELS / "scale_op", op)
        host = op / "op_host" / "scale.cpp"
        text = host.read_text(encoding="utf-8").replace(
            '#include "scale_tiling.h"', '#include "scale_tiling.h"\n#include "scale_key_bias.h"\n'
            '#include "op_common/scale_extra.h"')
        host.write_text(text.replace("*plusOne ? 2 : 1", "(*plusOne ? 2 : 1) + SCALE_KEY_BIAS + SCALE_EXTRA"),
                        encoding="utf-8")
        (op / "op_host" / "arch22").mkdir()
        # an InferShape source whose include this build does not have: the TilingFunc needs nothing from it
        (op / "op_host" / "scale_infershape.cpp").write_text('#include "graph/not_in_the_sim.h"\n', encoding="utf-8")
        (tmp / "inc" / "op_common").mkdir(parents=True)
        (tmp / "inc" / "op_common" / "scale_extra.h").write_text("#pragma once\nconstexpr int SCALE_EXTRA = 100;\n",
                                                                 encoding="utf-8")
    (op / "op_host" / "arch22" / "scale_key_bias.h").write_text(
        f"#pragma once\nconstexpr int SCALE_KEY_BIAS = {bias};\n", encoding="utf-8")
    return op / "op_host" / "scale.cpp"


def test_the_host_build_sees_sub_folders_and_include_dirs_and_rebuilds_on_their_edit(tmp_path: Path) -> None:
    def key(bias: int) -> int:
        res = run_host_tiling(_host_case(tmp_path, bias), [("x", "float32", (8, 512))], [("y", "float32", (8, 512))],
                              {"alpha": 1.5, "plus_one": True}, load_arch("Ascend910B2"), op="Scale",
                              include_dirs=[tmp_path / "inc"])
        assert res.ok, [f.message for f in res.findings]
        return res.tiling_key

    assert key(10) == 2 + 10 + 100
    assert key(20) == 2 + 20 + 100  # an edit of a header in op_host/arch22/ is a new build, not the old one


def test_only_regular_files_inside_the_builds_folders_are_read(tmp_path: Path) -> None:
    from akgen_lsp.sim.build_cache import user_deps

    mine = tmp_path / "op" / "a.h"
    mine.parent.mkdir()
    mine.write_text("int a;\n", encoding="utf-8")
    (tmp_path / "elsewhere.h").write_text("int b;\n", encoding="utf-8")
    deps = [mine, tmp_path / "elsewhere.h", Path("/proc/1/environ"), Path("/proc/self/environ"), Path("/dev/zero")]
    found = user_deps(deps, [Path("/usr")], [tmp_path / "op"])
    assert list(found) == [str(mine.resolve())]
