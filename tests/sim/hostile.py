"""Helpers of the hostile suite (tests marked `hostile`; benchmarks/hostile_suite.py runs them all): an attacker's
layout in a temp folder, a secret outside the kernel's folder, and runs through the same entry points a user has
(a manifest file, confined to its folder; a run-program; the compiler).

Layout: `root/secret.txt` (a token that must never come back), `root/escape` (a file that must never appear),
`root/kernel/` (the kernel's folder: its source, manifest and inputs; outputs go to `root/kernel/out/`).
"""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.toolchain import SimResult

hostile = pytest.mark.hostile

PREAMBLE = """#include "kernel_operator.h"
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
using namespace AscendC;
"""

# the kernel proper: copies x to y (so a contained run still passes its own output), after `BODY`
KERNEL = """
extern "C" __global__ __aicore__ void hostile(GM_ADDR x, GM_ADDR y, int32_t mode)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 8);
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    (void)mode;
    BODY
    for (int i = 0; i < 8; ++i) yGm.SetValue(i, xGm.GetValue(i));
}
"""


@dataclass
class Layout:
    root: Path
    kernel: Path
    secret: Path
    token: str
    escape: Path

    def source(self, before: str = "", body: str = "", name: str = "hostile.cpp") -> Path:
        """Write a kernel: `before` at file scope (constructors, hooks, interposed functions), `body` in the kernel."""
        text = (PREAMBLE + before.replace("SECRET", str(self.secret)).replace("ESCAPE", str(self.escape))
                + KERNEL.replace("BODY", body.replace("SECRET", str(self.secret)).replace("ESCAPE", str(self.escape))))
        path = self.kernel / name
        path.write_text(text, encoding="utf-8")
        return path

    def manifest(self, source: Path, mode: int = 0, **extra: Any) -> Path:
        np.save(self.kernel / "x.npy", np.arange(8, dtype=np.float32))
        data = {"sources": [source.name], "kernel": "hostile", "block_dim": 1,
                "args": [{"name": "x", "input": "x.npy"},
                         {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [8]},
                         {"name": "mode", "scalar": mode, "type": "int32_t"}], **extra}
        path = self.kernel / "manifest.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        return path

    def run(self, before: str = "", body: str = "", mode: int = 0, **extra: Any) -> SimResult:
        """Compile and run the kernel through its (confined) manifest file, as `akgen sim run` does."""
        return run_manifest(self.manifest(self.source(before, body), mode, **extra), self.kernel / "out")

    def leaked(self, res: SimResult) -> bool:
        """Whether the secret shows anywhere in what the user gets: the result, the printed output, the outputs."""
        if self.token in json.dumps(res.to_json(), default=str):
            return True
        out = self.kernel / "out"
        return out.is_dir() and any(self.token.encode() in p.read_bytes() for p in out.iterdir() if p.is_file())


@pytest.fixture
def layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layout:
    token = f"AKGEN-SECRET-{uuid.uuid4().hex}"
    secret = tmp_path / "secret.txt"
    secret.write_text(token + "\n", encoding="utf-8")
    kernel = tmp_path / "kernel"
    kernel.mkdir()
    monkeypatch.setenv("AKGEN_HOSTILE_SECRET", token)  # the caller's environment must not reach the box either
    return Layout(tmp_path, kernel, secret, token, tmp_path / "escape")


def codes(res: SimResult) -> set[str]:
    return {f.code for f in res.findings}


def message_of(res: SimResult, code: str) -> str:
    hits = [f.message for f in res.findings if f.code == code]
    assert hits, [(f.code, f.message) for f in res.findings]
    return hits[0]


def box_processes(marker: str) -> list[int]:
    """Live processes whose command line names `marker` (a run's folder or binary): none may outlive a run."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmd:
            out.append(int(pid))
    return out
