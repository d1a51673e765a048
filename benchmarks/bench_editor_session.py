"""Save -> diagnostics through a real LSP client, and the server's memory after an hour-like session.

    python benchmarks/bench_editor_session.py save [--runs 7] [--cold] [--pause 0.3]
    python benchmarks/bench_editor_session.py session [--edits 500] [--saves 50]

Both start `akgen serve` over stdio with pygls's LanguageClient (VS Code's capabilities, as pytest-lsp records them)
on a copy of samples/, and do what an editor does: didOpen, didChange (incremental), the file written to disk, then
willSave (Manual) + didSave.

`save`: for kernels/add_custom.cpp (Level 1) and kernels/matmul_cube.cpp: the first save of a session (a new
server; the first AscendC file opened starts the check worker and builds the precompiled header; the save comes
`--gap` seconds after the open, as a person reads before saving; `--cold`: an empty build cache, as on the first day),
then `--runs` saves each after an edit (a comment line added: a new build every time) and `--pause` seconds (0.3:
a save right after typing; the server's check ahead (`check.ahead`, 0.4 s into a pause) does not start), timed from
didSave to the publishDiagnostics that carries the check's result. Prints each series and its median. With a pause
longer than `check.ahead_ms` the check starts before the save, which then shows its result when it ends.
Targets: warm save after an edit <= 0.6 s median for the Level-1 kernel; first save <= 3 s.

`session`: every file of samples/ open, `--edits` edits spread over the AscendC files (typing and deleting a comment
line), `--saves` saves of the kernels that have a task (each waits for its result), then the server's and the check
worker's resident memory (VmRSS, peak VmHWM) from /proc. Target: server RSS <= 150 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import to_fs_path
from pytest_lsp import client_capabilities

from akgen_lsp.ascendc.lint import is_ascendc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server_memory import rss_mb

REPO = Path(__file__).resolve().parents[1]
SERVER = [sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve"]
TASK_KERNELS = ["kernels/add_custom.cpp", "kernels/elementwise_tail.cpp", "kernels/row_reduce_sum.cpp",
                "kernels/exp_half.cpp", "kernels/matmul_cube.cpp", "broken/runtime/double_free_tensor.cpp"]


def children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_bytes()
            except OSError:
                continue
            if int(stat[stat.rfind(b")") + 2 :].split()[1]) == pid:
                out.append(int(entry))
    return out


class Editor:
    """A pygls client that behaves like an editor: documents, versions, the file on disk, results awaited."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.client = LanguageClient("bench", "0")
        self.versions: dict[str, int] = {}
        self.texts: dict[str, str] = {}
        self.results: dict[str, list[tuple[float, int]]] = {}  # uri -> (time, version) of check results
        self.job_seconds: list[float] = []  # the check worker's own time per check (akgen/status)
        self.finished: dict[str, list[float]] = {}  # file name -> end times of its save checks' progress
        self.changed = asyncio.Event()

        @self.client.feature("akgen/status")
        def on_status(params: object) -> None:
            check = getattr(params, "check", None) or (params.get("check") if isinstance(params, dict) else None)
            seconds = getattr(check, "seconds", None) if not isinstance(check, dict) else check.get("seconds")
            state = getattr(check, "state", None) if not isinstance(check, dict) else check.get("state")
            if seconds and state != "running":
                self.job_seconds.append(float(seconds))

        titles: dict[str, str] = {}

        @self.client.feature(types.PROGRESS)
        def on_progress_report(params: types.ProgressParams) -> None:
            # the save check's work-done progress ("akgen: checking <file> on sim") ends right after it published
            value = params.value if isinstance(params.value, dict) else getattr(params.value, "__dict__", {})
            kind, token = value.get("kind"), str(params.token)
            if kind == "begin":
                titles[token] = str(value.get("title") or "")
            elif kind == "end" and titles.get(token, "").startswith("akgen: checking "):
                name = titles.pop(token).removeprefix("akgen: checking ").split(" on ")[0]
                self.finished.setdefault(name, []).append(time.perf_counter())
                self.changed.set()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            if any(d.code == "AKGEN-ESTIMATE" for d in params.diagnostics):
                self.results.setdefault(params.uri, []).append((time.perf_counter(), params.version or 0))
                self.changed.set()

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def on_log(params: types.LogMessageParams) -> None:
            pass

        @self.client.feature(types.WINDOW_SHOW_MESSAGE)
        def on_show(params: types.ShowMessageParams) -> None:
            pass

        @self.client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def on_progress(params: types.WorkDoneProgressCreateParams) -> None:
            return None

    async def start(self, env: dict[str, str] | None = None) -> int:
        await self.client.start_io(*SERVER, env=env)
        caps = client_capabilities("visual-studio-code")
        caps.experimental = {**(caps.experimental or {}), "akgenStatus": True}  # as our extension asks
        await self.client.initialize_async(types.InitializeParams(
            capabilities=caps, root_uri=self.workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=self.workspace.as_uri(), name="samples")]))
        self.client.initialized(types.InitializedParams())
        return int(self.client._server.pid)  # type: ignore[union-attr]

    def open(self, relative: str) -> str:
        path = self.workspace / relative
        uri = path.as_uri()
        text = path.read_text(encoding="utf-8", errors="replace")
        self.versions[uri], self.texts[uri] = 1, text
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=text)))
        return uri

    def edit(self, uri: str, line: int, text: str) -> None:
        """Insert `text` at the start of `line` (an incremental change, as editors send them)."""
        lines = self.texts[uri].split("\n")
        lines[line] = text + lines[line]
        self.texts[uri] = "\n".join(lines)
        self.versions[uri] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(line, 0), types.Position(line, 0)), text=text)]))

    async def save(self, uri: str, timeout: float = 300.0) -> float:
        """Write the file, willSave(Manual) + didSave; seconds until the check's result for this version: its
        diagnostics (the estimate line, with this version) and the end of the check's work-done progress, which comes
        right after them (an edit republishes the last result moved to the new text, with the new version: that alone
        is not the check's)."""
        Path(to_fs_path(uri) or "").write_text(self.texts[uri], encoding="utf-8")
        doc = types.TextDocumentIdentifier(uri=uri)
        before = len(self.results.get(uri, []))
        version = self.versions[uri]
        t0 = time.perf_counter()
        self.client.text_document_will_save(types.WillSaveTextDocumentParams(doc, types.TextDocumentSaveReason.Manual))
        self.client.text_document_did_save(types.DidSaveTextDocumentParams(doc))
        deadline = t0 + timeout
        while time.perf_counter() < deadline:
            got = self.results.get(uri, [])[before:]
            published = [t for t, v in got if v == version]
            ended = [t for t in self.finished.get(Path(to_fs_path(uri) or "").name, []) if t >= t0]
            if published and ended:
                return ended[0] - t0
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.05, deadline - time.perf_counter()))
            except asyncio.TimeoutError:
                break
        raise TimeoutError(f"no check result for {uri} within {timeout} s")

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


