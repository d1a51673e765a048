"""How `akgen mcp` is reached: stdio (one client, the usual way an agent starts a server), or streamable HTTP on a
loopback address for several clients of one machine, each request carrying ``Authorization: Bearer <token>``.

The token is read from a file only its owner can read (``--token-file``, mode 0600; made with a new token when it
does not exist), or made for this run and printed on stderr. Any other address than loopback is refused: the tools
run kernels, so the server is not for a network.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
import stat
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class TransportError(ValueError):
    """A transport option that cannot be used: the sentence says what to change."""


def check_loopback(host: str) -> None:
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if not loopback:
        raise TransportError(
            f"--host {host} is not a loopback address; akgen mcp serves only this machine "
            "(127.0.0.1, ::1 or localhost): its tools compile and run kernels"
        )


def read_token(path: Path) -> str:
    """The token in `path` (made, mode 0600, when the file does not exist); refused when others may read it."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        token = secrets.token_urlsafe(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(token + "\n")
        return token
    mode = path.stat().st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise TransportError(
            f"{path} can be read by other users (mode {stat.S_IMODE(mode):o}); "
            f"run `chmod 600 {path}` so that only you can"
        )
    token = path.read_text(encoding="utf-8").strip()
    if len(token) < 16:
        raise TransportError(
            f"the token in {path} is shorter than 16 characters; put a longer one there "
            "(or delete the file and a new one is made)"
        )
    return token


def require_bearer(app: ASGIApp, token: str) -> ASGIApp:
    """`app` behind a bearer-token check: a request without ``Authorization: Bearer <token>`` gets 401."""
    expected = f"Bearer {token}".encode()

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or ()).get(b"authorization", b"")
            if not hmac.compare_digest(given, expected):
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")],
                    }
                )
                await send(
                    {
                        "type": "http.response.body",
                        "body": b"akgen mcp: send the token as 'Authorization: Bearer <token>'\n",
                    }
                )
                return
        await app(scope, receive, send)

    return guarded


def serve_http(server: Any, host: str, port: int, token: str) -> None:
    """Run `server` (an MCPServer) over streamable HTTP at http://host:port/mcp until interrupted."""
    import anyio
    import uvicorn

    check_loopback(host)
    app = require_bearer(server.streamable_http_app(host=host), token)

    async def main() -> None:
        config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
        await uvicorn.Server(config).serve()

    print(
        f"akgen mcp: serving http://{host}:{port}/mcp (Authorization: Bearer <token>)",
        file=sys.stderr,
        flush=True,
    )
    anyio.run(main)
