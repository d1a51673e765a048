"""Inline completion (LSP 3.18 ``textDocument/inlineCompletion``) over the model layer's `CompletionService`.

The model package is imported lazily, on the first request: the server starts fast and works without it (no
items). One service lives per distinct model/completion configuration and is closed when the settings change.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import logging
from pathlib import Path
from typing import Any

from lsprotocol import types

from akgen_lsp.config import Settings
from akgen_lsp.server.convert import Lines

log = logging.getLogger(__name__)
SERVICE_MODULE = "akgen_lsp.model.service"


def service_available() -> bool:
    try:
        return importlib.util.find_spec(SERVICE_MODULE) is not None
    except (ImportError, ValueError):
        return False


class InlineCompletions:
    def __init__(self) -> None:
        self._service: Any = None
        self._key: tuple[Any, ...] | None = None
        self._failed_key: tuple[Any, ...] | None = None
        self.problem: str | None = None
        self.note: str | None = None  # what model routing chose for a new service (the server logs it once)
        self._said_missing: set[str] = set()  # the backends whose missing package was shown (once each)

    @staticmethod
    def _settings_key(settings: Settings) -> tuple[Any, ...]:
        values = settings.as_dict()
        return tuple(
            sorted(
                (k, repr(v))
                for k, v in values.items()
                if k.startswith(("model.", "completion.", "arch", "cann"))
            )
        )

    async def _service_for(self, settings: Settings, folder: Path | None) -> Any:
        """The service of `settings`; `folder` (the document's) is where model routing looks for models/ when no
        akgen.toml configured it."""
        key = (*self._settings_key(settings), str(folder))
        if key == self._key and self._service is not None:
            return self._service
        if key == self._failed_key:
            return None
        await self.close()
        if not service_available():
            return None
        self._missing_backend(settings)
        try:
            module = importlib.import_module(SERVICE_MODULE)
            self._service = module.CompletionService(settings, workspace=folder)
            if getattr(self._service, "route_note", ""):
                self.note = f"akgen: inline completion: {self._service.route_note}"
        except Exception as exc:  # a model that cannot start must not take the server down
            self._failed_key = key
            self.problem = f"akgen: inline completion is off: {exc}"
            log.exception("cannot start the completion service")
            return None
        self._key = key
        return self._service

    def _missing_backend(self, settings: Settings) -> None:
        """A configured model whose backend's package is not installed: `problem` (the server shows it, once per
        backend) says so with the install command; completions meanwhile come from the catalog."""
        from akgen_lsp.model.backends.needs import backend_missing

        backend = str(settings["model.backend"])
        if backend == "none" or backend in self._said_missing:
            return
        missing = backend_missing(backend)
        if missing:
            self._said_missing.add(backend)
            self.problem = (
                f"akgen: model.backend is {backend} ({settings.origin('model.backend')}), but {missing}. "
                "Until then completions come from the Ascend C catalog."
            )

    async def complete(self, text: str, path: str, line: int, character: int, settings: Settings) -> Any:
        """The service's `InlineResult` for the cursor (0-based line, code points), or None."""
        if not settings["completion.enable"]:
            return None
        service = await self._service_for(settings, Path(path).parent if path else None)
        if service is None:
            return None
        return await service.complete(text, path, line, character)

    async def close(self) -> None:
        service, self._service, self._key = self._service, None, None
        if service is None:
            return
        try:
            result = service.close()
            if inspect.isawaitable(result):
                await result
        except Exception:
            log.exception("closing the completion service failed")


def to_items(result: Any, line: int, character: int, lines: Lines) -> list[types.InlineCompletionItem]:
    """One inline item from an `InlineResult`; a range that is not on one line becomes the cursor position."""
    text = getattr(result, "text", "")
    if not text:
        return []
    start = (getattr(result, "start_line", line), getattr(result, "start_character", character))
    end = (getattr(result, "end_line", line), getattr(result, "end_character", character))
    if start[0] != end[0]:
        start = end = (line, character)
    rng = types.Range(lines.position(start[0] + 1, start[1] + 1), lines.position(end[0] + 1, end[1] + 1))
    snippet = getattr(result, "snippet", None)
    if snippet:
        # a call's parameters as tab stops: accepting the ghost text lets the user fill them in turn (LSP 3.18
        # StringValue), not literal parameter names to delete; it starts at the cursor as the text does
        return [types.InlineCompletionItem(insert_text=types.StringValue(value=snippet), range=rng)]
    return [types.InlineCompletionItem(insert_text=text, range=rng)]
