"""The README's first command on a fresh copy of the repository: `bash scripts/setup.sh` makes a .venv without torch
in which `akgen check samples/ --exit-zero` runs and a sample kernel checks on save ("1/1 cases pass")."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


def _fresh_copy(dest: Path) -> None:
    """The repository's files as a clone has them (tracked and new, not ignored: no .venv, no build outputs)."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def test_plain_setup_checks_a_sample_kernel_without_torch(tmp_path: Path) -> None:
    if shutil.which("bwrap") is None:
        pytest.fail("bubblewrap is not installed: `bash scripts/setup.sh --dev` as root installs it "
                    "(apt-get install bubblewrap)")
    repo = tmp_path / "akgen-lsp"
    _fresh_copy(repo)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    setup = subprocess.run(["bash", "scripts/setup.sh"], cwd=repo, env=env, capture_output=True, text=True,
                           timeout=900, check=False)
    assert setup.returncode == 0, setup.stderr[-3000:]
    # uv installed it (with pip's index settings), not the fallback to pip
    assert (repo / ".venv" / "bin" / "uv").exists() and "uv could not" not in setup.stderr, setup.stderr[-3000:]
    python = repo / ".venv" / "bin" / "python"
    assert subprocess.run([str(python), "-c", "import torch"], capture_output=True, check=False).returncode != 0
    check = subprocess.run([str(repo / ".venv" / "bin" / "akgen"), "check", "samples/", "--exit-zero"], cwd=repo,
                           env=env, capture_output=True, text=True, timeout=600, check=False)
    assert check.returncode == 0 and "AKG101" in check.stdout, check.stderr[-2000:]
    save = subprocess.run([str(python), "-c", (
        "import json, sys; from akgen_lsp.check.kernel import check_kernel; from akgen_lsp.config import defaults;"
        "fig = check_kernel(sys.argv[1], defaults()).figures;"
        "print(json.dumps([fig.status, fig.passed_cases, fig.cases, fig.estimate_us]))"),
        str(repo / "samples" / "kernels" / "add_custom.cpp")], cwd=repo, env=env, capture_output=True, text=True,
        timeout=600, check=False)
    assert save.returncode == 0, save.stderr[-2000:]
    status, passed, cases, estimate = json.loads(save.stdout.strip().splitlines()[-1])
    assert (status, passed, cases) == ("pass", 1, 1) and estimate > 0


def _pip_to_uv():  # scripts/ is no package: load the script as a module
    spec = importlib.util.spec_from_file_location("pip_to_uv", ROOT / "scripts" / "pip_to_uv.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pips_index_settings_reach_uv(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (tmp_path / "c.txt").write_text("torch<=2.14.1\n")
    listed = "\n".join([
        "global.index-url='https://mirror.example/simple'",
        f"global.extra-index-url='file://{tmp_path}/simple https://extra.example/simple'",
        f"global.find-links='{wheels} {tmp_path}/missing'",
        f"global.constraint='{tmp_path}/c.txt'",
        "global.timeout='60'",
        "install.index-url='https://install.example/simple'",
        "global.trusted-host='mirror.example'",
    ])
    args = _pip_to_uv().uv_args(listed)
    # [install] over [global]; a missing local index or folder is left out, as pip ignores it
    assert args == ["--index-url", "https://install.example/simple", "--extra-index-url", "https://extra.example/simple",
                    "--find-links", str(wheels), "--constraint", str(tmp_path / "c.txt"),
                    "--allow-insecure-host", "mirror.example", "--index-strategy", "unsafe-best-match"]
    # PIP_* variables win over the files
    assert _pip_to_uv().uv_args(f"global.find-links='{wheels}'\n:env:.find-links='{tmp_path}'") == [
        "--find-links", str(tmp_path)]
    assert _pip_to_uv().uv_args("global.timeout='60'") == []
