"""Small, dependency-free guards the trust model (docs/security.md) is built from: who owns a file or folder and who
else may write it (git's ownership rule), private per-user folders (0700, checked before use), regular files read
with a size bound (no device, FIFO or link out of a tree), a per-user HMAC key for caches that hold pickles, and the
one function that makes text safe to print on a terminal.

The lowest layer of akgen_lsp: it imports nothing of the package.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import os
import re
import secrets
import stat
from pathlib import Path


class UnsafePath(OSError):
    """A file or folder the tool refuses to use; the message says why and what to do."""


def _uid() -> int:
    return os.geteuid()


def ownership_problem(path: Path, st: os.stat_result | None = None) -> str | None:
    """Why `path` may not be trusted as the user's own (another user owns it, or others may write it), or None.

    Files and folders of the user and of root are the user's own (root's are the system's); a group may write them
    only when it is the user's own group (a per-user group, as `useradd` makes by default)."""
    try:
        st = st or os.lstat(path)
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror})"
    if st.st_uid not in (_uid(), 0):
        return f"{path} is owned by another user (uid {st.st_uid})"
    if st.st_mode & stat.S_IWOTH and not stat.S_ISLNK(st.st_mode):
        return f"{path} is writable by every user"
    if st.st_mode & stat.S_IWGRP and not stat.S_ISLNK(st.st_mode) and st.st_gid != os.getegid():
        return f"{path} is writable by the group {st.st_gid}"
    return None


