"""Files a repository hands the server that are not what they seem: a source that is a link to /dev/stdin or
/dev/zero, a FIFO named like a build log, a header linked to a secret outside the project. None of them blocks the
server, grows it, or leaves the project (docs/security.md, "Files a repository hands the tool")."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from akgen_lsp.config import defaults
from akgen_lsp.server.features.build_logs import read_log
from akgen_lsp.server.features.workspace_diagnostics import _lint_file

pytestmark = pytest.mark.hostile


def finishes(fn, *args):  # type: ignore[no-untyped-def]
    """`fn(*args)`'s result, or a failure when it does not return within 20 s (it blocked on a device or FIFO)."""
    out: list[object] = []
    t = threading.Thread(target=lambda: out.append(fn(*args)), daemon=True)
    t.start()
    t.join(20)
    assert out, f"{fn.__name__} blocked"
    return out[0]


@pytest.mark.parametrize("device", ["/dev/stdin", "/dev/zero", "/dev/urandom"])
def test_a_source_linked_to_a_device_is_not_linted(tmp_path: Path, device: str) -> None:
    (tmp_path / "notes.asc").symlink_to(device)
    assert finishes(_lint_file, tmp_path / "notes.asc", defaults()) is None


def test_a_fifo_source_is_not_linted(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "k.asc")
    assert finishes(_lint_file, tmp_path / "k.asc", defaults()) is None


def test_a_fifo_build_log_is_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "build.log")
    assert finishes(read_log, tmp_path / "build.log", []) == {}


def test_a_header_linked_out_of_the_folder_is_not_copied_for_a_candidate(tmp_path: Path) -> None:
    from akgen_lsp.check.kernel import _candidate_copy

    secret = tmp_path / "secret.txt"
    secret.write_text("AWS_SECRET=abc123")
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "k.cpp").write_text("#include \"tiling.h\"\n")
    (proj / "tiling.h").symlink_to(secret)
    (proj / "own.h").write_text("#define OWN 1\n")
    (proj / "zero.h").symlink_to("/dev/zero")
    copy = _candidate_copy(proj / "k.cpp", "int x;\n", tmp_path / "work")
    assert (copy.parent / "own.h").read_text() == "#define OWN 1\n"
    assert not (copy.parent / "tiling.h").exists() and not (copy.parent / "zero.h").exists()
    assert "abc123" not in "".join(p.read_text() for p in copy.parent.iterdir())
