"""Work-done progress (``window/workDoneProgress/create`` + ``$/progress``) for clients that advertise it."""

from __future__ import annotations

import asyncio
import logging
import uuid

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

    async def begin(self, title: str, message: str | None = None) -> str | None:
        """A new progress with `title`; None when the client has no progress or refused it (work goes on)."""
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
            token, types.WorkDoneProgressBegin(title=title, message=message, cancellable=False)
        )
        return token

    def end(self, token: str | None, message: str) -> None:
        if token is None:
            return
        try:
            self.server.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))
        except Exception:  # the client is gone
            log.debug("could not end progress %s", token)
        self.server.work_done_progress.tokens.pop(token, None)
