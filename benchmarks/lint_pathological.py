"""Seconds the static checks take on 48 KB of hostile text (one line, and the same text as 48 lines of 1 KB),
inserted into a sample kernel: the inputs that took 5-55 s per keystroke before the bounds of docs/security.md
("Resources"). Prints one row per input; run with `nice python benchmarks/lint_pathological.py`."""

from __future__ import annotations

import time
from pathlib import Path

from akgen_lsp.config import defaults
from akgen_lsp.server.features.diagnostics import lint_document

REPO = Path(__file__).resolve().parents[1]
N = 48_000
UNITS = {"lt": "<", "colons": "::", "amp": "&", "dq_escape": '"\\', "paren": "(", "brace": "{", "template": "A<",
         "call": "f(", "star": "*", "comment_open": "/*", "quote": '"', "launch": "<<<"}


def main() -> None:
    settings = defaults()
    base = (REPO / "samples" / "broken" / "akg101_unknown_api.cpp").read_text("utf-8")
    lint_document(base, "/tmp/x.cpp", settings)
    print(f"{'input':14} {'1 line s':>9} {'48 lines s':>10}")
    worst = 0.0
    for name, unit in UNITS.items():
        row = []
        for width in (N, 1000):
            chunk = unit * (width // len(unit))
            body = "\n".join([chunk] * (N // width))
            text = base.replace("AscendC::Softmax(", body + "\nAscendC::Softmax(", 1)
            t = time.perf_counter()
            lint_document(text, "/tmp/x.cpp", settings)
            row.append(time.perf_counter() - t)
        worst = max(worst, *row)
        print(f"{name:14} {row[0]:9.3f} {row[1]:10.3f}", flush=True)
    print(f"worst {worst:.3f} s")


if __name__ == "__main__":
    main()
