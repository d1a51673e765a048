"""A real coding agent repairs a broken kernel through akgen's MCP tools, offline: OpenCode (npm ``opencode-ai``) over
a tiny random GGUF served by llama.cpp's OpenAI-compatible server (``python -m llama_cpp.server``), with the agent's
tool calls forced by a per-turn GBNF grammar (tests/mcp/grammar_proxy.py between the two).

    python benchmarks/opencode_agent.py [--tools DIR] [--keep DIR]

What it does: copies samples/ into a work folder and breaks ``kernels/add_custom.cpp`` (``xLocal`` -> ``xLocall``, a
compile error), writes the project's ``opencode.json`` (the provider: the proxy; the MCP entry: ``python -m
akgen_lsp mcp --root <work folder>``), starts llama.cpp's server (the tiny model made with a 48k context: OpenCode's
requests are ~31.5k of its byte-level tokens) and the proxy, and runs ``opencode run``. It prints each model request
(forced step, prompt tokens, seconds), OpenCode's tool calls as it reports them (``--format json``), and whether the
kernel on disk is the correct one at the end. Exit status 0 when it is.

OpenCode is installed by scripts/install-e2e.sh under ``$AKGEN_E2E_TOOLS/opencode`` (default ~/.cache/akgen-e2e).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
KERNEL = "kernels/add_custom.cpp"
N_CTX = 49152


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, proc: subprocess.Popen[bytes], timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{proc.args[:3]} exited with {proc.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.5)
    raise SystemExit(f"nothing answered on {url}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_tools = Path(os.environ.get("AKGEN_E2E_TOOLS") or Path.home() / ".cache" / "akgen-e2e")
    ap.add_argument("--tools", type=Path, default=default_tools, help="scripts/install-e2e.sh's PREFIX")
    ap.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temporary one)")
    ap.add_argument("--timeout", type=float, default=1500.0, help="seconds OpenCode may take")
    args = ap.parse_args()
    opencode = args.tools / "opencode" / "node_modules" / ".bin" / "opencode"
    if not opencode.exists():
        print(f"OpenCode is not installed ({opencode} is missing): run `bash scripts/install-e2e.sh`", file=sys.stderr)
        return 2
    sys.path.insert(0, str(REPO))
    from akgen_lsp.model.tiny import write_tiny_gguf

    work = args.keep or Path(tempfile.mkdtemp(prefix="akgen-opencode-"))
    if work.exists() and args.keep:
        shutil.rmtree(work)
    ws = work / "ws"
    shutil.copytree(REPO / "samples", ws)
    good = (ws / KERNEL).read_text(encoding="utf-8")
    (ws / KERNEL).write_text(good.replace("Add(zLocal, xLocal, yLocal", "Add(zLocal, xLocall, yLocal"),
                             encoding="utf-8")
    # a small tiny model: OpenCode's first request is ~31.5k tokens, and prompt processing is most of the time
    gguf = write_tiny_gguf(work / "tiny.gguf", n_ctx=N_CTX, n_embd=16, n_head=2, n_layer=1, n_ff=32)
    llama_port, proxy_port = free_port(), free_port()
    (ws / "opencode.json").write_text(json.dumps({
        "$schema": "https://opencode.ai/config.json",
        "provider": {"llama": {"npm": "@ai-sdk/openai-compatible", "name": "llama.cpp via akgen's grammar proxy",
                               "options": {"baseURL": f"http://127.0.0.1:{proxy_port}/v1", "timeout": False},
                               "models": {"tiny": {"name": "tiny", "tool_call": True}}}},
        "model": "llama/tiny", "small_model": "llama/tiny",
        "permission": {"bash": "deny", "edit": "deny", "webfetch": "deny"},
        "mcp": {"akgen": {"type": "local", "enabled": True,
                          "command": [sys.executable, "-m", "akgen_lsp", "mcp", "--root", str(ws)],
                          "environment": {"PYTHONPATH": str(REPO)}}}}, indent=1), encoding="utf-8")
    env = {**os.environ, "HOME": str(work / "home"), "XDG_CONFIG_HOME": str(work / "home" / ".config"),
           "XDG_DATA_HOME": str(work / "home" / ".local" / "share"), "PYTHONPATH": str(REPO),
           "PWD": str(ws)}  # OpenCode takes its project folder from $PWD, not from the working directory
    log = work / "proxy.jsonl"
    procs: list[subprocess.Popen[bytes]] = []
    started = time.monotonic()
    try:
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--n_ctx", str(N_CTX), "--chat_format",
             "chatml", "--cache", "true", "--host", "127.0.0.1", "--port", str(llama_port)],
            stdout=(work / "llama.log").open("wb"), stderr=subprocess.STDOUT, env=env, start_new_session=True))
        wait_http(f"http://127.0.0.1:{llama_port}/v1/models", procs[-1])
        procs.append(subprocess.Popen(
            [sys.executable, str(REPO / "tests" / "mcp" / "grammar_proxy.py"), "--upstream",
             f"http://127.0.0.1:{llama_port}", "--port", str(proxy_port), "--path", KERNEL, "--log", str(log)],
            stdout=(work / "proxy.log").open("wb"), stderr=subprocess.STDOUT, env=env, start_new_session=True))
        wait_http(f"http://127.0.0.1:{proxy_port}/v1/models", procs[-1])
        agent = subprocess.Popen(
            [str(opencode), "run", "--print-logs", "--format", "json", "--title", "fix add_custom", "-m", "llama/tiny",
             "--dir", str(ws), f"Fix the kernel {KERNEL} with the akgen tools: lint, check, fix, check."],
            cwd=ws, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=(work / "opencode.log").open("wb"),
            start_new_session=True)
        procs.append(agent)
        events: list[dict[str, object]] = []
        assert agent.stdout is not None
        deadline = time.monotonic() + args.timeout
        for line in agent.stdout:  # one JSON event a line; the run ends with the agent's last answer
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            events.append(ev)
            part = ev.get("part") if isinstance(ev.get("part"), dict) else {}
            if ev.get("type") == "tool_use":
                state = part.get("state", {}) if isinstance(part, dict) else {}
                out = str(state.get("output", "")).splitlines()[:1] if isinstance(state, dict) else []
                print(f"  opencode tool {part.get('tool')}: {out[0][:110] if out else ''}", flush=True)
            elif ev.get("type") == "text":
                print(f"  opencode says: {str(part.get('text', ''))[:200]}", flush=True)
            if time.monotonic() > deadline:
                print("OpenCode took too long", file=sys.stderr)
                break
        with contextlib.suppress(subprocess.TimeoutExpired):
            agent.wait(timeout=30)
    finally:
        for p in reversed(procs):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait(10)
    wall = time.monotonic() - started
    print("model requests (through the grammar proxy):")
    for rec in (json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()) if log.exists() else []:
        if rec["kind"] != "request":
            print(f"  {rec['kind']:4} {rec['prompt_tokens']:>6} prompt tokens {rec['seconds']:>7.1f} s  "
                  f"generated {rec['generated'][:90]}")
    fixed = (ws / KERNEL).read_text(encoding="utf-8") == good
    print(f"kernel repaired by the agent: {fixed}; {wall:.0f} s wall in all; work folder {work}")
    if not args.keep and fixed:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if fixed else 1


if __name__ == "__main__":
    raise SystemExit(main())
