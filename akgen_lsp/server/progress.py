"""Work-done progress (``window/workDoneProgress/create`` + ``$/progress``) for clients that advertise it."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable

from lsprotocol import types
from pygls.lsp.server import LanguageServer

log = logging.getLogger(__name__)


class Progress:
    def __init__(self, server: LanguageServer) -> None:
        self.server = server

    def supported(self) -> bool:
        try:
            window = self.server.client_capabilities.window
        except AttributeError:  # not initialized yet
            return False
        return bool(window and window.work_done_progress)

    async def begin(self, title: str, message: str | None = None, cancellable: bool = False) -> str | None:
        """A new progress with `title`; None when the client has no progress or refused it (work goes on). A
        `cancellable` one shows a cancel button: `on_cancel` says what it does."""
        if not self.supported():
            return None
        token = f"akgen-{uuid.uuid4().hex}"
        try:
            await asyncio.wait_for(self.server.work_done_progress.create_async(token), 5.0)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the client refused or did not answer
            log.debug("no work-done progress: %s", exc)
            return None
        self.server.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title=title, message=message, cancellable=cancellable)
        )
        return token

    def report(self, token: str | None, message: str, percentage: int | None = None) -> None:
        if token is None:
            return
        try:
            self.server.work_done_progress.report(
                token, types.WorkDoneProgressReport(message=message, percentage=percentage)
            )
        except Exception:  # the client is gone
            log.debug("could not report progress %s", token)

    def on_cancel(self, token: str | None, callback: Callable[[], None]) -> None:
        """Call `callback` (on the event loop) when the client cancels the progress `token`."""
        future = self.server.work_done_progress.tokens.get(token) if token is not None else None
        if future is None:
            return
        loop = asyncio.get_running_loop()

        def done(f: object) -> None:
            if getattr(f, "cancelled", lambda: False)():
                loop.call_soon_threadsafe(callback)

        future.add_done_callback(done)

    def end(self, token: str | None, message: str) -> None:
        if token is None:
            return
        try:
            self.server.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))
        except Exception:  # the client is gone
            log.debug("could not end progress %s", token)
        self.server.work_done_progress.tokens.pop(token, None)
