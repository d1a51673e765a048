"""A proxy between a coding agent (OpenCode) and llama.cpp's OpenAI-compatible server that forces the agent's next
tool call with a per-turn GBNF grammar.

A random tiny model cannot choose tools; a grammar can make it say exactly one thing. For every chat request of the
agent, the proxy decides the next step of the skill's loop (lint -> check -> fix -> check -> a closing sentence)
from the conversation so far, renders the agent's whole conversation (its system prompt, the messages, the tool
results) for the model, and asks llama.cpp for a completion under ``tiny.literal_grammar`` of that step's JSON
(``{"name": ..., "arguments": {...}}``). What the model generated is parsed and returned to the agent as an OpenAI
``tool_calls`` answer (streamed as server-sent events when the agent asked for a stream). The inference is real;
only its output is constrained. Every request is logged (prompt tokens, seconds, the forced step).

    python tests/mcp/grammar_proxy.py --upstream http://127.0.0.1:18282 --port 18283 --path kernels/add_custom.cpp \
        --log proxy.jsonl
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import time
import urllib.request
import uuid
from collections.abc import Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from akgen_lsp.model.tiny import literal_grammar

# the loop of skills/akgen-ascendc/SKILL.md: (tool, arguments) per step, after which the agent says it is done
STEPS: tuple[tuple[str, Mapping[str, Any]], ...] = (
    ("lint", {}), ("check", {}), ("fix", {"use_model": False, "apply": True}), ("check", {}))


def tool_name(tools: Sequence[Mapping[str, Any]], short: str) -> str | None:
    """The agent's name of akgen's tool `short` (OpenCode calls an MCP server's tools ``<server>_<tool>``)."""
    names = [str(t.get("function", {}).get("name", "")) for t in tools]
    for n in names:
        if n == short or (n.endswith("_" + short) and n.startswith("akgen")):
            return n
    return None


def next_step(body: Mapping[str, Any], path: str) -> tuple[str, dict[str, Any] | None, str]:
    """(kind, the forced tool call or None, the text the model must generate) for this request."""
    tools = body.get("tools") or []
    messages = body.get("messages") or []
    done = sum(len(m.get("tool_calls") or []) for m in messages if m.get("role") == "assistant")
    if tools and tool_name(tools, "lint") and done < len(STEPS):
        short, extra = STEPS[done]
        name = tool_name(tools, short)
        call = {"name": name, "arguments": {"path": path, **extra}}
        return "tool", call, json.dumps(call, separators=(",", ":"))
    if not tools:  # the agent's side requests (a session title)
        return "text", None, "Fix the kernel"
    last = next((str(m.get("content")) for m in reversed(messages) if m.get("role") == "tool"), "")
    # the check tool's summary line: "add_custom.cpp: pass, 1/1 cases pass, ..." or "...: compile_error, 0/1 ..."
    first = last.strip().splitlines()[0] if last.strip() else ""
    verdict = "passes on the simulator" if re.search(r"(^|:\s)pass,", first) else "still fails on the simulator"
    return "text", None, f"Done: {path} {verdict}."


def render(messages: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """The agent's conversation as plain chat turns for a chat format without tools (the tool schemas go into the
    system turn, tool calls and results become text), so that the model reads all of it."""
    out: list[dict[str, str]] = []
    schema = "\n".join(json.dumps(t.get("function", t), separators=(",", ":")) for t in tools)
    for m in messages:
        role = str(m.get("role"))
        content = m.get("content")
        if isinstance(content, list):
            content = "\n".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
        text = str(content or "")
        if role == "assistant" and m.get("tool_calls"):
            text += "\n" + "\n".join(json.dumps(c.get("function", {})) for c in m["tool_calls"])
        if role == "tool":
            role, text = "user", f"tool result:\n{text}"
        if role not in ("system", "user", "assistant"):
            role = "user"
        out.append({"role": role, "content": text})
    if schema:
        if out and out[0]["role"] == "system":
            out[0] = {"role": "system", "content": out[0]["content"] + "\n\nTools:\n" + schema}
        else:
            out.insert(0, {"role": "system", "content": "Tools:\n" + schema})
    return out


class Proxy:
    def __init__(self, upstream: str, path: str, log: Path | None) -> None:
        self.upstream = upstream.rstrip("/")
        self.path = path
        self.log = log
        self.lock = threading.Lock()  # one inference at a time: the model server has one context
        self.records: list[dict[str, Any]] = []

    def complete(self, body: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """(the OpenAI message for the agent, the log record)."""
        kind, _call, forced = next_step(body, self.path)
        req = {"messages": render(body.get("messages") or [], body.get("tools") or []),
               "grammar": literal_grammar(forced), "max_tokens": len(forced) + 8, "temperature": 0.0,
               "stream": False}
        t0 = time.monotonic()
        if self.log:
            with self.log.open("a", encoding="utf-8") as f:
                f.write(json.dumps({"kind": "request", "forced": forced, "prompt_chars": sum(
                    len(m["content"]) for m in req["messages"])}) + "\n")
        with self.lock:
            r = urllib.request.urlopen(urllib.request.Request(
                self.upstream + "/v1/chat/completions", json.dumps(req).encode(),
                {"Content-Type": "application/json"}), timeout=900)
            answer = json.loads(r.read())
        text = str(answer["choices"][0]["message"].get("content") or "")
        rec = {"kind": kind, "forced": forced, "generated": text, "seconds": round(time.monotonic() - t0, 2),
               "prompt_tokens": answer.get("usage", {}).get("prompt_tokens"),
               "agent_tools": len(body.get("tools") or []), "agent_messages": len(body.get("messages") or [])}
        if kind == "tool":
            made = json.loads(text)  # what the model generated, not what was planned
            msg: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [{
                "id": "call_" + uuid.uuid4().hex[:12], "type": "function",
                "function": {"name": made["name"], "arguments": json.dumps(made["arguments"])}}]}
        else:
            msg = {"role": "assistant", "content": text}
        with self.lock:
            self.records.append(rec)
            if self.log:
                with self.log.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(rec) + "\n")
        return msg, answer.get("usage") or {}


def _handler(proxy: Proxy) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._json({"object": "list", "data": [{"id": "tiny", "object": "model", "owned_by": "akgen"}]})
            else:
                self.send_error(404)

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self.send_error(404)
                return
            try:
                msg, usage = proxy.complete(body)
            except Exception as exc:  # the agent gets the error as an HTTP error, as from a model server
                self.send_error(502, f"proxy: {type(exc).__name__}: {exc}"[:200])
                return
            finish = "tool_calls" if msg.get("tool_calls") else "stop"
            cid, now = "chatcmpl-" + uuid.uuid4().hex[:12], int(time.time())
            if not body.get("stream"):
                self._json({"id": cid, "object": "chat.completion", "created": now, "model": "tiny",
                            "choices": [{"index": 0, "message": msg, "finish_reason": finish}], "usage": usage})
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            delta: dict[str, Any] = {"role": "assistant"}
            if msg.get("tool_calls"):
                delta["tool_calls"] = [{**c, "index": 0} for c in msg["tool_calls"]]
            else:
                delta["content"] = msg["content"]
            for chunk in ({"choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
                          {"choices": [{"index": 0, "delta": {}, "finish_reason": finish}], "usage": usage}):
                data = {"id": cid, "object": "chat.completion.chunk", "created": now, "model": "tiny", **chunk}
                self.wfile.write(f"data: {json.dumps(data)}\n\n".encode())
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()

        def _json(self, obj: Any) -> None:
            data = json.dumps(obj).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def serve(proxy: Proxy, port: int) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", port), _handler(proxy))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--upstream", required=True, help="llama.cpp's server, http://127.0.0.1:PORT")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--path", required=True, help="the kernel the loop repairs (relative to the agent's project)")
    ap.add_argument("--log", type=Path)
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), _handler(Proxy(args.upstream, args.path, args.log)))
    server.serve_forever()


if __name__ == "__main__":
    main()
