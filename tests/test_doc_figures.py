"""The figures the docs quote are what the tool prints now: scripts/doc_figures.py --check recomputes each marked one
(the add sample's save check) and fails, naming it, when a doc says something else."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_marked_figures_in_the_docs_are_current() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "doc_figures.py"), "--check"], capture_output=True,
                         text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    marked = sum((ROOT / d).read_text(encoding="utf-8").count("<!-- figure: ")
                 for d in ("samples/README.md", "editors/nvim/README.md"))
    assert marked >= 2
