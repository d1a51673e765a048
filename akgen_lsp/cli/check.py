"""`akgen check` (lint files and folders), `akgen serve` (the language server) and `akgen rule` (rule docs).

Imports are lazy: `akgen check` never loads pygls, and `akgen --help` loads neither the catalog nor tree-sitter.
"""

from __future__ import annotations

import enum
import json
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from akgen_lsp.config import Settings
    from akgen_lsp.findings import Edit, Finding, Span

# Folders never walked into when a folder is checked.
SKIP_DIRS = {
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    "build",
    "dist",
    ".tox",
    ".mypy_cache",
}
# Files above this size are skipped with a note (a generated table, not a kernel).
MAX_BYTES = 32 * 1024 * 1024
ENCODING_CODE = "ENCODING"


class OutputFormat(str, enum.Enum):
    text = "text"
    json = "json"
    sarif = "sarif"


class UsageError(Exception):
    """A mistake in the command line or the settings: exit status 2 with this sentence."""


@dataclass
class Source:
    path: Path
    shown: str  # the path as printed (relative to the working directory when possible)
    explicit: bool  # named on the command line (linted even without an Ascend C header)


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)
    paths: dict[str, Path] = field(default_factory=dict)
    files: int = 0
    fixed: int = 0
    skipped: list[str] = field(default_factory=list)


def _split_codes(values: Sequence[str] | None) -> list[str]:
    out: list[str] = []
    for value in values or ():
        out.extend(part.strip().upper() for part in value.split(",") if part.strip())
    return out


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def collect(paths: Sequence[Path]) -> Iterator[Source]:
    """Files named on the command line, and the candidate files under named folders (sorted, hidden ones skipped)."""
    for path in paths:
        if not path.exists():
            raise UsageError(f"path not found: {path}; give an existing file or folder")
        if path.is_dir():
            for child in sorted(_walk(path)):
                yield Source(child, _shown(child), explicit=False)
        else:
            yield Source(path, _shown(path), explicit=True)


def _walk(folder: Path) -> Iterator[Path]:
    stack = [folder]
    while stack:
        current = stack.pop()
        try:
            entries = list(current.iterdir())
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith(".") and entry != folder:
                continue
            if entry.is_dir():
                if entry.name not in SKIP_DIRS and not entry.is_symlink():
                    stack.append(entry)
            elif entry.is_file():
                yield entry


class SettingsCache:
    """Settings per `akgen.toml` (found from each file upwards), with the command-line overrides on top."""

    def __init__(self, overrides: dict[str, Any]) -> None:
        self.overrides = overrides
        self._cache: dict[str, Settings] = {}

    def for_path(self, path: Path) -> Settings:
        from akgen_lsp.config import SettingsError, find_config_file, load_settings

        config = find_config_file(path.parent)
        key = str(config) if config else ""
        if key not in self._cache:
            try:
                settings = load_settings(path.parent)
                if self.overrides:
                    settings = settings.with_overrides(self.overrides, "the command line")
            except SettingsError as exc:
                raise UsageError(str(exc)) from None
            _check_arch(settings)
            self._cache[key] = settings
        return self._cache[key]


def _check_arch(settings: Settings) -> None:
    from akgen_lsp.ascendc.arch import ArchError, load_arch

    try:
        load_arch(settings["arch"])
    except (ArchError, OSError, KeyError) as exc:
        raise UsageError(
            f"unknown arch {settings['arch']!r} ({exc}); use one of the profiles in akgen_lsp/ascendc/catalog/arch"
        ) from None


