"""The figures the docs quote, produced by the tool: each `<!-- figure: NAME -->` followed by a `backticked` text in
the docs is replaced by what akgen prints now (the add sample's save check: the estimate line, the status line).

    python scripts/doc_figures.py           rewrite the marked figures in place
    python scripts/doc_figures.py --check   exit 1, naming each stale one (tests/test_doc_figures.py runs this)
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCS = ["README.md", "samples/README.md", "editors/nvim/README.md", "editors/vscode/README.md", "docs/editors.md"]
MARK = re.compile(r"(<!-- figure: ([\w-]+) -->`)([^`]*)(`)")


def _add_sample() -> Any:
    from akgen_lsp.check.kernel import check_kernel
    from akgen_lsp.config import load_settings

    kernel = ROOT / "samples" / "kernels" / "add_custom.cpp"
    result = check_kernel(kernel, load_settings(kernel.parent))
    if result.figures.status != "pass":
        raise SystemExit(f"doc_figures: the add sample did not pass ({result.figures.status}): "
                         + "; ".join(f.message for f in result.findings[:3]))
    return result.figures


def figures() -> dict[str, str]:
    from akgen_lsp.server.features.save_check import figures_message, short_summary

    add = _add_sample()
    made: dict[str, Callable[[], str]] = {
        "add-save": lambda: figures_message(add) or "",
        "add-status": lambda: f"akgen: add_custom.cpp: {short_summary(add)}",
    }
    return {name: fn() for name, fn in made.items()}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    values = figures()
    stale = []
    for doc in DOCS:
        path = ROOT / doc
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")

        def put(m: re.Match[str], doc: str = doc) -> str:
            name = m.group(2)
            if name not in values:
                raise SystemExit(f"doc_figures: {doc} marks an unknown figure {name!r} (known: {', '.join(values)})")
            if m.group(3) != values[name]:
                stale.append(f"{doc}: {name}: {m.group(3)!r} -> {values[name]!r}")
            return m.group(1) + values[name] + m.group(4)

        new = MARK.sub(put, text)
        if new != text and not check:
            path.write_text(new, encoding="utf-8")
    for line in stale:
        print(line)
    if check and stale:
        print("doc_figures: stale figures; run `python scripts/doc_figures.py` to write what the tool prints now")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
