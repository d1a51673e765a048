"""Who is at the other end of a transport (docs/security.md, "Transports"): `akgen serve --tcp` serves only a client
that sends the session's token first (the header line ``Akgen-Token: TOKEN``, before the first message's
Content-Length); `--socket` and `--pipe` serve only a peer of the same user (the kernel says who owns the other
socket: /proc/net/tcp for a loopback connection, SO_PEERCRED for a unix socket)."""

from __future__ import annotations

import errno
import hmac
import os
import secrets
import socket
import stat
import struct
from pathlib import Path

from akgen_lsp.safety import UnsafePath, read_regular

TOKEN_HEADER = "akgen-token:"


class PeerRefused(ConnectionError):
    """The other end of a transport is not the user's; the message says who it is and what to do."""


def load_or_make_token(path: Path) -> str:
    """The token in `path` (a file of the user's, mode 600), made with a fresh random token when it is absent."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o077:
            raise UnsafePath(
                errno.EPERM,
                f"{path} must be a file of yours that only you can read (chmod 600 "
                f"{path}); akgen does not take a token others may read or write",
            ) from None
        token = read_regular(path, 4096).decode("utf-8", "replace").strip()
        if len(token) < 16:
            raise UnsafePath(
                errno.EINVAL,
                f"{path} holds no token of 16 characters or more; remove it and akgen writes a new one",
            ) from None
        return token
    token = secrets.token_hex(24)
    with os.fdopen(fd, "w") as fh:
        fh.write(token + "\n")
    return token


def token_ok(line: bytes, token: str) -> bool:
    """Whether `line` (the first line a client sent) is ``Akgen-Token: <token>``."""
    text = line.decode("latin-1").strip()
    if not text.lower().startswith(TOKEN_HEADER):
        return False
    return hmac.compare_digest(text[len(TOKEN_HEADER) :].strip().encode(), token.encode())


def _tcp_owner(local_port: int, remote_port: int) -> int | None:
    """The uid owning the loopback socket bound to `local_port` and connected to `remote_port` (the peer's)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if len(parts) < 8:
                continue
            local, remote = parts[1], parts[2]
            if (
                int(local.rsplit(":", 1)[1], 16) == local_port
                and int(remote.rsplit(":", 1)[1], 16) == remote_port
            ):
                return int(parts[7])
    return None


def check_tcp_peer(conn: socket.socket) -> None:
    """Refuse a loopback TCP connection whose other end another user owns (`PeerRefused`)."""
    mine = conn.getsockname()[1]
    peer_host, peer_port = conn.getpeername()[:2]
    uid = _tcp_owner(peer_port, mine)
    if uid is None:
        raise PeerRefused(
            f"cannot tell who listens on {peer_host}:{peer_port} (no entry in /proc/net/tcp); akgen "
            "serves only a client of your own user: use --stdio or --pipe"
        )
    if uid != os.geteuid():
        raise PeerRefused(
            f"the client on {peer_host}:{peer_port} belongs to another user (uid {uid}); akgen serves "
            "only your own editor"
        )


def check_unix_peer(conn: socket.socket) -> None:
    """Refuse a unix-socket connection whose other end another user's process holds (SO_PEERCRED)."""
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    if uid != os.geteuid():
        raise PeerRefused(
            f"the client on the pipe belongs to another user (uid {uid}); akgen serves only your own editor"
        )
