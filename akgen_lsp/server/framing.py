"""LSP base-protocol framing that survives any byte stream: a drop-in for pygls's message loop (`pygls.io_.run_async`,
same parameters) and for `start_io` / `start_tcp`, written to be sent upstream as it is.

pygls 2.1's loop reads `Content-Length: (\\d+)` and then `stdin.read(n)`: a length of 10**12 allocates that much (a
MemoryError), and a negative, non-numeric, missing or too-short length leaves the loop out of step with the stream,
after which no message is answered. Here:
- a header line is read with a bound (`MAX_HEADER_LINE`), a body only up to `max_content_length` (64 MiB by default);
- a bad length (negative, not a number, over the limit), a message without Content-Length, a line that is no header,
  or a body that is not JSON is logged as an error (and handed to `on_error`, which a server turns into a
  window/logMessage) and the loop resynchronises: it scans forward for the next `Content-Length:` header, also in
  the middle of a line (where the rest of a too-short body ends), discarding what lies before it with bounded memory;
- the end of the stream inside a message ends the session cleanly with a logged error.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, BinaryIO, Protocol

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

MAX_CONTENT_LENGTH = 64 << 20
MAX_HEADER_LINE = 64 << 10
_LENGTH = b"content-length:"

log = logging.getLogger(__name__)


class FramingError(ValueError):
    """The stream broke the base protocol here; the message says how."""


class LineReader(Protocol):
    """What the loop reads from: bounded lines (at most `limit` bytes; no trailing newline when cut) and exact
    bodies (fewer bytes only at the end of the stream)."""

    def readline(self, limit: int) -> Awaitable[bytes]: ...

    def readexactly(self, n: int) -> Awaitable[bytes]: ...


class StdinReader:
    """A blocking binary stream (stdin) read in an executor, lines bounded."""

    def __init__(self, stream: BinaryIO, executor: ThreadPoolExecutor | None = None) -> None:
        self.stream = stream
        self.executor = executor

    def readline(self, limit: int) -> Awaitable[bytes]:
        return asyncio.get_running_loop().run_in_executor(self.executor, self.stream.readline, limit)

    def readexactly(self, n: int) -> Awaitable[bytes]:
        return asyncio.get_running_loop().run_in_executor(self.executor, self._read, n)

    def _read(self, n: int) -> bytes:
        parts: list[bytes] = []
        left = n
        while left > 0:
            chunk = self.stream.read(left)
            if not chunk:
                break
            parts.append(chunk)
            left -= len(chunk)
        return b"".join(parts)


class StreamReaderAdapter:
    """An asyncio.StreamReader (a TCP connection) with the same bounded reads."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self.reader = reader

    async def readline(self, limit: int) -> bytes:
        try:
            return await self.reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as exc:
            return exc.partial
        except asyncio.LimitOverrunError as exc:
            return await self.reader.read(min(limit, max(1, exc.consumed)))

    async def readexactly(self, n: int) -> bytes:
        try:
            return await self.reader.readexactly(n)
        except asyncio.IncompleteReadError as exc:
            return exc.partial


async def read_headers(reader: LineReader, max_content_length: int = MAX_CONTENT_LENGTH) -> int | None:
    """The Content-Length of the next message, after its headers; None at the end of the stream. Raises
    FramingError for a broken header block (the caller logs it and calls again, which resynchronises)."""
    length: int | None = None
    in_headers = False
    skipped = 0
    while True:
        line = await reader.readline(MAX_HEADER_LINE)
        if not line:
            if in_headers:
                raise EOFError("the stream ended inside a message's headers")
            return None
        if not line.endswith(b"\n"):  # longer than any header: not one; skip to the end of that line
            skipped += len(line)
            if in_headers:
                raise FramingError(f"a header line longer than {MAX_HEADER_LINE} bytes")
            continue
        text = line.rstrip(b"\r\n")
        if not text:
            if not in_headers:
                continue  # blank lines between messages
            if length is None:
                raise FramingError("a message without a Content-Length header")
            return length
        if not in_headers and text.lower().startswith(b"content-type:"):
            in_headers = True  # a message may name its type first
            continue
        if not in_headers:
            at = text.lower().find(_LENGTH)
            if at < 0:
                skipped += len(line)
                continue  # not a header: the rest of a broken message
            if at > 0 or skipped:
                log.error(
                    "LSP framing: skipped %d bytes that were not a message to reach the next header",
                    skipped + at,
                )
            text = text[at:]
            in_headers = True
        name, sep, value = text.partition(b":")
        if not sep:
            raise FramingError(f"a header line without a colon: {text[:80]!r}")
        if name.strip().lower() != b"content-length":
            continue  # Content-Type and other headers
        raw = value.strip()
        if not raw.isdigit() or len(raw) > 19:
            shown = raw[:40].decode("ascii", "replace")
            raise FramingError(
                f"Content-Length {shown!r} is not a non-negative integer of at most "
                f"{max_content_length} bytes"
            )
        length = int(raw)
        if length > max_content_length:
            raise FramingError(f"Content-Length {length} is over the limit of {max_content_length} bytes")