def copy_samples() -> Path:
    root = Path(tempfile.mkdtemp(prefix="akgen-bench-session-"))
    shutil.copytree(REPO / "samples", root / "samples")
    return root / "samples"


async def bench_save(runs: int, gap: float, cold: bool, pause: float = 0.3) -> None:
    env = dict(os.environ)
    cache = None
    if cold:
        cache = tempfile.mkdtemp(prefix="akgen-cold-cache-")
        env["AKGEN_CACHE_DIR"] = cache
    for relative in ("kernels/add_custom.cpp", "kernels/matmul_cube.cpp"):
        workspace = copy_samples()
        editor = Editor(workspace)
        await editor.start(env)
        uri = editor.open(relative)
        await asyncio.sleep(gap)
        first = await editor.save(uri)
        warm = []
        for i in range(runs):
            editor.edit(uri, 0, f"// edit {i}\n")
            await asyncio.sleep(pause)  # from the last keystroke to Ctrl+S (the lint of the edit runs meanwhile)
            warm.append(await editor.save(uri))
        jobs = editor.job_seconds[-runs:]
        await editor.stop()
        shutil.rmtree(workspace.parent, ignore_errors=True)
        if jobs:
            print(f"{relative}: the check worker's own time per check after an edit: median {statistics.median(jobs):.2f} s")
        print(f"{relative}: first save {first:.2f} s ({'cold' if cold else 'warm'} build cache, {gap:.0f} s after "
              f"opening); after an edit ({pause:g} s from the last keystroke to the save): median "
              f"{statistics.median(warm):.2f} s, min {min(warm):.2f}, "
              f"max {max(warm):.2f} ({', '.join(f'{x:.2f}' for x in warm)})")
    if cache:
        shutil.rmtree(cache, ignore_errors=True)


async def bench_session(edits: int, saves: int) -> None:
    workspace = copy_samples()
    editor = Editor(workspace)
    t0 = time.perf_counter()
    pid = await editor.start()
    files = sorted(p.relative_to(workspace).as_posix() for p in workspace.rglob("*") if p.is_file())
    ascendc = [f for f in files if is_ascendc(workspace / f, None)]
    for f in files:
        editor.open(f)
    await asyncio.sleep(3.0)
    start_rss, _ = rss_mb(pid)
    uris = [(workspace / f).as_uri() for f in ascendc]
    for i in range(edits):
        uri = uris[i % len(uris)]
        editor.edit(uri, 0, " " if i % 2 == 0 else "")
        if i % 10 == 0:
            await asyncio.sleep(0.05)
    await asyncio.sleep(2.0)
    times = []
    for i in range(saves):
        uri = (workspace / TASK_KERNELS[i % len(TASK_KERNELS)]).as_uri()
        editor.edit(uri, 0, f"// save {i}\n")
        times.append(await editor.save(uri))
    await asyncio.sleep(2.0)
    rss, hwm = rss_mb(pid)
    workers = children(pid)
    worker_mem = [rss_mb(w) for w in workers]
    await editor.stop()
    shutil.rmtree(workspace.parent, ignore_errors=True)
    print(f"session: {len(files)} files open ({len(ascendc)} AscendC), {edits} edits, {saves} saves in "
          f"{time.perf_counter() - t0:.0f} s; save -> result median {statistics.median(times):.2f} s")
    print(f"server RSS {rss:.1f} MB (peak {hwm:.1f} MB; {start_rss:.1f} MB after opening) (target <= 150 MB)")
    for w, (r, h) in zip(workers, worker_mem, strict=True):
        print(f"check worker {w}: RSS {r:.1f} MB (peak {h:.1f} MB; its jobs are forked from it and gone after each check)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("save")
    s.add_argument("--runs", type=int, default=7)
    s.add_argument("--gap", type=float, default=10.0, help="seconds between opening the kernel and its first save")
    s.add_argument("--cold", action="store_true", help="an empty build cache (the first session after installing)")
    s.add_argument("--pause", type=float, default=0.3, help="seconds from the edit to the save")
    m = sub.add_parser("session")
    m.add_argument("--edits", type=int, default=500)
    m.add_argument("--saves", type=int, default=50)
    args = ap.parse_args()
    if args.what == "save":
        asyncio.run(bench_save(args.runs, args.gap, args.cold, args.pause))
    else:
        asyncio.run(bench_session(args.edits, args.saves))


if __name__ == "__main__":
    main()
