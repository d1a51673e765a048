"""Check ahead: while the user pauses typing in an AscendC file, its save check starts on the buffer's text, so that
the save that follows publishes at once (or as soon as that check ends) instead of compiling and running then.

A pause of ``check.ahead_ms`` after the last change (setting ``check.ahead``, on by default; never when
``check_on_save`` is off or the toolchain is ``none``) starts a job of the check worker on the document's text (the
repair's path: the text checked as the file, in a copy of its folder, findings named at the real files). Typing
again cancels it (its process tree is killed). On save, `take` hands the save check that job when it checked the very
text saved, with the same settings, and nothing else changed since: another document saved, a watched file changed
(akgen.toml, a task file, a header) or the configuration changed (`invalidate`); otherwise the save checks as before.
Nothing is published from a check ahead by itself: only the save shows its result.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pygls.workspace import TextDocument

from akgen_lsp.check.result import CheckResult
from akgen_lsp.check.worker import plain_settings
from akgen_lsp.config import Settings

# check(path, settings, text) -> the worker's result for `text` checked as the file at `path`
CheckText = Callable[[str, Mapping[str, Any], str], Awaitable[CheckResult]]


def _digest(text: str, settings: Mapping[str, Any]) -> str:
    h = hashlib.sha256(text.encode("utf-8", "surrogatepass"))
    h.update(json.dumps(settings, sort_keys=True, default=str).encode())
    return h.hexdigest()


@dataclass
class _Ahead:
    generation: int
    task: asyncio.Task[CheckResult] | None = None
    digest: str = ""  # of the text and settings checked, set when the check starts (past the pause)


class CheckAhead:
    """The checks ahead of one server: at most one per document, for its latest text."""

    def __init__(self) -> None:
        self._ahead: dict[str, _Ahead] = {}
        self.generation = 0  # bumped by whatever a check's result may depend on besides the document's text

    def enabled(self, settings: Settings) -> bool:
        return (
            bool(settings["check.ahead"])
            and settings["check_on_save"] != "off"
            and str(settings["toolchain.name"]) != "none"
        )

    def schedule(self, doc: TextDocument, settings: Settings, check: CheckText) -> None:
        """After a change: cancel the check ahead of the previous text, start one for this text after the pause
        (only then is anything computed: a change is a keystroke)."""
        self.cancel(doc.uri)
        if not self.enabled(settings):
            return
        delay = max(0.0, float(settings["check.ahead_ms"] or 0) / 1000.0)
        text, path = doc.source, doc.path
        ahead = _Ahead(self.generation)

        async def run() -> CheckResult:
            await asyncio.sleep(delay)
            plain = plain_settings(settings)
            ahead.digest = _digest(text, plain)
            return await check(path, plain, text)

        ahead.task = asyncio.ensure_future(run())
        ahead.task.add_done_callback(_quiet)
        self._ahead[doc.uri] = ahead

    def take(self, doc: TextDocument, plain: Mapping[str, Any]) -> asyncio.Task[CheckResult] | None:
        """The check ahead of exactly this text and settings, still valid (running or done, not failed); None if
        there is none (the save then checks as before; also when the pause had not ended: the save does not wait)."""
        ahead = self._ahead.pop(doc.uri, None)
        if ahead is None or ahead.task is None:
            return None
        task = ahead.task
        usable = (
            bool(ahead.digest)
            and ahead.digest == _digest(doc.source, plain)
            and ahead.generation == self.generation
            and not task.cancelled()
            and not (task.done() and task.exception() is not None)
        )
        if not usable:
            task.cancel()
            return None
        return task

    def cancel(self, uri: str) -> None:
        ahead = self._ahead.pop(uri, None)
        if ahead is not None and ahead.task is not None:
            ahead.task.cancel()

    def invalidate(self) -> None:
        """Something besides the documents' texts changed: no check ahead started before is used."""
        self.generation += 1
        for uri in list(self._ahead):
            self.cancel(uri)

    async def close(self) -> None:
        tasks = [a.task for a in self._ahead.values() if a.task is not None]
        self._ahead.clear()
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*tasks, return_exceptions=True)


def _quiet(task: asyncio.Task[Any]) -> None:
    """A check ahead that failed is only not used (the save then checks itself and says what went wrong)."""
    if not task.cancelled():
        task.exception()