def private_dir(path: Path) -> Path:
    """Create `path` (and its missing parents) as a folder only the user can enter, or check that it is one.

    A folder of the user's that others could read (0755 from an earlier version) is tightened to 0700; one that
    others could write, that another user owns, or that is a link is refused with an `UnsafePath` that says why:
    what is in it may have been written by someone else."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise UnsafePath(
            exc.errno or errno.EACCES, f"cannot create the private folder {path}: {exc.strerror}"
        ) from None
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise UnsafePath(
            errno.ENOTDIR, f"{path} must be a folder of yours, not a link or a file; remove it and run again"
        )
    if st.st_uid != _uid():
        raise UnsafePath(
            errno.EPERM,
            f"{path} is owned by another user (uid {st.st_uid}); anything in it may be "
            "theirs: remove it, or point AKGEN_CACHE_DIR at a folder of your own",
        )
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise UnsafePath(
            errno.EPERM,
            f"{path} is writable by other users (mode {stat.S_IMODE(st.st_mode):o}), so "
            f"what is in it may not be yours: remove it (akgen makes it again, mode 700)",
        )
    if st.st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


_checked: set[str] = set()


def cache_base() -> Path:
    """The user's akgen cache folder (``$AKGEN_CACHE_DIR`` or the platform's, ``~/.cache/akgen``), made private
    (`private_dir`) and checked once per process before anything in it is used; `UnsafePath` says why not."""
    given = os.environ.get("AKGEN_CACHE_DIR")
    if given:
        base = Path(given)
    else:
        import platformdirs

        base = Path(platformdirs.user_cache_dir("akgen"))
    key = str(base)
    if key not in _checked:
        private_dir(base)
        _checked.add(key)
    return base


def sweep_stale(prefix: str = "akgen-", older_than_s: float = 24 * 3600.0, folder: Path | None = None) -> int:
    """Remove the user's own scratch folders named `prefix`* in the temporary folder that nothing touched for
    `older_than_s` (left by a process that was killed); returns how many. Links and folders of other users are left
    alone."""
    import shutil
    import tempfile
    import time

    base = Path(folder or tempfile.gettempdir())
    removed = 0
    now = time.time()
    try:
        entries = list(os.scandir(base))
    except OSError:
        return 0
    for entry in entries:
        if not entry.name.startswith(prefix):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != _uid() or now - st.st_mtime < older_than_s:
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed += 1
    return removed


def read_regular(path: Path, limit: int, root: Path | None = None) -> bytes:
    """The bytes of `path`, which must be a regular file (not a device, FIFO or socket), of at most `limit` bytes,
    and, when `root` is given, inside `root` once every link is resolved. Raises `UnsafePath` with the reason."""
    path = Path(path)
    if root is not None:
        resolved = path.resolve()
        base = Path(root).resolve()
        if resolved != base and base not in resolved.parents:
            raise UnsafePath(
                errno.EXDEV,
                f"{path} leads outside {base} (to {resolved}); akgen reads only files inside the project",
            )
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafePath(
                errno.EINVAL,
                f"{path} is not a regular file (a device, FIFO or socket); akgen reads only regular files",
            )
        if st.st_size > limit:
            raise UnsafePath(
                errno.EFBIG, f"{path} holds {st.st_size} bytes, more than the {limit} akgen reads"
            )
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise UnsafePath(errno.EFBIG, f"{path} grew past the {limit} bytes akgen reads")
        return data
    finally:
        os.close(fd)


def copy_tree(src: Path, dst: Path, limit: int = 64 << 20) -> list[Path]:
    """Copy the folder `src` into `dst` (made when absent; existing files overwritten) without ever following a link
    out of `src`: every file is read through `read_regular` with `src` as its root (a link to a file inside is copied
    as that file's bytes, its mode kept without set-id bits; a link leading outside, a device, FIFO or socket, or a file over `limit` bytes is left out),
    and links to folders are not entered (no way out, no cycle). Returns the paths under `src` that were left out."""
    src, dst = Path(src), Path(dst)
    root = src.resolve()
    skipped: list[Path] = []
    for folder, dirs, files in os.walk(src, followlinks=False):
        here = Path(folder)
        out = dst / here.relative_to(src)
        out.mkdir(parents=True, exist_ok=True)
        for name in list(dirs):
            if (here / name).is_symlink():
                dirs.remove(name)
                skipped.append(here / name)
        for name in files:
            try:
                data = read_regular(here / name, limit, root=root)
            except OSError:
                skipped.append(here / name)
                continue
            (out / name).write_bytes(data)
            os.chmod(out / name, (here / name).stat().st_mode & 0o755)  # an executable script stays one
    return skipped


def write_private(path: Path, data: bytes) -> None:
    """Write `path` (mode 0600) through a fresh temporary name in its own folder, created exclusively (never
    through a link someone planted), then renamed over it."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(
        tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o600
    )
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def user_key(folder: Path) -> bytes:
    """The per-user secret (32 bytes) in ``folder/key`` (0600, made on first use; `folder` is made private)."""
    folder = private_dir(Path(folder))
    path = folder / "key"
    try:
        data = read_regular(path, 64)
    except FileNotFoundError:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except FileExistsError:
            return read_regular(path, 64)
        with os.fdopen(fd, "wb") as fh:
            data = secrets.token_bytes(32)
            fh.write(data)
        return data
    st = os.lstat(path)
    if st.st_uid != _uid() or st.st_mode & 0o077 or len(data) < 32:
        raise UnsafePath(
            errno.EPERM, f"{path} must be your own file of mode 600; remove it (akgen makes a new one)"
        )
    return data


MAC_SIZE = 32


def seal(key: bytes, data: bytes) -> bytes:
    """`data` with an HMAC-SHA256 of it in front: what `unseal` checks before anything reads the data."""
    return hmac.new(key, data, hashlib.sha256).digest() + data


def unseal(key: bytes, sealed: bytes | memoryview) -> memoryview | None:
    """The data `seal` wrapped, or None when the MAC does not match (someone without the key wrote it)."""
    view = memoryview(sealed)
    if len(view) < MAC_SIZE:
        return None
    want = hmac.new(key, view[MAC_SIZE:], hashlib.sha256).digest()
    return view[MAC_SIZE:] if hmac.compare_digest(want, bytes(view[:MAC_SIZE])) else None


# C0 controls but tab and newline, DEL, the C1 controls (CSI 0x9b, OSC 0x9d work without ESC on some terminals), and
# the Unicode marks that reorder or hide text (bidi overrides and isolates, zero-width characters, line separators).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


def _escape_one(match: re.Match[str]) -> str:
    c = match.group()
    if c == "\r":
        return "\\r"
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_control(text: str) -> str:
    """`text` safe for a terminal: every control character but tab and newline (escape sequences, carriage returns,
    backspaces, C1 codes, bidi overrides) written as a visible escape such as ``\\x1b``."""
    return _CONTROL.sub(_escape_one, text)
