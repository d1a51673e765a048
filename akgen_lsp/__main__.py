"""`python -m akgen_lsp ...` is the `akgen` command (for an editor that knows the interpreter, not the script)."""

from akgen_lsp.cli import main

main()
