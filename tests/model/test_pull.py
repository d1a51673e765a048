"""`akgen model pull`: against a local HTTP server in the Hub's layout (the API's revision and tree listings, the
resolve URLs with their commit and ETag headers, byte ranges), serving a tiny model made here: the size is said
first, the files land in the folder, a download cut in the middle resumes from where it stopped (a Range request),
and a file whose bytes are not the listed SHA-256 is an error that names it."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("huggingface_hub")

from akgen_lsp.model.pull import PullError, human, pull

REPO = "akgen-test/tiny-kernelgen"
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def tiny_model() -> dict[str, bytes]:
    """A tiny checkpoint's files: config, tokenizer config, and 24 MB of weights (an LFS file; more than two of the
    Hub client's 10 MB read chunks, so a cut in the middle leaves a whole chunk written)."""
    weights = hashlib.sha256(b"seed").digest() * (24 * 1024 * 1024 // 32)
    return {"config.json": json.dumps({"model_type": "qwen3", "hidden_size": 8}).encode(),
            "tokenizer_config.json": b'{"model_max_length": 128}',
            "model.safetensors": weights}


class Hub:
    """The Hub's layout over `files`; `cut_once` cuts the first GET of the weights after half of it; `lie` lists
    another SHA-256 for the weights."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files
        self.ranges: list[str] = []
        self.cut_once = False
        self.lie = False

    def entry(self, path: str) -> dict:
        data = self.files[path]
        out = {"type": "file", "path": path, "size": len(data), "oid": hashlib.sha1(data).hexdigest()}
        if path.endswith(".safetensors"):
            sha = hashlib.sha256(data).hexdigest() if not self.lie else "0" * 64
            out["lfs"] = {"oid": sha, "size": len(data), "pointerSize": 134}
        return out

    def handler(self) -> type[BaseHTTPRequestHandler]:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _json(self, value: object) -> None:
                body = json.dumps(value).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _file(self, head: bool) -> None:
                path = self.path.split("?")[0].split(f"/{REPO}/resolve/", 1)[1].split("/", 1)[1]
                if path not in hub.files:
                    self.send_error(404)
                    return
                data = hub.files[path]
                entry = hub.entry(path)
                etag = entry["lfs"]["oid"] if "lfs" in entry else entry["oid"]
                start = 0
                rng = self.headers.get("Range")
                if rng and not head:
                    hub.ranges.append(rng)
                    start = int(rng.split("=")[1].split("-")[0])
                self.send_response(206 if start else 200)
                self.send_header("X-Repo-Commit", COMMIT)
                self.send_header("ETag", f'"{etag}"')
                self.send_header("Accept-Ranges", "bytes")
                self.send_header("Content-Length", str(len(data) - start))
                if start:
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                self.end_headers()
                if head:
                    return
                body = data[start:]
                if hub.cut_once and path.endswith(".safetensors"):
                    hub.cut_once = False
                    for i in range(0, len(body) // 2, 1 << 16):  # in pieces, as a network delivers them
                        self.wfile.write(body[i:i + (1 << 16)])
                        self.wfile.flush()
                        time.sleep(0.01)
                    self.connection.shutdown(2)
                    return
                self.wfile.write(body)

            def do_HEAD(self) -> None:
                self._file(head=True)

            def do_GET(self) -> None:
                p = self.path.split("?")[0]
                if p.startswith(f"/api/models/{REPO}/revision/"):
                    self._json({"id": REPO, "sha": COMMIT, "siblings": [{"rfilename": f} for f in hub.files]})
                elif p.startswith(f"/api/models/{REPO}/tree/"):
                    self._json([hub.entry(f) for f in hub.files])
                elif f"/{REPO}/resolve/" in p:
                    self._file(head=False)
                else:
                    self.send_error(404)

        return Handler


@pytest.fixture
def hub() -> Iterator[tuple[Hub, str]]:
    h = Hub(tiny_model())
    server = ThreadingHTTPServer(("127.0.0.1", 0), h.handler())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield h, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def test_pull_says_the_size_first_and_writes_the_checked_files(hub: tuple[Hub, str], tmp_path: Path) -> None:
    h, url = hub
    said: list[str] = []
    folder = pull(REPO, tmp_path / "tiny", endpoint=url, say=said.append, progress=False)
    total = human(sum(len(d) for d in h.files.values()))
    assert said[0].startswith(f"{REPO}@main: 3 files, {total}; downloading into {folder}"), said
    for name, data in h.files.items():
        assert (folder / name).read_bytes() == data
    assert said[-1].endswith("3 files, 1 checked against their SHA-256")


def test_a_cut_download_resumes_where_it_stopped(hub: tuple[Hub, str], tmp_path: Path) -> None:
    h, url = hub
    h.cut_once = True
    try:
        pull(REPO, tmp_path / "tiny", endpoint=url, say=lambda m: None, progress=False)
    except PullError as exc:  # the Hub client gave up on the cut: the command says to run again
        assert "run the command again to resume" in str(exc)
        pull(REPO, tmp_path / "tiny", endpoint=url, say=lambda m: None, progress=False)
    assert (tmp_path / "tiny" / "model.safetensors").read_bytes() == h.files["model.safetensors"]
    assert h.ranges and int(h.ranges[0].split("=")[1].split("-")[0]) > 0, h.ranges  # resumed, not restarted


def test_a_file_that_is_not_its_listed_sha256_is_named(hub: tuple[Hub, str], tmp_path: Path) -> None:
    h, url = hub
    h.lie = True
    with pytest.raises(PullError, match=r"model\.safetensors.*SHA-256|SHA-256.*model\.safetensors"):
        pull(REPO, tmp_path / "tiny", endpoint=url, say=lambda m: None, progress=False)


def test_the_command_with_hf_endpoint(hub: tuple[Hub, str], tmp_path: Path) -> None:
    _, url = hub
    env = {**os.environ, "HF_ENDPOINT": url, "HF_HUB_DISABLE_PROGRESS_BARS": "1"}
    out = subprocess.run([sys.executable, "-c", "from akgen_lsp.cli import main; main()", "model", "pull", REPO,
                          "--dest", str(tmp_path / "m")], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "3 files, 25.2 MB" in out.stderr and 'backend = "transformers"' in out.stdout
    out = subprocess.run([sys.executable, "-c", "from akgen_lsp.cli import main; main()", "model", "pull", "Nope"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 1 and "neither a known model" in out.stderr
