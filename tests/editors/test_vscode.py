"""VS Code for real: code-server 4.100.0 (VS Code 1.100) with the packaged .vsix and default settings, driven as a
person drives it (keys, the DOM, screenshots) by tests/editors/vscode_e2e.mjs with playwright-core on Debian's
chromium, on loopback.

The workspace is a copy of samples/; the server is this checkout's environment's `akgen`, named in the user settings
(`akgen.server.command`, a user-level place: the extension never runs a program inside the opened folder or above
it); test_vscode_first_hour.py covers default settings, the extension installing the server it carries. One editor session runs every step:
diagnostic in the Problems panel -> hover -> completion after `AscendC::` -> the quick fix applied -> save a kernel
with a task -> the estimate line -> a build error -> its code action -> a build error inside a header (listed
under the header before it is opened, cleared once the header is fixed and saved) -> ghost text from the catalog, then from a
tiny GGUF model (real llama.cpp inference, its answer fixed by a GBNF grammar), then "Generate kernel for this
task" from the command palette, cancelled from its notification (nothing written), then run on a static-shape task
folder (a correct kernel on one core), "Improve performance" on
it (the kernel on every core, faster, kept) and "Generate kernel" on a dynamic-shape task folder (the kernel, the
host tiling and a new tiling header, verified together on every case, saved with File: Save All); each task folder's
akgen.toml switches the tiny model on with its grammars, as a person configures a project. The screenshots' folder
is printed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from generate import dynamic

from akgen_lsp.bench.runner import default_suite
from akgen_lsp.model.tiny import literal_grammar, write_tiny_gguf

from .forced import CORRECT, MAX_TOKENS, ONE_CORE, forced
from .tools import REPO, program
from .vscode_session import run_session

pytestmark = pytest.mark.e2e


N_CTX = 12288  # the dynamic-shape prompt and its three-file answer (tests/generate/dynamic.py)
STATIC = "generate/static/level1/Math/AbsMath/question/op_kernel/abs_math.cpp"
DYNAMIC = "generate/dynamic/level1/Math/AbsMath/question/op_kernel/abs_math.cpp"


def _toml(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value) if isinstance(value, str) else str(value)  # a JSON string is a TOML basic string


def _generate_tasks(workspace: Path, gguf: Path) -> None:
    """Two copies of the bundled AbsMath task folder in the workspace, each with the akgen.toml of a project that
    uses the tiny model for generation: static shape (Generate answers ONE_CORE, then Improve's one performance round
    answers CORRECT) and dynamic shape (the kernel and its host tiling, on three of the task's cases)."""
    shutil.copytree(default_suite() / "tasks" / "level1" / "Math" / "AbsMath", workspace / STATIC.split("/question/")[0])
    dynamic.abs_task(workspace / "generate" / "dynamic")
    model = {"backend": "llama_cpp", "path": str(gguf), "n_ctx": N_CTX, "n_threads": 1}
    static = {"grammar": [forced(ONE_CORE), forced(CORRECT)], "max_tokens": MAX_TOKENS, "memory": False,
              "perf_rounds": 1}
    shaped = {"grammar": [literal_grammar(dynamic.answer())], "max_tokens": dynamic.MAX_TOKENS, "memory": False}
    for folder, gen, bench in (("static", static, ""), ("dynamic", shaped, '\n[bench]\nmode = "dynamic"\n')):
        lines = ["[model]", *(f"{k} = {_toml(v)}" for k, v in model.items()), "", "[generate]",
                 *(f"{k} = {_toml(v)}" for k, v in gen.items())]
        (workspace / "generate" / folder / "akgen.toml").write_text("\n".join(lines) + "\n" + bench, encoding="utf-8")


HEADER_TASK = """arch = "Ascend910B2"

[[task]]
name = "TiledAdd"
file = "tiled_add.cpp"
kernel = "add_custom"
mode = "static"
block_dim = 48
reference = "x + y"
inputs = [
    { name = "x", shape = [48, 128, 512], dtype = "float16" },
    { name = "y", shape = [48, 128, 512], dtype = "float16" },
]
outputs = [{ name = "z", shape = [48, 128, 512], dtype = "float16" }]
"""
HEADER_BAD = "constexpr int32_t TILE_NUM = 8 + undefined_thing;"


def _header_task(workspace: Path) -> dict[str, str]:
    """A folder with its own akgen.toml task: the add sample as ``tiled_add.cpp`` including ``add_tiling.h`` (its
    constants), one of which does not compile. Returns the driver's E2E_HEADER_* (the bad line, the column after
    ``= 8``)."""
    folder = workspace / "with_header"
    folder.mkdir()
    (folder / "akgen.toml").write_text(HEADER_TASK, encoding="utf-8")
    lines = (REPO / "samples" / "kernels" / "add_custom.cpp").read_text("utf-8").splitlines(True)
    first = next(i for i, line in enumerate(lines) if line.startswith("constexpr int32_t TOTAL_LENGTH"))
    last = first
    while lines[last + 1].startswith("constexpr"):
        last += 1
    header = ["#pragma once\n", "#include <cstdint>\n"]
    header += [HEADER_BAD + "\n" if line.startswith("constexpr int32_t TILE_NUM") else line
               for line in lines[first:last + 1]]
    (folder / "add_tiling.h").write_text("".join(header), encoding="utf-8")
    kernel = "".join(lines[:first]) + '#include "add_tiling.h"\n' + "".join(lines[last + 1:])
    (folder / "tiled_add.cpp").write_text(kernel, encoding="utf-8")
    bad = next(i for i, line in enumerate(header, 1) if line.startswith(HEADER_BAD))
    return {"E2E_HEADER_LINE": str(bad), "E2E_HEADER_COLUMN": str(HEADER_BAD.index(" + ") + 1)}


def test_a_new_user_sees_every_feature_in_vs_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    checkout = tmp_path / "checkout"
    shutil.copytree(REPO / "samples", checkout / "samples")
    gguf = write_tiny_gguf(tmp_path / "tiny.gguf")  # the registry's akgen-tiny: an inline completion model (FIM)
    workspace = checkout / "samples"
    # the generation model: no registry entry (whose 2048-token context would cap model.n_ctx)
    _generate_tasks(workspace, write_tiny_gguf(tmp_path / "forced.gguf", n_ctx=N_CTX))
    header_env = _header_task(workspace)
    home = tmp_path / "home"
    node = program("node", "install Node.js 20 (apt-get install nodejs)")
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".local" / "share"), "PATH": f"{Path(node).parent}:/usr/bin:/bin"}
    env.pop("AKGEN_CXX", None)
    # the server of this checkout's environment (it has llama-cpp-python for the model steps), named in the user's
    # settings: a user-level place (a .venv inside the opened folder or above it is never run, Workspace Trust's
    # rule; code-server's extension host gets a login shell's PATH); test_vscode_first_hour covers no setting at all
    session = run_session(tmp_path, workspace, env, {"E2E_TINY_GGUF": str(gguf), "E2E_STATIC": STATIC,
                                                     "E2E_DYNAMIC": DYNAMIC, **header_env}, "vscode-screenshots",
                          settings={"akgen.server.command": [str(Path(sys.executable).parent / "akgen"), "serve"]})
    report, driver = session.report, session.driver
    with capsys.disabled():
        sys.stderr.write(f"\nVS Code end-to-end: {session.wall:.0f} s ({session.steps()}); screenshots in "
                         f"{session.shots}\n")
    assert not session.failure(), session.failure()
    steps = [r["step"] for r in report]
    assert len(steps) == 14 and driver.returncode == 0, (steps, driver.stderr[-2000:])
    details = {r["step"]: r["detail"] for r in report}
    assert "1/1 cases pass" in details["saving a kernel with a task shows the estimate"]
    assert "Change 'xLocall' to 'xLocal' (the compiler's fix-it) — verified: compiles, 1/1 cases pass" in \
        details["a build error and its code action"]  # Ctrl+. on a build error applies a verified fix
    # a header's build error is listed under the header (never opened before), then cleared by its fix
    header = details["a build error inside a header is the header's problem"]
    assert "undefined_thing" in header and f"[Ln {header_env['E2E_HEADER_LINE']}," in header
    assert "1/1 cases pass" in header
    assert "PipeBarrier<PIPE_V>();" in details["ghost text from a tiny GGUF model"]
    assert "nothing was written" in details["Generate kernel is cancelled from its notification"]
    # Generate, then Improve: what the editor saved is the verified kernel, the faster one in the end
    assert "compiles, 1/1 cases pass" in details["Generate kernel for a static-shape task"]
    improved = details["Improve performance keeps the faster kernel"]
    before, after = (float(x) for x in re.search(r"([\d.]+) us -> ([\d.]+) us", improved).groups())
    assert after < before, improved
    assert (workspace / STATIC).read_text(encoding="utf-8").rstrip() == CORRECT.rstrip()
    # dynamic shape: the three files of the answer, verified on every case, saved from the editor
    assert "compiles, 3/3 cases pass" in details["Generate kernel for a dynamic-shape task: kernel and host"]
    host = (workspace / DYNAMIC).parents[1] / "op_host"
    assert (workspace / DYNAMIC).read_text(encoding="utf-8").rstrip() == dynamic.KERNEL.rstrip()
    assert (host / "abs_math.cpp").read_text(encoding="utf-8").rstrip() == dynamic.HOST.rstrip()
    assert (host / "abs_math_tiling.h").read_text(encoding="utf-8").rstrip() == dynamic.TILING.rstrip()
