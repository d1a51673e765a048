"""The grammar-forcing proxy of benchmarks/opencode_agent.py: the loop's steps from the conversation so far, the
agent's whole conversation rendered for the model, and a real tiny model behind llama.cpp's server whose forced
answer comes back to the agent as OpenAI tool_calls (streamed as server-sent events)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from grammar_proxy import Proxy, next_step, render, serve

from akgen_lsp.model.tiny import write_tiny_gguf

TOOLS = [{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
         for n in ("bash", "akgen_lint", "akgen_check", "akgen_fix", "akgen_explain")]
PATH = "kernels/add_custom.cpp"


def _call(name: str) -> dict[str, object]:
    return {"role": "assistant", "content": None,
            "tool_calls": [{"id": "c", "type": "function", "function": {"name": name, "arguments": "{}"}}]}


def test_the_steps_follow_the_loop_and_end_with_the_last_verdict() -> None:
    msgs: list[dict[str, object]] = [{"role": "system", "content": "You are an agent."},
                                     {"role": "user", "content": "fix it"}]
    seen = []
    for name in ("akgen_lint", "akgen_check", "akgen_fix", "akgen_check"):
        kind, call, text = next_step({"tools": TOOLS, "messages": msgs}, PATH)
        assert kind == "tool" and call is not None and json.loads(text) == call
        seen.append((call["name"], call["arguments"]))
        msgs += [_call(name), {"role": "tool", "tool_call_id": "c", "content": "compile_error, 0/1 cases pass"}]
    assert seen == [("akgen_lint", {"path": PATH}), ("akgen_check", {"path": PATH}),
                    ("akgen_fix", {"path": PATH, "use_model": False, "apply": True}), ("akgen_check", {"path": PATH})]
    assert next_step({"tools": TOOLS, "messages": msgs}, PATH) == ("text", None, f"Done: {PATH} still fails on the "
                                                                   "simulator.")
    msgs[-1] = {"role": "tool", "content": "pass, 1/1 cases pass, 9.11 us on Ascend910B2 (estimate)"}
    assert next_step({"tools": TOOLS, "messages": msgs}, PATH)[2] == f"Done: {PATH} passes on the simulator."
    assert next_step({"messages": msgs}, PATH) == ("text", None, "Fix the kernel")  # a request without tools


def test_the_model_reads_the_whole_conversation() -> None:
    msgs = [{"role": "system", "content": "sys"}, {"role": "user", "content": [{"type": "text", "text": "fix"}]},
            _call("akgen_lint"), {"role": "tool", "content": "no findings"}]
    out = render(msgs, TOOLS)
    assert [m["role"] for m in out] == ["system", "user", "assistant", "user"]
    assert '"name":"akgen_fix"' in out[0]["content"] and out[1]["content"] == "fix"
    assert '"name": "akgen_lint"' in out[2]["content"] and out[3]["content"] == "tool result:\nno findings"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_tiny_model_behind_llama_cpp_makes_the_forced_tool_call(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp.server")
    gguf = write_tiny_gguf(tmp_path / "tiny.gguf", n_ctx=4096)
    port = _port()
    server = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--n_ctx", "4096",
                               "--chat_format", "chatml", "--host", "127.0.0.1", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    proxy = Proxy(f"http://127.0.0.1:{port}", PATH, tmp_path / "log.jsonl")
    front = serve(proxy, _port())
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2)
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "llama.cpp's server did not start"
                time.sleep(0.5)
        body = {"model": "tiny", "stream": True, "tools": TOOLS,
                "messages": [{"role": "system", "content": "You fix kernels."}, {"role": "user", "content": "fix"}]}
        req = urllib.request.Request(f"http://127.0.0.1:{front.server_address[1]}/v1/chat/completions",
                                     json.dumps(body).encode(), {"Content-Type": "application/json"})
        events = [line[6:] for line in urllib.request.urlopen(req, timeout=300).read().decode().splitlines()
                  if line.startswith("data: ")]
    finally:
        front.shutdown()
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(10)
    assert events[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    call = chunks[0]["choices"][0]["delta"]["tool_calls"][0]
    assert call["function"]["name"] == "akgen_lint" and json.loads(call["function"]["arguments"]) == {"path": PATH}
    assert chunks[-1]["choices"][0]["finish_reason"] == "tool_calls"
    rec = proxy.records[0]
    assert rec["generated"] == rec["forced"] and rec["prompt_tokens"] > 0  # the model generated it, under the grammar
