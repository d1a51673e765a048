"""A content-addressed on-disk cache of the task side of a case: the generated inputs and the reference outputs.

NPUKernelBench's references run PyTorch on the CPU, and on a warm sim build cache they are most of a candidate's
time (1068 s of 1738 s in a full run). They depend only on the task's validation files, the case row, the seed and
the harness's own conversion code, never on the candidate, so every sample of a task, every rerun and every mode
reuses them.

Key: sha256 over the contents of every file in ``validation/`` (a changed file invalidates), the case row, the
deterministic seed, the requested input/output names, the source of the modules that convert task values
(reference.py, tensorlist.py) and the torch/numpy versions. Value: a pickle of the case data, its arrays out of band
(read back as views of the file, mapped copy-on-write: a hit copies nothing). Entries live in
``<cache>/bench-ref/`` (``$AKGEN_CACHE_DIR`` or the user cache dir), written to a temporary file and renamed, so
concurrent workers never read half an entry (the last writer wins with identical content). Entries above
``MAX_ENTRY_BYTES`` are not stored; the folder is pruned oldest-first above ``MAX_TOTAL_BYTES``.
``AKGEN_BENCH_REF_CACHE=0`` turns the cache off.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import mmap
import os
import pickle
import struct
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

MAX_ENTRY_BYTES = 512 * 1024 * 1024
MAX_TOTAL_BYTES = 8 * 1024 * 1024 * 1024
_FORMAT = 2  # 2: arrays out of band, read as views of the mapped entry

_file_hashes: dict[tuple[str, int, int], str] = {}
_code_hash: str | None = None


def enabled() -> bool:
    return os.environ.get("AKGEN_BENCH_REF_CACHE", "1").strip().lower() not in ("0", "false", "no", "off")


def cache_root() -> Path:
    """``$AKGEN_BENCH_REF_CACHE_DIR``, else ``bench-ref/`` beside the sim build cache."""
    env = os.environ.get("AKGEN_BENCH_REF_CACHE_DIR")
    if env:
        from akgen_lsp.safety import private_dir

        return private_dir(Path(env))
    from akgen_lsp.sim.build_cache import cache_dir

    return cache_dir().parent / "bench-ref"


def _hash_file(path: Path) -> str:
    st = path.stat()
    k = (str(path), st.st_mtime_ns, st.st_size)
    h = _file_hashes.get(k)
    if h is None:
        h = hashlib.sha256(path.read_bytes()).hexdigest()
        _file_hashes[k] = h
    return h


def validation_hash(validation: Path) -> str:
    """One hash over the names and contents of the files under ``validation/`` (caches and bytecode excluded)."""
    h = hashlib.sha256()
    for p in sorted(validation.rglob("*")):
        if not p.is_file() or "__pycache__" in p.parts or p.suffix == ".pyc":
            continue
        h.update(str(p.relative_to(validation)).encode())
        h.update(_hash_file(p).encode())
    return h.hexdigest()


def prime() -> None:
    """Compute the once-per-process parts of a cache key now (the installed numpy / torch versions, read from package
    metadata, take a tenth of a second), so that processes forked from this one start with them."""
    _code_version()
    cache_root()


def _code_version() -> str:
    global _code_hash
    if _code_hash is None:
        h = hashlib.sha256()
        here = Path(__file__).resolve().parent
        for name in ("reference.py", "tensorlist.py", "refcache.py", "npref.py"):
            p = here / name
            if p.is_file():
                h.update(p.read_bytes())
        from importlib import metadata

        for dist in ("numpy", "torch"):  # installed versions, read without importing torch (seconds)
            try:
                h.update(f"{dist}={metadata.version(dist)}".encode())
            except metadata.PackageNotFoundError:
                h.update(f"{dist}=none".encode())
        h.update(str(_FORMAT).encode())
        _code_hash = h.hexdigest()
    return _code_hash


def case_key(
    validation: Path,
    case: Mapping[str, Any],
    seed: int,
    input_names: Sequence[str] = (),
    output_names: Sequence[str] = (),
) -> str:
    row = json.dumps({str(k): repr(v) for k, v in case.items()}, sort_keys=True)
    parts = [
        validation_hash(validation),
        row,
        str(seed),
        "|".join(input_names),
        "|".join(output_names),
        _code_version(),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _path(key: str) -> Path:
    return cache_root() / key[:2] / f"{key}.pkl"


# An entry file: MAGIC, an HMAC-SHA256 (the user's key) of what follows up to the end of the pickle, the pickle's
# length and the number of array buffers (u64 each), each buffer's offset and length, the pickle (protocol 5, arrays
# out of band), then each buffer at a page-aligned offset. Reading maps the file copy-on-write and the arrays are
# views of the mapping: an entry's megabytes are not copied (or unpickled) on a hit. The pickle is unpickled only when
# the HMAC holds, so a file someone without the key wrote never runs code (docs/security.md); the arrays are raw
# bytes, kept from others by the private cache folder.
_MAGIC = b"AKGREF3\0"
_MAC = 32
_ALIGN = 4096
_key: bytes | None = None


def _user_key() -> bytes:
    global _key
    if _key is None:
        from akgen_lsp.safety import cache_base, user_key

        _key = user_key(cache_base())
    return _key


def _mac(table: bytes | memoryview, blob: bytes | memoryview) -> bytes:
    import hmac

    h = hmac.new(_user_key(), digestmod=hashlib.sha256)
    h.update(table)
    h.update(blob)
    return h.digest()


def _encode(value: Any) -> list[bytes | memoryview] | None:
    buffers: list[pickle.PickleBuffer] = []
    try:
        blob = pickle.dumps(value, protocol=5, buffer_callback=buffers.append)
        raws = [b.raw() for b in buffers]
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, BufferError):
        return None
    head = len(_MAGIC) + _MAC + 16 + 16 * len(raws)
    parts: list[bytes | memoryview] = []
    table: list[int] = []
    pos = head + len(blob)
    for raw in raws:
        pad = -pos % _ALIGN
        parts.append(b"\0" * pad)
        pos += pad
        table += [pos, raw.nbytes]
        parts.append(raw)
        pos += raw.nbytes
    fields = struct.pack(f"<QQ{len(table)}Q", len(blob), len(raws), *table)
    try:
        mac = _mac(fields, blob)
    except OSError:  # no private cache folder: nothing is stored
        return None
    return [_MAGIC + mac + fields, blob, *parts]


def _decode(fh: Any) -> Any:
    size = os.fstat(fh.fileno()).st_size
    if size < len(_MAGIC) + _MAC + 16:
        raise ValueError("short entry")
    mm = mmap.mmap(
        fh.fileno(), 0, access=mmap.ACCESS_COPY
    )  # private: a write to an array never reaches the file
    view = memoryview(mm)
    if bytes(view[: len(_MAGIC)]) != _MAGIC:
        raise ValueError("not an entry of this format")
    at = len(_MAGIC) + _MAC
    blob_len, n = struct.unpack_from("<QQ", mm, at)
    head = at + 16 + 16 * n
    if n > 1 << 20 or head + blob_len > size:
        raise ValueError("a damaged entry")
    import hmac

    if not hmac.compare_digest(
        _mac(view[at:head], view[head : head + blob_len]), bytes(view[len(_MAGIC) : at])
    ):
        raise ValueError("an entry not sealed with your key")
    table = struct.unpack_from(f"<{2 * n}Q", mm, at + 16)
    bufs = []
    for off, length in zip(table[::2], table[1::2], strict=True):
        if off < head + blob_len or off + length > size:
            raise ValueError("a damaged entry")
        bufs.append(view[off : off + length])
    return pickle.loads(view[head : head + blob_len], buffers=bufs)


def get(key: str) -> Any | None:
    """The stored value, or None (absent, unreadable or from another format: recomputed and rewritten)."""
    try:
        p = _path(key)
        with p.open("rb") as fh:
            value = _decode(fh)
    except (
        OSError,
        EOFError,
        pickle.UnpicklingError,
        AttributeError,
        ImportError,
        ValueError,
        TypeError,
        struct.error,
    ):
        return None
    with contextlib.suppress(OSError):
        os.utime(p)  # recently used: pruned last
    return value


def input_file(key: str, index: int, array: Any) -> Path | None:
    """The .npy file of input `index` of the entry `key` (only that input: a kernel's box may read it), written from
    `array` the first time (a temporary file renamed); None when it cannot be written. Used, it is touched like its
    entry, and pruned like one."""
    try:
        p = cache_root() / key[:2] / f"{key}.in{index}.npy"
        os.utime(p)
        return p
    except FileNotFoundError:
        pass
    except OSError:
        return None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".npy", dir=p.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                np.save(fh, array)
            os.replace(tmp, p)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    except (OSError, ValueError):
        return None
    return p


def put(key: str, value: Any, size_hint: int = 0) -> bool:
    """Store `value` under `key` atomically; False when it is too big (`size_hint`, the bytes of its arrays, is
    checked first so that a huge case is never serialised) or the cache folder is not writable."""
    if size_hint > MAX_ENTRY_BYTES:
        return False
    try:
        p = _path(key)
    except OSError:  # the cache folder is not private (safety.UnsafePath): nothing is stored
        return False
    parts = _encode(value)
    if parts is None or sum(len(x) if isinstance(x, bytes) else x.nbytes for x in parts) > MAX_ENTRY_BYTES:
        return False
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=p.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                for part in parts:
                    fh.write(part)
            os.replace(tmp, p)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    except OSError:
        return False
    _prune()
    return True


def _prune() -> None:
    root = cache_root()
    entries: list[tuple[float, int, Path]] = []
    total = 0
    try:
        for sub in root.iterdir():
            if not sub.is_dir():
                continue
            for f in sub.iterdir():
                try:
                    st = f.stat()
                except OSError:
                    continue
                entries.append((st.st_mtime, st.st_size, f))
                total += st.st_size
    except OSError:
        return
    if total <= MAX_TOTAL_BYTES:
        return
    for _mtime, size, f in sorted(entries):
        with contextlib.suppress(OSError):
            f.unlink()
            total -= size
        if total <= MAX_TOTAL_BYTES * 3 // 4:
            break