def read_source(path: Path) -> tuple[str | None, str | None, tuple[int, int] | None]:
    """(text, note, first bad position): None text with a note for a file we do not read."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        return None, f"cannot read {path}: {exc.strerror or exc}", None
    if size > MAX_BYTES:
        return (
            None,
            f"skipped {path}: {size // (1024 * 1024)} MiB is larger than {MAX_BYTES // (1024 * 1024)} MiB",
            None,
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, f"cannot read {path}: {exc.strerror or exc}", None
    if b"\x00" in data[:8192]:
        return None, f"skipped {path}: it is a binary file", None
    try:
        return data.decode("utf-8"), None, None
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8", errors="replace")
        line = good.count("\n") + 1
        column = len(good) - (good.rfind("\n") + 1) + 1
        return data.decode("utf-8", errors="replace"), None, (line, column)


def lint_sources(sources: Sequence[Source], settings_cache: SettingsCache) -> Report:
    from akgen_lsp.ascendc.lint import is_ascendc, lint_text
    from akgen_lsp.findings import Finding, Severity, Span

    report = Report()
    for source in sources:
        settings = settings_cache.for_path(source.path)
        suffix = source.path.suffix.lower()
        known = {e.lower() for e in settings["files.extensions"]} | {
            e.lower() for e in settings["files.cpp_extensions"]
        }
        if suffix not in known:
            if source.explicit:
                report.skipped.append(
                    f"skipped {source.shown}: not a C++ or Ascend C source ({', '.join(sorted(known))}; "
                    "set files.extensions to add one)"
                )
            continue
        if _excluded(source, settings):
            continue
        text, note, bad = read_source(source.path)
        if text is None:
            report.skipped.append(note or f"skipped {source.shown}")
            continue
        if not source.explicit and not is_ascendc(source.path, text, settings):
            continue
        report.files += 1
        report.texts[source.shown] = text
        report.paths[source.shown] = source.path
        if bad is not None:
            report.findings.append(
                Finding(
                    code=ENCODING_CODE,
                    message=(
                        f"the file is not valid UTF-8 (first bad byte at line {bad[0]}, column {bad[1]}); it was "
                        "read with replacement characters, so save it as UTF-8 for exact columns"
                    ),
                    span=Span.point(source.shown, bad[0], bad[1]),
                    severity=Severity.WARNING,
                    source="akgen-check",
                    error_class="syntax",
                )
            )
        report.findings.extend(lint_text(text, source.shown, settings))
    return report


def safe_edits(findings: Sequence[Finding]) -> tuple[list[Edit], int]:
    """The edits of the safe fixes, skipping a fix that overlaps one already taken; and how many fixes were taken."""
    kept: list[Edit] = []
    taken = 0
    for finding in findings:
        for fix in finding.fixes:
            if not fix.safe:
                continue
            if any(_overlap(e.span, k.span) for e in fix.edits for k in kept):
                continue
            kept.extend(fix.edits)
            taken += 1
    return kept, taken


def _overlap(a: Span, b: Span) -> bool:
    a0, a1 = (a.line, a.column), (a.end_line, a.end_column)
    b0, b1 = (b.line, b.column), (b.end_line, b.end_column)
    if a0 == a1 or b0 == b1:  # an insertion conflicts only with an edit that strictly contains its point
        point, (lo, hi) = (a0, (b0, b1)) if a0 == a1 else (b0, (a0, a1))
        return lo < point < hi or (a0 == a1 and b0 == b1 and a0 == b0)
    return a0 < b1 and b0 < a1


def apply_safe_fixes(report: Report, settings_cache: SettingsCache) -> None:
    """Apply the safe fixes in place (files read without decoding problems only), then lint those files again."""
    from akgen_lsp.ascendc.lint import lint_text
    from akgen_lsp.findings import apply_edits

    by_file: dict[str, list[Finding]] = {}
    for f in report.findings:
        by_file.setdefault(f.path, []).append(f)
    for shown, findings in by_file.items():
        if shown not in report.paths or any(f.code == ENCODING_CODE for f in findings):
            continue
        edits, taken = safe_edits(findings)
        if not edits:
            continue
        path = report.paths[shown]
        new_text = apply_edits(report.texts[shown], edits)
        try:
            path.write_text(new_text, encoding="utf-8")
        except OSError as exc:
            report.skipped.append(f"cannot write the fixes to {shown}: {exc.strerror or exc}")
            continue
        report.fixed += taken
        report.texts[shown] = new_text
        report.findings = [f for f in report.findings if f.path != shown]
        report.findings.extend(lint_text(new_text, shown, settings_cache.for_path(path)))


def _excluded(source: Source, settings: Settings) -> bool:
    from fnmatch import fnmatch

    patterns = settings["files.exclude"]
    return any(fnmatch(source.shown, p) or source.path.match(p) for p in patterns)


def render(report: Report, fmt: OutputFormat) -> str:
    from akgen_lsp.findings import findings_to_json, findings_to_sarif, render_text, sort_findings

    findings = sort_findings(report.findings)
    if fmt is OutputFormat.json:
        return findings_to_json(findings)
    if fmt is OutputFormat.sarif:
        from akgen_lsp.ascendc.rules import all_rules

        docs = {r.code: r.summary for r in all_rules()}
        docs.setdefault(ENCODING_CODE, "The file is not valid UTF-8.")
        return json.dumps(
            findings_to_sarif(findings, docs, tool_version=_version()), indent=2, ensure_ascii=False
        )
    return "\n".join(render_text(f, report.texts.get(f.path)) for f in findings)


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("akgen-lsp")
    except Exception:
        return "0.0.0"


def summary(report: Report, seconds: float) -> str:
    from collections import Counter

    counts = Counter(f.severity.value for f in report.findings)
    files = f"{report.files} file{'s' if report.files != 1 else ''}"
    if not report.findings:
        return f"All checks passed: {files} in {seconds:.2f} s."
    parts = [
        f"{counts[k]} {k}{'s' if counts[k] != 1 else ''}"
        for k in ("error", "warning", "info", "hint")
        if counts[k]
    ]
    with_findings = len({f.path for f in report.findings})
    return f"Found {', '.join(parts)} in {with_findings} of {files} ({seconds:.2f} s)."


def register(app: typer.Typer) -> None:
    @app.command()
    def check(
        paths: Annotated[list[Path], typer.Argument(help="Files or folders to check.", show_default=False)],
        output_format: Annotated[
            OutputFormat,
            typer.Option("--format", "-f", help="Output: compiler-style text, JSON or SARIF 2.1.0."),
        ] = OutputFormat.text,
        select: Annotated[
            list[str] | None,
            typer.Option("--select", help="Rule codes or prefixes to run (comma-separated)."),
        ] = None,
        ignore: Annotated[
            list[str] | None,
            typer.Option("--ignore", help="Rule codes or prefixes never reported (comma-separated)."),
        ] = None,
        extend_select: Annotated[
            list[str] | None,
            typer.Option("--extend-select", help="Rules added to the default set (comma-separated)."),
        ] = None,
        arch: Annotated[
            str | None, typer.Option("--arch", help="Hardware profile, e.g. Ascend910B2.")
        ] = None,
        cann: Annotated[
            str | None, typer.Option("--cann", help="CANN version the kernel targets, e.g. 8.5.")
        ] = None,
        output: Annotated[
            Path | None,
            typer.Option("--output", "-o", help="Write the report to this file instead of stdout."),
        ] = None,
        exit_zero: Annotated[
            bool, typer.Option("--exit-zero", help="Exit with 0 even when errors are found.")
        ] = False,
        fix: Annotated[
            bool, typer.Option("--fix", help="Apply the safe fixes in place, then report what is left.")
        ] = False,
    ) -> None:
        """Lint AscendC files and folders.

        Folders are searched for AscendC sources (.asc, and C++ that includes kernel_operator.h); settings come from
        the nearest akgen.toml. Exit status: 1 when an error is found, 0 otherwise, 2 on a usage error.
        """
        started = time.perf_counter()
        overrides: dict[str, Any] = {}
        if select:
            overrides["lint.select"] = _split_codes(select)
        if ignore:
            overrides["lint.ignore"] = _split_codes(ignore)
        if extend_select:
            overrides["lint.extend_select"] = _split_codes(extend_select)
        if arch:
            overrides["arch"] = arch
        if cann:
            overrides["cann.version"] = cann
        try:
            sources = list(collect(paths))
            settings_cache = SettingsCache(overrides)
            report = lint_sources(sources, settings_cache)
            if fix:
                apply_safe_fixes(report, settings_cache)
        except UsageError as exc:
            _err(f"error: {exc}")
            raise typer.Exit(2) from None
        for note in report.skipped:
            _err(f"note: {note}")
        text = render(report, output_format)
        if output is not None:
            try:
                output.write_text(text + ("\n" if text else ""), encoding="utf-8")
            except OSError as exc:
                _err(f"error: cannot write {output}: {exc.strerror or exc}")
                raise typer.Exit(2) from None
        elif text:
            sys.stdout.write(text + "\n")
        if fix:
            _err(f"Fixed {report.fixed} finding{'s' if report.fixed != 1 else ''}.")
        _err(summary(report, time.perf_counter() - started))
        from akgen_lsp.findings import has_errors

        if has_errors(report.findings) and not exit_zero:
            raise typer.Exit(1)

    @app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
    def serve(
        ctx: typer.Context,
        tcp: Annotated[
            str | None, typer.Option("--tcp", metavar="HOST:PORT", help="Listen on TCP instead of stdio.")
        ] = None,
        stdio: Annotated[
            bool, typer.Option("--stdio", help="Serve over stdin/stdout (the default).")
        ] = False,
        socket: Annotated[
            int | None,
            typer.Option("--socket", metavar="PORT", help="Connect to a client listening on 127.0.0.1:PORT."),
        ] = None,
        pipe: Annotated[
            str | None,
            typer.Option("--pipe", metavar="NAME", help="Connect to a client's named pipe (a unix socket)."),
        ] = None,
        client_process_id: Annotated[
            int | None,
            typer.Option(
                "--clientProcessId",
                "--client-process-id",
                metavar="PID",
                help="Exit when this process (the editor) exits.",
            ),
        ] = None,
        node_ipc: Annotated[bool, typer.Option("--node-ipc", hidden=True)] = False,
        token_file: Annotated[
            Path | None,
            typer.Option(
                "--token-file",
                metavar="PATH",
                help="--tcp: the token clients must send, in a file only "
                "you can read (made with a fresh token when absent); without it a token is printed.",
            ),
        ] = None,
    ) -> None:
        """Run the language server (stdio by default).

        Accepts the flags editors' language clients add (vscode-languageclient: --stdio, --clientProcessId=PID,
        --socket=PORT, --pipe=NAME); the server also exits when the editor's `processId` from `initialize` dies.
        Over --tcp a client must send the header line `Akgen-Token: TOKEN` before its first message; --socket and
        --pipe serve only a client of your own user (docs/security.md).
        """
        from akgen_lsp import server as lsp

        if node_ipc:
            _err(
                "error: akgen serve cannot use Node's IPC channel (--node-ipc); start it with the stdio transport"
            )
            raise typer.Exit(2)
        if ctx.args:
            _err(f"akgen serve: ignoring unknown arguments {' '.join(ctx.args)}")
        chosen = [
            name
            for name, on in (
                ("--tcp", tcp is not None),
                ("--socket", socket is not None),
                ("--pipe", pipe is not None),
                ("--stdio", stdio),
            )
            if on
        ]
        if len(chosen) > 1:
            _err(f"error: choose one transport, not {' and '.join(chosen)}")
            raise typer.Exit(2)
        if socket is not None:
            if not 0 < socket < 65536:
                _err(f"error: --socket expects a port number, got {socket}")
                raise typer.Exit(2)
            lsp.run_socket(socket, client_process_id)
            return
        if pipe is not None:
            lsp.run_pipe(pipe, client_process_id)
            return
        if tcp is None:
            lsp.run_stdio(client_process_id)
            return
        host, _, port_text = tcp.rpartition(":")
        if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
            _err(f"error: --tcp expects HOST:PORT such as 127.0.0.1:2087, got {tcp!r}")
            raise typer.Exit(2)
        import secrets

        from akgen_lsp.server.peer import load_or_make_token

        if token_file is not None:
            try:
                token = load_or_make_token(token_file)
            except OSError as exc:
                _err(f"error: {exc}")
                raise typer.Exit(2) from None
            _err(
                f"akgen serve: clients send the header line `Akgen-Token: <the token in {token_file}>` first"
            )
        else:
            token = secrets.token_hex(24)
            _err(
                f"akgen serve: clients send the header line `Akgen-Token: {token}` first (or use --token-file)"
            )
        lsp.run_tcp(host, int(port_text), token)

    @app.command()
    def rule(
        code: Annotated[
            str | None, typer.Argument(help="A rule code such as AKG120; none lists every rule.")
        ] = None,
    ) -> None:
        """List the static rules, or show one rule's documentation."""
        from rich.console import Console
        from rich.markdown import Markdown
        from rich.table import Table

        from akgen_lsp.ascendc.rules import all_rules, rule_by_code

        console = Console()
        if code is None:
            table = Table(title="akgen rules", show_lines=False)
            table.add_column("Code", style="bold")
            table.add_column("Name")
            table.add_column("Default", justify="center")
            table.add_column("Summary")
            for r in all_rules():
                table.add_row(r.code, r.name, "on" if r.default_enabled else "off", r.summary)
            if not all_rules():
                console.print("No rules are installed.")
                return
            console.print(table)
            return
        found = rule_by_code(code)
        if found is None:
            import difflib

            codes = [r.code for r in all_rules()]
            close = difflib.get_close_matches(code.upper(), codes, n=3, cutoff=0.5)
            hint = f" Did you mean {', '.join(close)}?" if close else ""
            _err(f"error: no rule {code!r}.{hint} Run `akgen rule` to list the rules.")
            raise typer.Exit(2)
        console.print(
            Markdown(f"# {found.code} {found.name}\n\n{found.summary}\n\n{rule_body(found.doc, found.code)}")
        )


def rule_body(doc: str, code: str) -> str:
    """A rule docstring without its title paragraph (``AKG120 queue-protocol: ...``), which the caller shows."""
    doc = doc.strip()
    first, sep, rest = doc.partition("\n\n")
    return rest.strip() if sep and first.upper().startswith(code.upper()) else doc


def _err(message: str) -> None:
    sys.stderr.write(message + "\n")
