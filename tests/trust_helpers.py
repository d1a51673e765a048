"""Shared by the trust model's hostile tests: a second local user (the attacker on the same machine) and a private
user-level configuration folder per test."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
from pathlib import Path

import pytest

OTHER = "akgen-other"


def other_uid() -> int:
    """The uid of a second local user (made with useradd when the tests run as root); skips without one."""
    try:
        return pwd.getpwnam(OTHER).pw_uid
    except KeyError:
        pass
    if os.geteuid() != 0 or shutil.which("useradd") is None:
        pytest.skip("needs root (useradd) for a second local user")
    subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", OTHER], check=False,
                   capture_output=True)
    try:
        return pwd.getpwnam(OTHER).pw_uid
    except KeyError:
        pytest.skip("useradd could not make a second user")


def as_other(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run `argv` as the second user (setpriv), as an attacker on the same machine would."""
    uid = other_uid()
    if shutil.which("setpriv") is None:
        pytest.skip("needs setpriv")
    return subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *argv],
                          capture_output=True, text=True, timeout=30)


def user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str = "", trusted: list[Path] = ()) -> Path:
    """A fresh private user configuration folder (config.toml, trust list) for this test."""
    folder = tmp_path / "user-config"
    folder.mkdir(mode=0o700)
    if text:
        (folder / "config.toml").write_text(text, encoding="utf-8")
    (folder / "trusted").write_text("".join(f"{p.resolve()}\n" for p in trusted), encoding="utf-8")
    monkeypatch.setenv("AKGEN_CONFIG_DIR", str(folder))
    return folder
