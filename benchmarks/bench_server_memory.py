"""Resident memory of the language server after opening every file in samples/ (target: <= 120 MB, no model).

    python benchmarks/bench_server_memory.py [--samples samples] [--features]

Starts `akgen serve` over stdio, initializes it with VS Code's capabilities (as pytest-lsp records them), opens every file under the samples folder, waits
until the diagnostics of every AscendC file have been published, and reads VmRSS/VmHWM from /proc/<pid>/status.
With ``--features`` it also asks for a hover, a completion and a signature help in each AscendC file first, so the
catalog's documentation caches are counted too. Prints the RSS and the time to first diagnostics.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pytest_lsp import client_capabilities

from akgen_lsp.ascendc.lint import is_ascendc

REPO = Path(__file__).resolve().parents[1]
SERVER = [sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve"]


def rss_mb(pid: int) -> tuple[float, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


async def run(samples: Path, features: bool) -> None:
    client = LanguageClient("bench", "0")
    published: dict[str, int] = {}
    done = asyncio.Event()
    expected: set[str] = set()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        published[params.uri] = len(params.diagnostics)
        if expected and expected <= set(published):
            done.set()

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def on_log(params: types.LogMessageParams) -> None:
        pass

    await client.start_io(*SERVER)
    pid = client._server.pid  # the subprocess pygls started
    t_start = time.perf_counter()
    await client.initialize_async(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=samples.resolve().as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=samples.resolve().as_uri(), name="samples")],
        )
    )
    client.initialized(types.InitializedParams())
    idle_rss, _ = rss_mb(pid)
    files = sorted(p for p in samples.rglob("*") if p.is_file())
    texts: dict[str, str] = {}
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        uri = path.resolve().as_uri()
        if is_ascendc(path, text):
            expected.add(uri)
            texts[uri] = text
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=text)
            )
        )
    t_open = time.perf_counter()
    await asyncio.wait_for(done.wait(), 120)
    t_diags = time.perf_counter() - t_open
    latencies: dict[str, list[float]] = {"hover": [], "completion": [], "signatureHelp": []}
    if features:
        for uri, text in texts.items():
            doc = types.TextDocumentIdentifier(uri=uri)
            index = max(text.find("DataCopy("), 0)
            line = text.count("\n", 0, index)
            char = index - (text.rfind("\n", 0, index) + 1)
            for _ in range(3):
                t0 = time.perf_counter()
                await client.text_document_hover_async(types.HoverParams(doc, types.Position(line, char + 2)))
                latencies["hover"].append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                await client.text_document_completion_async(types.CompletionParams(doc, types.Position(line, char)))
                latencies["completion"].append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                await client.text_document_signature_help_async(
                    types.SignatureHelpParams(doc, types.Position(line, char + len("DataCopy(")))
                )
                latencies["signatureHelp"].append(time.perf_counter() - t0)
    rss, hwm = rss_mb(pid)
    print(f"server: startup + initialize {t_open - t_start:.2f} s; RSS after initialize {idle_rss:.1f} MB")
    print(f"opened {len(files)} files ({len(expected)} AscendC); all diagnostics after {t_diags:.2f} s; "
          f"{sum(published.values())} diagnostics")
    print(f"RSS {rss:.1f} MB (peak {hwm:.1f} MB){' after hover/completion/signature help' if features else ''} "
          "(target <= 120 MB)")
    if features:
        print("round trip, median (max): " + ", ".join(
            f"{name} {statistics.median(v) * 1000:.1f} ms ({max(v) * 1000:.1f})" for name, v in latencies.items()
        ))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=Path, default=REPO / "samples")
    ap.add_argument("--features", action="store_true")
    args = ap.parse_args()
    asyncio.run(run(args.samples, args.features))


if __name__ == "__main__":
    main()
