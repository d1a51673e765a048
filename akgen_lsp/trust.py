"""The trust model of docs/security.md, in one place: which folders the user trusts, where a project ends, which
settings file of a repository may be read, and which keys a layer of settings may set.

- The user and their user-level configuration (the config folder's ``config.toml``, the environment) are trusted.
- A repository is untrusted until the user trusts it: ``akgen trust add PATH`` (a per-user list, like git's
  ``safe.directory`` or direnv's ``allow``), or the editor's own trust (VS Code's Workspace Trust, sent by the
  extension as the initialization option ``workspaceTrust``).
- An untrusted repository's ``akgen.toml`` may set data (tasks, the arch, lint rules, ...), not what runs a program,
  reaches the network, raises a limit or writes a file elsewhere (`RESTRICTED`). The editor's initialization options
  never set a program path or switch a protection off; their other restricted keys count only in a trusted folder.
- ``sim.sandbox = "off"`` comes only from user-level configuration, trusted folder or not.
- Settings are looked up from a file's folder up to the project root (the top-most folder with ``.git``, or the
  editor's workspace folder), never above the user's home, and never through a folder or file another user owns or
  may write.

Below config.py (it imports only `safety`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from akgen_lsp.safety import UnsafePath, ownership_problem, read_regular, write_private

CONFIG_FILE = "akgen.toml"
USER_CONFIG = "config.toml"
TRUST_LIST = "trusted"
MAX_CONFIG_BYTES = 1 << 20

# Keys an untrusted layer may not set, with what they could do. Program paths and the sandbox switch are never taken
# from the editor's initialization options (a client over --tcp or a workspace's .vscode/settings.json sends them).
PROGRAM_KEYS = ("toolchain.cxx",)
RESTRICTED: dict[str, str] = {
    "sim.sandbox": "switches the sandbox off",
    "toolchain.cxx": "names a program to run",
    "toolchain.timeout_s": "raises a time limit",
    "sim.max_timeout_s": "raises a time limit",
    "sim.max_memory_mb": "raises a memory limit",
    "model.endpoint": "sends code to a server",
    "model.api_key_env": "sends an environment variable to a server",
    "fix.store": "writes a file",
}
# Layers, as `filter_layer` knows them.
USER, REPOSITORY, EDITOR = "user", "repository", "editor"


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user's akgen configuration folder: ``$AKGEN_CONFIG_DIR``, else the platform's (``~/.config/akgen``)."""
    env = os.environ if env is None else env
    given = env.get("AKGEN_CONFIG_DIR")
    if given:
        return Path(given)
    import platformdirs

    return Path(platformdirs.user_config_dir("akgen"))


def _safe_user_file(path: Path) -> bytes | None:
    """A user-level file's bytes, or None when it is absent; an `UnsafePath` when its folder or it is not the
    user's own (the trust list of a folder someone else may write is no trust list)."""
    try:
        data = read_regular(path, MAX_CONFIG_BYTES)
    except FileNotFoundError:
        return None
    for p in (path.parent, path):
        why = ownership_problem(p)
        if why:
            raise UnsafePath(
                1,
                f"{why}; akgen does not read {path} from there: fix the owner or mode "
                "(chmod go-w) or remove it",
            )
    return data


def user_config_file(env: Mapping[str, str] | None = None) -> Path:
    return config_dir(env) / USER_CONFIG


def read_user_config(env: Mapping[str, str] | None = None) -> tuple[Path, bytes] | None:
    path = user_config_file(env)
    data = _safe_user_file(path)
    return None if data is None else (path, data)


def _trust_file(env: Mapping[str, str] | None) -> Path:
    return config_dir(env) / TRUST_LIST


def trusted_folders(env: Mapping[str, str] | None = None) -> list[Path]:
    """The folders of the user's trust list (absolute, links resolved); an unsafe list counts as empty."""
    try:
        data = _safe_user_file(_trust_file(env))
    except (UnsafePath, OSError):
        return []
    if data is None:
        return []
    out = []
    for line in data.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and os.path.isabs(line):
            out.append(Path(line))
    return out


def _write_list(folders: Iterable[Path], env: Mapping[str, str] | None) -> Path:
    from akgen_lsp.safety import private_dir

    path = _trust_file(env)
    private_dir(path.parent)
    body = "# folders whose akgen.toml may set every key (`akgen trust add/remove`)\n"
    write_private(path, (body + "".join(f"{f}\n" for f in folders)).encode())
    return path


def add_trusted(folder: Path, env: Mapping[str, str] | None = None) -> Path:
    """Add `folder` (resolved) to the trust list; returns the folder as stored."""
    folder = Path(folder).expanduser().resolve()
    if not folder.is_dir():
        raise NotADirectoryError(f"{folder} is not a folder; trust the project's folder")
    current = trusted_folders(env)
    if folder not in current:
        _write_list([*current, folder], env)
    return folder


