"""watchdog on the workspace: files changed outside the editor (a `git checkout`, a generator, a CANN build) reach
the server, which re-lints the open documents they affect, re-runs their checks, and reads build logs.

The observer watches each folder of the workspace scan (`workspace.scan`: bounded, VCS/venv/cache folders skipped,
build folders only for their logs) with one non-recursive inotify watch, adding folders as they are created. Events
come from watchdog's thread; they are handed to the event loop and debounced (`DEBOUNCE_S`), so a checkout of
hundreds of files costs one pass. The editor's own ``workspace/didChangeWatchedFiles`` go through `changed` too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from akgen_lsp.config import CONFIG_FILE
from akgen_lsp.safety import read_regular
from akgen_lsp.server.features import build_logs
from akgen_lsp.server.features.commands import CommandHost
from akgen_lsp.server.features.save_check import text_digest
from akgen_lsp.server.features.workspace_diagnostics import WorkspaceLint
from akgen_lsp.server.workspace import MAX_DIRS, SKIPPED, SOURCE_SUFFIXES, WorkspaceFiles, is_build_dir

log = logging.getLogger(__name__)

DEBOUNCE_S = 0.3
MAX_DISK_TEXT = 8 << 20
_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


class WatchHost(CommandHost, Protocol):
    files: WorkspaceFiles
    workspace_lint: WorkspaceLint
    watcher: WorkspaceWatcher | None
    watcher_pending: dict[
        str, str
    ]  # open documents changed on disk: the digest of the text the editor will load

    @property
    def workspace(self) -> Any: ...

    def relint_all(self) -> None: ...

    def schedule_lint(self, uri: str, delay_s: float) -> None: ...

    def files_changed(self, paths: list[str]) -> None: ...


def _watchable(folder: Path, root: Path) -> bool:
    """Inside the workspace, not a skipped folder, not deeper than two levels inside a build folder (logs only)."""
    try:
        parts = folder.relative_to(root).parts
    except ValueError:
        return False
    if any(part in SKIPPED or part.startswith(".") for part in parts):
        return False
    build = next((i for i, part in enumerate(parts) if is_build_dir(Path(part))), None)
    return build is None or len(parts) - build <= 3


def interesting(path: str) -> bool:
    p = Path(path)
    if any(part in SKIPPED for part in p.parts):
        return False
    return p.name == CONFIG_FILE or p.suffix.lower() in SOURCE_SUFFIXES or build_logs.is_build_log(p)


class _Handler(FileSystemEventHandler):
    def __init__(self, watcher: WorkspaceWatcher) -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        paths = [str(event.src_path)]
        if getattr(event, "dest_path", ""):
            paths.append(str(event.dest_path))
        if event.is_directory:
            if event.event_type in ("created", "moved"):
                self.watcher.from_thread(self.watcher.add_folder, paths[-1])
            return
        for path in paths:
            if interesting(path):
                self.watcher.from_thread(self.watcher.push, path)


class WorkspaceWatcher:
    def __init__(
        self, loop: asyncio.AbstractEventLoop, root: Path, on_batch: Any, debounce_s: float = DEBOUNCE_S
    ) -> None:
        self.loop = loop
        self.root = root
        self.on_batch = on_batch
        self.debounce_s = debounce_s
        self.observer = Observer()
        self.observer.daemon = True
        self.handler = _Handler(self)
        self.folders: set[str] = set()
        self.pending: set[str] = set()
        self._timer: asyncio.TimerHandle | None = None

    def start(self, folders: Iterable[Path]) -> None:
        for folder in folders:
            self.add_folder(str(folder), new=False)
        self.observer.start()

    def add_folder(self, folder: str, new: bool = True) -> None:
        """Watch `folder`; a `new` one (created while we watch) is also read now, with its sub-folders, since
        files may have landed in it before its watch existed."""
        path = Path(folder)
        if folder in self.folders or len(self.folders) >= MAX_DIRS or not _watchable(path, self.root):
            return
        try:
            self.observer.schedule(self.handler, folder, recursive=False)
        except OSError as exc:  # gone already, or out of inotify watches
            log.debug("cannot watch %s: %s", folder, exc)
            return
        self.folders.add(folder)
        if not new:
            return
        try:
            entries = list(path.iterdir())
        except OSError:
            return
        for entry in entries:
            if entry.is_dir():
                self.add_folder(str(entry))
            elif interesting(str(entry)):
                self.push(str(entry))

    def from_thread(self, fn: Any, *args: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server is exiting
            self.loop.call_soon_threadsafe(fn, *args)

    def push(self, path: str) -> None:
        self.pending.add(path)
        if self._timer is None:
            self._timer = self.loop.call_later(self.debounce_s, self._flush)

    def _flush(self) -> None:
        self._timer = None
        batch, self.pending = sorted(self.pending), set()
        if batch:
            self.on_batch(batch)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        with contextlib.suppress(RuntimeError):
            self.observer.stop()


def start(host: WatchHost) -> WorkspaceWatcher | None:
    """Watch the workspace root of `host` (nothing when it is not worth walking or watchdog cannot start)."""
    scan = host.files.get()
    if not scan.dirs:
        return None
    watcher = WorkspaceWatcher(asyncio.get_running_loop(), scan.root, lambda batch: changed(host, batch))
    try:
        watcher.start(scan.dirs)
    except Exception as exc:  # no inotify (a container), watchdog broken: the editor's own events still work
        log.warning("not watching the workspace for changes: %s", exc)
        return None
    host.watcher = watcher
    return watcher


def _includes(text: str) -> set[str]:
    return {Path(name).name for name in _INCLUDE.findall(text[:200_000])}


def changed(host: WatchHost, paths: Iterable[str]) -> None:
    """Files changed on disk: settings, open documents that include them, build logs, the workspace pull."""
    paths = [p for p in paths if p]
    if not paths:
        return
    host.files_changed(paths)
    configs = [Path(p).parent for p in paths if Path(p).name == CONFIG_FILE]
    if configs:
        host.settings.clear()
        host.relint_all()
        # its tasks may have changed (a [[task]] added, a shape, a reference): every open kernel below it that was
        # checked is checked again, the ones that had no task too
        for uri in _open_kernels(host):
            doc = host.document(uri)
            if any(folder == Path(doc.path).parent or folder in Path(doc.path).parents for folder in configs):
                _recheck(host, uri, with_no_task=True)
    logs = [Path(p) for p in paths if build_logs.is_build_log(p)]
    sources = [Path(p) for p in paths if Path(p).suffix.lower() in SOURCE_SUFFIXES]
    if logs:
        _read_logs(host, logs)
    if sources:
        _sources_changed(host, sources)
    host.workspace_lint.changed()


def _read_logs(host: WatchHost, logs: list[Path]) -> None:
    root = host.files.root
    scan = host.files.get()
    state = host.workspace_lint
    touched: set[str] = set()
    for log_path in logs:
        touched.update(state.log_findings.get(str(log_path), {}))
        if not log_path.is_file():
            state.log_findings.pop(str(log_path), None)
            continue
        project = build_logs.project_root(log_path, root)
        sources = [s for s in scan.sources if project in s.parents]
        by_file = build_logs.read_log(log_path, sources)
        state.log_findings[str(log_path)] = by_file
        touched.update(by_file)
        log.info(
            "build log %s: %d findings in %d files", log_path, sum(map(len, by_file.values())), len(by_file)
        )
    for path in touched:
        uri = Path(path).as_uri()
        if host.is_open(uri):
            host.publish_findings(uri, build_logs.LOG_SOURCE, state.logged(path))


def _open_kernels(host: WatchHost) -> list[str]:
    out = []
    for uri in list(host.workspace.text_documents):
        doc = host.document(uri)
        if doc.path and host.is_ascendc(doc):
            out.append(uri)
    return out


def _recheck(host: WatchHost, uri: str, with_no_task: bool = False) -> None:
    """Check the open kernel `uri` again, if a check of it ran before (and had a task, unless `with_no_task`) and
    checks are on; a check already running for it is replaced."""
    doc = host.document(uri)
    last = host.checks.last.get(uri)
    settings = host.settings_for(doc)
    if last is None or (last.state == "no task" and not with_no_task) or settings["check_on_save"] == "off":
        return
    host.scheduler.schedule(uri, "save:check", lambda d=doc, s=settings: host.checks.check(host, d, s))


def _disk_text(path: Path) -> str | None:
    try:
        return read_regular(path, MAX_DISK_TEXT).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _sources_changed(host: WatchHost, sources: list[Path]) -> None:
    names = {p.name for p in sources}
    folders = {p.parent for p in sources}
    changed_uris = {p.as_uri(): p for p in sources}
    for uri in _open_kernels(host):
        doc = host.document(uri)
        if uri in changed_uris:
            _open_file_changed(host, uri, changed_uris[uri])
            continue
        here = Path(doc.path).parent
        if here not in folders and not names & _includes(doc.source):
            continue
        host.schedule_lint(uri, 0.0)
        _recheck(host, uri)


def _open_file_changed(host: WatchHost, uri: str, path: Path) -> None:
    """An open kernel changed on disk. The editor's own save wrote it: its check is under way (the text it started
    from is this one). Else the editor reloads it (VS Code does for a file with no unsaved edits): it is checked once
    its text is the disk's, now or at the didChange that brings it (`document_changed`)."""
    text = _disk_text(path)
    if text is None or host.checks.started.get(uri) == text_digest(text):
        return
    if host.document(uri).source == text:
        _recheck(host, uri)
    else:
        host.watcher_pending[uri] = text_digest(text)


def document_changed(host: WatchHost, uri: str) -> None:
    """After a didChange: the editor has reloaded a file that changed on disk: check it."""
    wanted = host.watcher_pending.get(uri)
    if wanted is not None and text_digest(host.document(uri).source) == wanted:
        del host.watcher_pending[uri]
        _recheck(host, uri)