async def run_async(
    stop_event: threading.Event,
    reader: LineReader,
    protocol: Any,
    logger: logging.Logger | None = None,
    error_handler: Callable[[Exception, type[Exception]], Any] | None = None,
    *,
    max_content_length: int = MAX_CONTENT_LENGTH,
    on_error: Callable[[str], None] | None = None,
) -> None:
    """The message loop: read a message, hand it to `protocol.handle_message`, until the stream ends or `stop_event`
    is set. Framing problems are logged (and passed to `on_error`) and the loop resynchronises."""
    logger = logger or log

    def problem(message: str) -> None:
        logger.error("LSP framing: %s", message)
        if on_error is not None:
            try:
                on_error(message)
            except Exception:  # reporting must never end the loop
                logger.exception("LSP framing: could not report the problem to the client")

    while not stop_event.is_set():
        try:
            length = await read_headers(reader, max_content_length)
        except FramingError as exc:
            problem(f"{exc}; the message is dropped and reading goes on at the next Content-Length header")
            continue
        except EOFError as exc:
            problem(f"{exc}; the session ends")
            break
        if length is None:
            break
        body = await reader.readexactly(length)
        if len(body) < length:
            problem(f"the stream ended inside a message ({len(body)} of {length} bytes); the session ends")
            break
        try:
            message = json.loads(body, object_hook=protocol.structure_message)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            problem(
                f"a message body that is not JSON ({exc}); it is dropped (a Content-Length shorter or longer "
                "than the body?)"
            )
            continue
        except Exception as exc:  # JSON, but not a message the protocol can read (bad params): as pygls does
            logger.exception("Unable to handle message")
            if error_handler is not None:
                error_handler(exc, JsonRpcException)
            continue
        try:
            protocol.handle_message(message)
        except Exception as exc:
            logger.exception("Unable to handle message")
            if error_handler is not None:
                error_handler(exc, JsonRpcException)


def _client_log(server: LanguageServer) -> Callable[[str], None]:
    def send(message: str) -> None:
        server.window_log_message(
            types.LogMessageParams(
                type=types.MessageType.Error, message=f"akgen: broken LSP message framing: {message}"
            )
        )

    return send


def start_io(
    server: LanguageServer,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    max_content_length: int = MAX_CONTENT_LENGTH,
) -> None:
    """`server.start_io()` with this module's loop (pygls's own body of `_start_io_async`, reader and loop swapped)."""
    server._stop_event = stop = threading.Event()
    reader = StdinReader(stdin or sys.stdin.buffer, server.thread_pool)
    server.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
    try:
        asyncio.run(
            run_async(
                stop,
                reader,
                server.protocol,
                log,
                server.report_server_error,
                max_content_length=max_content_length,
                on_error=_client_log(server),
            )
        )
    except BrokenPipeError:
        log.error("Connection to the client is lost! Shutting down the server.")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()


def start_tcp(
    server: LanguageServer,
    host: str,
    port: int,
    max_content_length: int = MAX_CONTENT_LENGTH,
    token: str | None = None,
) -> None:
    """`server.start_tcp(host, port)` with this module's loop. With a `token`, a connection must first send the
    header line ``Akgen-Token: <token>`` (within 10 s); any other connection is closed unanswered."""
    server._stop_event = stop = threading.Event()

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if token is not None:
            from akgen_lsp.server.peer import token_ok

            try:
                first = await asyncio.wait_for(reader.readline(), 10.0)
            except (asyncio.TimeoutError, ValueError, OSError):
                first = b""
            if not token_ok(first[:MAX_HEADER_LINE], token):
                log.warning(
                    "closed a TCP connection from %s without the session's token",
                    writer.get_extra_info("peername"),
                )
                writer.close()
                return
        server.protocol.set_writer(writer)  # type: ignore[arg-type]
        await run_async(
            stop,
            StreamReaderAdapter(reader),
            server.protocol,
            log,
            server.report_server_error,
            max_content_length=max_content_length,
            on_error=_client_log(server),
        )
        server.shutdown()

    async def serve() -> None:
        tcp = await asyncio.start_server(connection, host, port)
        log.info("Serving on %s", ", ".join(str(s.getsockname()) for s in tcp.sockets))
        async with tcp:
            await tcp.serve_forever()

    try:
        asyncio.run(serve())
    except asyncio.CancelledError:
        log.debug("Server was cancelled")
