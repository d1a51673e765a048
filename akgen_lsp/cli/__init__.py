"""The `akgen` command line: one typer app; each command group lives in its own module of this package.

Add a group by writing ``akgen_lsp/cli/<name>.py`` with a function ``register(app: typer.Typer) -> None`` and listing
the module in `_GROUPS`.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="akgen",
    help="AscendC kernel assistant: static checks, CPU simulation, NPUKernelBench, KernelGen-LM.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Modules of this package that add commands to `app`, in help order.
_GROUPS: tuple[str, ...] = (
    "check",
    "fix",
    "generate",
    "sim",
    "model",
    "bench",
    "info",
    "errors",
    "trust",
    "mcp",
)

for _name in _GROUPS:
    importlib.import_module(f"{__name__}.{_name}").register(app)


def main() -> None:
    from akgen_lsp.cli.output import install, notice
    from akgen_lsp.config import set_notice_sink

    install()  # every text printed from here on has its control characters escaped (docs/security.md)
    set_notice_sink(notice)  # a key an untrusted akgen.toml may not set is named on stderr, once
    app()


def serve_main() -> None:
    """The `akgen-lsp` entry point: the language server over stdio (same as `akgen serve`)."""
    from akgen_lsp.server import run_stdio

    run_stdio()
