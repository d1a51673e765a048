"""Copies of a repository's folders never follow a link out of the tree (docs/security.md, "Files a repository hands
the tool"): a mutant's or a host folder's header linked to a secret is left out of the exported candidates, a folder
link is not entered, and `safety.copy_tree` says what it left out."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from akgen_lsp.errors.synthesis import export_candidates
from akgen_lsp.safety import copy_tree

pytestmark = pytest.mark.hostile

SECRET = "AKGEN-SECRET-MARKER"


def _secret(tmp_path: Path) -> Path:
    secret = tmp_path / "home" / ".ssh" / "id_ed25519"
    secret.parent.mkdir(parents=True)
    secret.write_text(SECRET)
    (tmp_path / "home" / "docs").mkdir()
    (tmp_path / "home" / "docs" / "notes.h").write_text(SECRET)
    return secret


def _tree_text(root: Path) -> str:
    out = []
    for folder, _dirs, files in os.walk(root):
        for name in files:
            p = Path(folder) / name
            if p.is_file():
                out.append(p.read_text(errors="replace"))
    return "\n".join(out)


def test_exported_candidates_leave_out_links_out_of_the_tree(tmp_path: Path) -> None:
    secret = _secret(tmp_path)
    op = tmp_path / "repo" / "AddMath"
    kernel = op / "op_kernel" / "add_math.cpp"
    kernel.parent.mkdir(parents=True)
    kernel.write_text("// kernel\n")
    (op / "op_kernel" / "helper.h").write_text("// helper\n")
    (op / "op_kernel" / "platform.h").symlink_to(secret)                  # a file link out of the tree
    (op / "op_kernel" / "inc").symlink_to(secret.parent.parent / "docs")  # a folder link out of the tree
    (op / "op_kernel" / "alias.h").symlink_to("helper.h")                 # a link inside: its bytes are copied
    (op / "op_host").mkdir()
    (op / "op_host" / "add_math.cpp").write_text("// host\n")
    (op / "op_host" / "tiling.h").symlink_to(secret)
    record = {"kept": True, "mutant_path": str(kernel), "source_path": str(kernel), "task": "suite/AddMath",
              "id": "m1", "operator": "x", "injected_class": "x", "description": "x"}
    assert export_candidates([record], tmp_path / "out") == 1
    dst = tmp_path / "out" / "AddMath" / "0"
    assert (dst / "op_kernel" / "add_math.cpp").read_text() == "// kernel\n"
    assert (dst / "op_kernel" / "alias.h").read_text() == "// helper\n"
    assert (dst / "op_host" / "add_math.cpp").is_file()
    assert not os.path.lexists(dst / "op_kernel" / "platform.h")
    assert not os.path.lexists(dst / "op_kernel" / "inc")
    assert not os.path.lexists(dst / "op_host" / "tiling.h")
    assert SECRET not in _tree_text(dst)


def test_copy_tree_names_what_it_left_out(tmp_path: Path) -> None:
    secret = _secret(tmp_path)
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "sub" / "a.h").write_text("a")
    (src / "build.sh").write_text("#!/bin/sh\n")
    (src / "build.sh").chmod(0o4755)
    (src / "key.h").symlink_to(secret)
    (src / "loop").symlink_to(src)  # a folder link back into the tree: not entered, no cycle
    os.mkfifo(src / "pipe.h")
    left = copy_tree(src, tmp_path / "dst")
    assert sorted(p.name for p in left) == ["key.h", "loop", "pipe.h"]
    assert (tmp_path / "dst" / "sub" / "a.h").read_text() == "a"
    assert (tmp_path / "dst" / "build.sh").stat().st_mode & 0o7777 == 0o755  # still runs, no set-id bit
    assert SECRET not in _tree_text(tmp_path / "dst")
