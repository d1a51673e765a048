"""Neovim's project root (editors/nvim/lua/akgen/init.lua, `root_of`) attacked by another user of the machine: an
akgen.toml in a world-writable folder (/tmp) or a folder another user owns never becomes the root of the victim's
project, and the walk up never passes the home folder (docs/security.md)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from trust_helpers import other_uid

from .tools import REPO, nvim_07

pytestmark = pytest.mark.hostile


def root_of(path: Path, home: Path | None = None) -> str:
    plugin = REPO / "editors" / "nvim"
    lua = f'vim.opt.rtp:append("{plugin}"); io.write(require("akgen").root_of("{path}"))'
    env = {**os.environ, **({"HOME": str(home)} if home else {})}
    res = subprocess.run([nvim_07(), "--headless", "-n", "-i", "NONE", "-u", "NONE", "--cmd", f"lua {lua}",
                          "+qa!"], capture_output=True, text=True, timeout=60, env=env)
    return (res.stdout + res.stderr).strip()


def test_a_world_writable_folders_akgen_toml_is_not_the_root(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    (shared / "victim").mkdir(parents=True)
    shared.chmod(0o1777)
    (shared / "akgen.toml").write_text('arch = "Ascend310P"\n')
    (shared / "victim" / "k.cpp").write_text("")
    assert root_of(shared / "victim" / "k.cpp") == str(shared / "victim")


def test_another_users_akgen_toml_is_not_the_root(tmp_path: Path) -> None:
    (tmp_path / "proj" / "src").mkdir(parents=True)
    (tmp_path / "proj" / ".git").mkdir()
    planted = tmp_path / "proj" / "src" / "akgen.toml"
    planted.write_text("")
    os.chown(planted, other_uid(), -1)
    assert root_of(tmp_path / "proj" / "src" / "k.cpp") == str(tmp_path / "proj")


def test_the_walk_stops_below_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "work").mkdir(parents=True)
    (tmp_path / "akgen.toml").write_text("")  # above the home folder
    (home / "akgen.toml").write_text("")  # in the home folder itself
    assert root_of(home / "work" / "k.cpp", home=home) == str(home / "work")


def test_a_project_of_the_user_still_finds_its_akgen_toml(tmp_path: Path) -> None:
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    (tmp_path / "proj" / "kernels").mkdir()
    (tmp_path / "proj" / "akgen.toml").write_text("")
    assert root_of(tmp_path / "proj" / "kernels" / "k.cpp") == str(tmp_path / "proj")
