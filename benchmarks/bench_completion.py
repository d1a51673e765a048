"""Completion pipeline figures with the tiny random GGUF (akgen_lsp.model.tiny) through llama.cpp.

    python benchmarks/bench_completion.py [--runs 30] [--file samples/....cpp] [--json] [--server]

Prints:
- pipeline / raw backend latency on the same prompt (target <= 1.10): the pipeline (split, cache miss, mode from the
  syntax tree, budget, retrieval, prompt, stream with stop rules, post-filters, cache fill) against the backend alone
  streaming the very prompt the pipeline built, at temperature 0 and for the same number of tokens, so both decode
  the same tokens; runs alternate so both see the same KV-cache reuse; medians;
- a typed-ahead cache hit (target <= 2 ms median): `complete()` called with the text the user reaches by typing
  along the last suggestion, on the kernel and on a 5,000-line file;
- resident memory of this process: before anything, after importing the service, with the tiny model loaded and after
  the completions ran (VmRSS and VmHWM from /proc/self/status);
- with ``--server``: the language server (`akgen serve`, stdio) configured with the tiny model through the environment
  (AKGEN_MODEL_BACKEND / AKGEN_MODEL_PATH), its resident memory after initialize and after answering
  `textDocument/inlineCompletion` requests, and their round trip.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

KERNEL = REPO / "tests" / "model" / "data" / "kernel_add.cpp"
BLANK_LINE = 14  # 0-based: the blank line in Compute() of the kernel above


def rss_mb() -> dict[str, float]:
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            key, value = line.split(":", 1)
            out[key] = round(int(value.split()[0]) / 1024, 1)
    return out


async def run(runs: int, source: Path) -> dict[str, Any]:
    memory = {"start": rss_mb()}
    from akgen_lsp.config import defaults
    from akgen_lsp.model.backends.base import GenParams
    from akgen_lsp.model.service import CompletionService
    from akgen_lsp.model.tiny import write_tiny_gguf

    memory["imported"] = rss_mb()
    tmp = Path(tempfile.mkdtemp(prefix="akgen-bench-"))
    model = write_tiny_gguf(tmp / "akgen-tiny.gguf")
    settings = defaults().with_overrides(
        {"model.backend": "llama_cpp", "model.path": str(model), "completion.debounce_ms": 0,
         "model.temperature": 0.0, "model.max_tokens": 64},
        "benchmark",
    )
    svc = CompletionService(settings)
    backend = await svc.backend()
    assert backend is not None, svc.last_error
    svc.catalog  # noqa: B018 - load the catalog before timing (the server loads it at start)
    memory["model_loaded"] = rss_mb()

    prompts: list[Any] = []
    real_stream = backend.stream

    def spy(prompt: Any, params: Any) -> Any:
        prompts.append((prompt, params))
        return real_stream(prompt, params)

    backend.stream = spy  # type: ignore[method-assign]
    text = source.read_text(encoding="utf-8")
    lines = text.split("\n")
    line, col = (BLANK_LINE, 8) if source == KERNEL else (len(lines) // 2, len(lines[len(lines) // 2]))

    pipeline_ms: list[float] = []
    raw_ms: list[float] = []
    tokens: list[float] = []
    for i in range(runs + 3):  # three warm-up rounds
        svc.cache.clear()
        prompts.clear()
        t0 = time.perf_counter()
        result = await svc.complete(text, "bench.cpp", line, col)
        p_ms = (time.perf_counter() - t0) * 1000.0
        if not prompts:
            raise SystemExit(f"the pipeline made no model call at {line + 1}:{col + 1}; pick another position")
        prompt, params = prompts[-1]
        n = int(result.timings.get("tokens", params.max_tokens)) if result else params.max_tokens
        t0 = time.perf_counter()
        gen = real_stream(prompt, GenParams(max_tokens=max(1, n), temperature=0.0, top_p=params.top_p,
                                            stop=params.stop))
        async with gen:
            async for _ in gen:
                pass
        r_ms = (time.perf_counter() - t0) * 1000.0
        if i >= 3:
            pipeline_ms.append(p_ms)
            raw_ms.append(r_ms)
            tokens.append(n)

    # typed-ahead cache hits: type the last suggestion character by character
    async def typed_ahead(doc: str, at_line: int, at_col: int) -> tuple[list[float], int]:
        svc.cache.clear()
        first = None
        for shift in range(12):  # find a position where the random model's answer survives the filters
            probe = doc.split("\n")
            probe[at_line] = probe[at_line][:at_col] + "x" * shift
            candidate = "\n".join(probe)
            first = await svc.complete(candidate, "bench.cpp", at_line, at_col + shift)
            if first is not None and len(first.text.split("\n")[0]) >= 4:
                doc, at_col = candidate, at_col + shift
                break
        if first is None:
            return [], 0
        suggestion = first.text.split("\n")[0]
        hits = []
        misses = 0
        for k in range(1, len(suggestion)):
            rows = doc.split("\n")
            rows[at_line] = rows[at_line][:at_col] + suggestion[:k] + rows[at_line][at_col:]
            typed = "\n".join(rows)
            t0 = time.perf_counter()
            r = await svc.complete(typed, "bench.cpp", at_line, at_col + k)
            ms = (time.perf_counter() - t0) * 1000.0
            if r is not None and r.source == "cache":
                hits.append(ms)
            else:
                misses += 1
        return hits, misses

    hits_small, miss_small = await typed_ahead(text, line, col)
    big_lines = (text.rstrip("\n") + "\n") * (5000 // max(1, len(lines)) + 1)
    big = big_lines.split("\n")[:5000]
    big_doc = "\n".join(big)
    hits_big, _ = await typed_ahead(big_doc, line + 2500 - (2500 % len(lines)), col)
    memory["after_completions"] = rss_mb()
    stats = svc.stats.as_dict()
    await svc.close()

    med_p, med_r = statistics.median(pipeline_ms), statistics.median(raw_ms)
    return {
        "runs": runs,
        "file": str(source),
        "tokens_median": statistics.median(tokens),
        "pipeline_ms_median": round(med_p, 2),
        "raw_backend_ms_median": round(med_r, 2),
        "pipeline_over_raw": round(med_p / med_r, 3),
        "pipeline_over_raw_pairwise_median": round(statistics.median(p / r for p, r in zip(pipeline_ms, raw_ms, strict=True)), 3),
        "cache_hit_ms_median": round(statistics.median(hits_small), 4) if hits_small else None,
        "cache_hits": len(hits_small),
        "cache_misses_typing_along": miss_small,
        "cache_hit_ms_median_5000_lines": round(statistics.median(hits_big), 4) if hits_big else None,
        "cache_hits_5000_lines": len(hits_big),
        "memory_mb": memory,
        "service_stats": stats,
    }


async def run_server(runs: int) -> dict[str, Any]:
    import os

    from lsprotocol import types
    from pygls.lsp.client import LanguageClient
    from pytest_lsp import client_capabilities

    from akgen_lsp.model.tiny import write_tiny_gguf

    tmp = Path(tempfile.mkdtemp(prefix="akgen-bench-server-"))
    model = write_tiny_gguf(tmp / "akgen-tiny.gguf")
    src = tmp / "add.cpp"
    text = KERNEL.read_text(encoding="utf-8")
    src.write_text(text, encoding="utf-8")
    env = {**os.environ, "AKGEN_MODEL_BACKEND": "llama_cpp", "AKGEN_MODEL_PATH": str(model),
           "AKGEN_COMPLETION_DEBOUNCE_MS": "0"}
    client = LanguageClient("bench-completion", "0")

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def on_log(params: types.LogMessageParams) -> None:
        pass

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        pass

    await client.start_io(sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve", env=env)
    pid = client._server.pid  # type: ignore[union-attr]

    def proc_rss() -> dict[str, float]:
        out = {}
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(("VmRSS:", "VmHWM:")):
                key, value = line.split(":", 1)
                out[key] = round(int(value.split()[0]) / 1024, 1)
        return out

    await client.initialize_async(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=tmp.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=tmp.as_uri(), name="bench")]))
    client.initialized(types.InitializedParams())
    memory = {"initialized": proc_rss()}
    uri = src.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=text)))
    round_trips = []
    items = 0
    for i in range(runs):
        params = types.InlineCompletionParams(
            context=types.InlineCompletionContext(trigger_kind=types.InlineCompletionTriggerKind.Invoked),
            text_document=types.TextDocumentIdentifier(uri),
            position=types.Position(BLANK_LINE, 8),
        )
        t0 = time.perf_counter()
        res = await client.text_document_inline_completion_async(params)
        if i:
            round_trips.append((time.perf_counter() - t0) * 1000.0)
        got = res.items if isinstance(res, types.InlineCompletionList) else (res or [])
        items += len(got)
    memory["after_inline_completions"] = proc_rss()
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return {"server_memory_mb": memory, "inline_round_trip_ms_median": round(statistics.median(round_trips), 2)
            if round_trips else None, "inline_items": items, "requests": runs}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--file", type=Path, default=KERNEL)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--server", action="store_true", help="also measure `akgen serve` with the tiny model")
    args = ap.parse_args()
    out = asyncio.run(run(args.runs, args.file.resolve()))
    if args.server:
        out["server"] = asyncio.run(run_server(min(args.runs, 20)))
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"file: {out['file']} ({out['runs']} runs, median {out['tokens_median']:.0f} tokens per completion)")
    print(f"pipeline latency      {out['pipeline_ms_median']:8.2f} ms (median)")
    print(f"raw backend latency   {out['raw_backend_ms_median']:8.2f} ms (median, same prompt, same tokens)")
    print(f"pipeline / raw        {out['pipeline_over_raw']:8.3f}   (target <= 1.10; median of per-run ratios "
          f"{out['pipeline_over_raw_pairwise_median']:.3f})")
    print(f"typed-ahead cache hit {out['cache_hit_ms_median']} ms median over {out['cache_hits']} keystrokes "
          f"({out['cache_misses_typing_along']} misses); 5,000-line file: {out['cache_hit_ms_median_5000_lines']} ms "
          f"over {out['cache_hits_5000_lines']}   (target <= 2 ms)")
    for stage, mem in out["memory_mb"].items():
        print(f"memory {stage:<18} RSS {mem.get('VmRSS')} MB (peak {mem.get('VmHWM')} MB)")
    if "server" in out:
        srv = out["server"]
        for stage, mem in srv["server_memory_mb"].items():
            print(f"server {stage:<24} RSS {mem.get('VmRSS')} MB (peak {mem.get('VmHWM')} MB)")
        print(f"server inline completion round trip {srv['inline_round_trip_ms_median']} ms median "
              f"({srv['inline_items']} items over {srv['requests']} requests; repeats are cache hits)")


if __name__ == "__main__":
    main()
