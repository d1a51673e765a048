"""`akgen model pull NAME`: a checkpoint from the Hugging Face Hub (or any server in its layout: ``HF_ENDPOINT`` or
`endpoint`) into a local folder that the transformers backend runs as it is.

NAME is a registry name (``KernelGen-LM-4B``: its ``hf_repo``) or a repository id (``owner/name``). The file list and
sizes are read first and said before anything is downloaded (with the free disk space checked); the download is
huggingface_hub's ``snapshot_download`` into the folder (resumable: a rerun continues the partial files and skips the
complete ones; progress bars on stderr); then every file the Hub lists with a SHA-256 (the LFS files: the weights) is
hashed and compared, and a mismatch is an error naming the file.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from akgen_lsp.model.registry import load_registry


class PullError(Exception):
    """The pull cannot go on; the message says why and what to do."""


@dataclass(frozen=True)
class RemoteFile:
    path: str
    size: int
    sha256: str | None  # the LFS object's SHA-256 (the weights), None for small git files


def resolve(name: str) -> str:
    """The repository id of `name`: a registry entry's hf_repo, or `name` itself when it is ``owner/repo``."""
    for spec in load_registry().models:
        if spec.name.lower() == name.lower() and spec.hf_repo:
            return spec.hf_repo
    if "/" in name:
        return name
    known = ", ".join(s.name for s in load_registry().models if s.hf_repo)
    raise PullError(f"{name!r} is neither a known model ({known}) nor a repository id (owner/name)")


def remote_files(repo_id: str, revision: str = "main", endpoint: str | None = None) -> list[RemoteFile]:
    """The files of the repository at `revision`, with their sizes and LFS SHA-256."""
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError

    api = HfApi(endpoint=endpoint)
    try:
        entries = list(api.list_repo_tree(repo_id, recursive=True, revision=revision))
    except HfHubHTTPError as exc:
        raise PullError(f"cannot list {repo_id}@{revision} on {endpoint or api.endpoint}: {exc}") from None
    except OSError as exc:
        raise PullError(
            f"cannot reach {endpoint or api.endpoint} ({exc}); set HF_ENDPOINT to a mirror, or "
            "download the folder another way and set model.path to it"
        ) from None
    out = []
    for e in entries:
        if getattr(e, "size", None) is None or not hasattr(e, "blob_id"):
            continue  # a folder
        lfs = getattr(e, "lfs", None)
        out.append(RemoteFile(e.path, int(e.size), getattr(lfs, "sha256", None) if lfs else None))
    if not out:
        raise PullError(f"{repo_id}@{revision} has no files")
    return out


def human(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{int(n)} B"
        n /= 1000
    return f"{n:.1f} GB"


def pull(
    name: str,
    dest: Path | None = None,
    revision: str = "main",
    endpoint: str | None = None,
    say: Callable[[str], None] = print,
    progress: bool = True,
) -> Path:
    """Download `name` into `dest` (default ``models/<repo name>``); the folder. Raises PullError."""
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import HfHubHTTPError
    from huggingface_hub.utils import disable_progress_bars, enable_progress_bars

    repo_id = resolve(name)
    dest = Path(dest) if dest is not None else Path("models") / repo_id.split("/")[-1]
    files = remote_files(repo_id, revision, endpoint)
    total = sum(f.size for f in files)
    have = sum(
        f.size for f in files if (dest / f.path).is_file() and (dest / f.path).stat().st_size == f.size
    )
    say(
        f"{repo_id}@{revision}: {len(files)} files, {human(total)}"
        + (f" ({human(have)} already in {dest})" if have else "")
        + f"; downloading into {dest}"
    )
    dest.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(dest).free
    if total - have > free:
        raise PullError(
            f"{human(total - have)} to download and only {human(free)} free where {dest} is; free some "
            "space or give --dest on another disk"
        )
    (disable_progress_bars if not progress else enable_progress_bars)()
    try:
        snapshot_download(repo_id, revision=revision, local_dir=dest, endpoint=endpoint)
    except HfHubHTTPError as exc:
        raise PullError(f"the download of {repo_id} failed: {exc}; run the command again to resume") from None
    except OSError as exc:
        raise PullError(
            f"the download of {repo_id} stopped ({exc}); run the command again to resume"
        ) from None
    for f in files:
        path = dest / f.path
        if not path.is_file() or path.stat().st_size != f.size:
            raise PullError(
                f"{path} is not complete ({path.stat().st_size if path.is_file() else 0} of {f.size} "
                "bytes); run the command again to resume"
            )
        if f.sha256 and _sha256(path) != f.sha256:
            path.unlink()
            raise PullError(
                f"{path}: its SHA-256 is not the one the Hub lists ({f.sha256}); it was removed: run the "
                "command again to download it anew"
            )
    checked = sum(1 for f in files if f.sha256)
    say(f"{dest}: {len(files)} files, {checked} checked against their SHA-256")
    return dest


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
