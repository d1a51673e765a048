"""Every Python module of the package stays under 600 lines (docs/architecture.md, "Long files"): a module that grows
past it is split by what it does, not left to grow."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "akgen_lsp"
LIMIT = 600


def test_no_module_is_over_600_lines() -> None:
    long = {
        str(path.relative_to(PACKAGE)): n
        for path in sorted(PACKAGE.rglob("*.py"))
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT
    }
    assert not long, f"modules over {LIMIT} lines (split them by what they do): {long}"
