"""What a feature needs from the server, as a typing Protocol: features depend on this, not on `AkgenServer`.

`server.AkgenServer` implements it; `protocol.py` wires handlers to features and hands them the server. A feature
module therefore never imports the server class, and the server imports the features it registers: one direction.
A test can hand a feature any object with these members.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from lsprotocol import types
from pygls.workspace import TextDocument

from akgen_lsp.config import Settings
from akgen_lsp.findings import Finding
from akgen_lsp.server.documents import DocumentState


class FeatureHost(Protocol):
    """The server as the features see it: documents, settings, publishing, telling the user, progress."""

    def document(self, uri: str) -> TextDocument: ...

    def is_open(self, uri: str) -> bool: ...

    def settings_for(self, doc: TextDocument) -> Settings: ...

    def is_ascendc(self, doc: TextDocument, settings: Settings | None = None) -> bool: ...

    def state(self, uri: str) -> DocumentState: ...

    def publish_findings(
        self,
        uri: str,
        source: str,
        findings: Sequence[Finding],
        version: int | None = None,
        text: str | None = None,
    ) -> None: ...

    def publish_sources(
        self,
        uri: str,
        by_source: Mapping[str, Sequence[Finding]],
        version: int | None = None,
        text: str | None = None,
    ) -> None: ...

    def publish_file(self, uri: str, findings: Sequence[Finding]) -> None: ...

    def clear_source(self, uri: str, source: str) -> None: ...

    def clear_sources(self, uri: str, sources: Sequence[str]) -> None: ...

    def show(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None: ...

    def show_once(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> bool: ...

    def log(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None: ...

    async def begin_progress(self, title: str, cancellable: bool = False) -> str | None: ...

    def report_progress(self, token: str | None, message: str, percentage: int | None = None) -> None: ...

    def on_progress_cancel(self, token: str | None, callback: Callable[[], None]) -> None: ...

    def end_progress(self, token: str | None, message: str) -> None: ...

    def notify_status(self, **fields: Any) -> None: ...