def remove_trusted(folder: Path, env: Mapping[str, str] | None = None) -> bool:
    folder = Path(folder).expanduser().resolve()
    current = trusted_folders(env)
    if folder not in current:
        return False
    _write_list([f for f in current if f != folder], env)
    return True


def is_trusted(path: Path, env: Mapping[str, str] | None = None) -> bool:
    """Whether `path` is a trusted folder or lies inside one."""
    resolved = Path(path).resolve()
    return any(resolved == f or f in resolved.parents for f in trusted_folders(env))


def project_root(start: Path, workspace: Path | None = None) -> Path | None:
    """Where settings look-up ends for files under `start`: the editor's workspace folder when `start` is in it,
    else the top-most folder with ``.git`` at or above `start` (below the user's home), else None (the look-up then
    ends below the home folder, the file system's root, or the first folder that is not the user's own)."""
    start = Path(start).resolve()
    if workspace is not None:
        ws = Path(workspace).resolve()
        if start == ws or ws in start.parents:
            return ws
    home = Path.home().resolve()
    top = None
    for folder in (start, *start.parents):
        if folder == home or folder == Path(folder.anchor):
            break
        if (folder / ".git").exists():
            top = folder
    return top


def _folders_up(start: Path, root: Path | None) -> list[Path]:
    """`start` and its parents up to `root`, or (no root) up to, not including, the home folder or `/`."""
    home = Path.home().resolve()
    out = []
    for folder in (start, *start.parents):
        if root is None and (folder == home or folder == Path(folder.anchor)) and out:
            break
        out.append(folder)
        if folder == root:
            break
    return out


def find_repo_config(start: Path, workspace: Path | None = None) -> tuple[Path | None, list[str]]:
    """The nearest `akgen.toml` from `start` up to the project root, and the notices of settings files skipped
    because another user owns them or others may write them (or their folder). The look-up never goes through a
    folder that is not the user's own: it ends there."""
    start = Path(start)
    start = start.resolve() if start.is_dir() else start.resolve().parent
    root = project_root(start, workspace)
    notices: list[str] = []
    for folder in _folders_up(start, root):
        candidate = folder / CONFIG_FILE
        try:
            st = os.lstat(candidate)
        except OSError:
            st = None
        why = ownership_problem(folder)
        if why is None and st is not None:
            why = ownership_problem(candidate, st)
            if why is None and candidate.is_symlink():
                real = candidate.resolve()
                base = root or folder
                why = (
                    f"{candidate} is a link to {real}, outside the project"
                    if real != base and base not in real.parents
                    else ownership_problem(real)
                )
        if why:
            if st is not None:
                notices.append(
                    f"akgen: {candidate} is not read: {why}; fix its owner or mode (chmod go-w) if it "
                    "is yours"
                )
            return None, notices
        if st is not None and candidate.is_file():
            return candidate, notices
    return None, notices


def _ignored(key: str, value: Any, origin: str, why: str, fix: str) -> str:
    return f"akgen: ignored {key} = {value!r} from {origin}: {why} ({RESTRICTED.get(key, '')}); {fix}"


def filter_layer(
    values: Mapping[str, Any], layer: str, origin: str, trusted: bool, folder: Path | None = None
) -> tuple[dict[str, Any], list[str]]:
    """The keys of a layer of settings (flat, dotted) that this layer may set, and a notice per key it may not."""
    kept: dict[str, Any] = {}
    notices: list[str] = []
    user_fix = "set it in your user configuration instead"
    trust_fix = (
        f"if you trust this folder, run `akgen trust add {folder}`, or set it in your user configuration"
        if folder is not None
        else "trust the folder in your editor, or set it in your user configuration"
    )
    for key, value in values.items():
        if layer == USER or key not in RESTRICTED:
            kept[key] = value
        elif key == "sim.sandbox":
            if value == "on":
                kept[key] = value
            else:
                notices.append(
                    _ignored(
                        key,
                        value,
                        origin,
                        "the sandbox is switched off only from user-level "
                        "configuration (the user config file or AKGEN_SIM_SANDBOX)",
                        user_fix,
                    )
                )
        elif layer == EDITOR and key in PROGRAM_KEYS:
            notices.append(
                _ignored(
                    key, value, origin, "an editor's initialization options never name a program", user_fix
                )
            )
        elif trusted:
            kept[key] = value
        else:
            notices.append(_ignored(key, value, origin, "the folder is not trusted", trust_fix))
    return kept, notices
