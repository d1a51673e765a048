"""`akgen errors`: error-derived supervision (mine, classify, report, synthesize, bench)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from akgen_lsp.cli import errors_corpus
from akgen_lsp.cli.options import ArchOpt, CannOpt, settings_with


def _read_blocks(files: list[Path]) -> list[Any]:
    from akgen_lsp.logs.blocks import BlocksFileError, read_jsonl

    blocks = []
    for f in files:
        try:
            blocks.extend(read_jsonl(f))
        except BlocksFileError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
    return blocks


def register(app: typer.Typer) -> None:
    errors = typer.Typer(
        help="Error-derived supervision: logs -> classified error blocks, distributions, diagnostic "
        "reports, repairs and training data.",
        no_args_is_help=True,
    )
    app.add_typer(errors, name="errors")

    @errors.command("mine")
    def mine_cmd(
        logs: Annotated[
            list[Path],
            typer.Argument(
                help="Build logs, run logs, `akgen sim run --json` results, "
                "results.jsonl of bench runs (.gz is read too)."
            ),
        ],
        fmt: Annotated[
            str,
            typer.Option(
                "--format",
                help="auto, gcc, clang, bisheng, cmake, make, ninja, msopgen, ld, npu, sim, bench or lint.",
            ),
        ] = "auto",
        out: Annotated[
            Path | None, typer.Option("--out", help="The JSONL file of blocks (default: stdout).")
        ] = None,
        source: Annotated[
            list[Path] | None,
            typer.Option(
                "--source",
                help="A folder (or file) with the user's sources: log paths are mapped to these files.",
            ),
        ] = None,
        warnings: Annotated[bool, typer.Option("--warnings", help="Keep warnings too.")] = False,
        model: Annotated[
            str | None,
            typer.Option(
                "--model",
                help="The model that wrote the kernels (bench runs of several models are told apart by it).",
            ),
        ] = None,
        cann: CannOpt = None,
    ) -> None:
        """Extract error blocks from logs (one JSON line each, classified)."""
        from akgen_lsp.errors.classify import Classifier
        from akgen_lsp.logs.blocks import write_jsonl
        from akgen_lsp.logs.mine import FORMATS, LogFormatError, RecordsError, mine_log
        from akgen_lsp.logs.paths import PathMapper

        if fmt not in FORMATS:
            typer.echo(f"error: --format must be one of {', '.join(FORMATS)}, not {fmt!r}", err=True)
            raise typer.Exit(2)
        settings = settings_with(None, cann)
        mapper = PathMapper(source or [])
        classifier = Classifier(cann_version=str(settings["cann.version"]))
        failed = 0
        total = 0
        sink = out.open("w", encoding="utf-8") if out else sys.stdout
        try:
            for log in logs:
                try:
                    blocks = mine_log(log, fmt, mapper, warnings, model=model)
                except (LogFormatError, RecordsError, OSError) as exc:
                    typer.echo(f"error: {exc}", err=True)
                    failed += 1
                    continue
                total += write_jsonl(classifier.classify_all(blocks), sink)
        finally:
            if out:
                sink.close()
        if out:
            typer.echo(
                f"{total} error blocks from {len(logs) - failed} of {len(logs)} logs -> {out}", err=True
            )
        if failed:
            raise typer.Exit(2)

    @errors.command("classify")
    def classify_cmd(
        files: Annotated[
            list[Path], typer.Argument(help="JSONL files of blocks (from `akgen errors mine`).")
        ],
        as_json: Annotated[bool, typer.Option("--json", help="Print the distribution as JSON.")] = False,
        html_out: Annotated[
            Path | None, typer.Option("--html", help="Write the distribution as a self-contained HTML page.")
        ] = None,
        out: Annotated[
            Path | None, typer.Option("--out", help="Write the classified blocks (JSONL).")
        ] = None,
        evaluate: Annotated[
            bool,
            typer.Option(
                "--evaluate",
                help="Measure the classifier on the blocks that carry "
                "a known class (`label`): accuracy and confusion matrix.",
            ),
        ] = False,
        cann: CannOpt = None,
    ) -> None:
        """Classify error blocks and report the distribution of classes (per tool, task, level, model)."""
        from akgen_lsp.errors.classify import Classifier
        from akgen_lsp.errors.distribution import distribution
        from akgen_lsp.errors.evaluate import confusion, render_confusion
        from akgen_lsp.errors.html_report import write_html
        from akgen_lsp.logs.blocks import write_jsonl

        settings = settings_with(None, cann)
        blocks = Classifier(cann_version=str(settings["cann.version"])).classify_all(_read_blocks(files))
        dist = distribution(blocks)
        result: dict[str, Any] = {"distribution": dist}
        if evaluate:
            result["evaluation"] = confusion(blocks)
        if out:
            with out.open("w", encoding="utf-8") as fh:
                write_jsonl(blocks, fh)
        if html_out:
            write_html(dist, html_out)
        if as_json:
            typer.echo(json.dumps(result if evaluate else dist, indent=2, ensure_ascii=False))
            return
        _print_distribution(dist)
        if evaluate:
            typer.echo(render_confusion(result["evaluation"]))
        if html_out:
            typer.echo(f"wrote {html_out}")

    @errors.command("report")
    def report_cmd(
        files: Annotated[
            list[Path], typer.Argument(help="JSONL files of blocks (from `akgen errors mine`).")
        ],
        source: Annotated[
            list[Path] | None,
            typer.Option("--source", help="A folder (or file) with the sources the blocks point into."),
        ] = None,
        index: Annotated[
            int | None, typer.Option("--index", help="Only the block at this position (0-based).")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="One JSON report per line.")] = False,
        arch: ArchOpt = None,
        cann: CannOpt = None,
    ) -> None:
        """The diagnostic report of each block: code context, the real API, hardware facts, similar repairs."""
        from akgen_lsp.ascendc.catalog import load_catalog
        from akgen_lsp.errors.classify import Classifier
        from akgen_lsp.errors.report import build_report
        from akgen_lsp.errors.store import RepairStore, RepairStoreError, default_path
        from akgen_lsp.logs.paths import PathMapper

        settings = settings_with(arch, cann)
        blocks = _read_blocks(files)
        if index is not None:
            if not 0 <= index < len(blocks):
                typer.echo(f"error: --index {index} is outside the {len(blocks)} blocks", err=True)
                raise typer.Exit(2)
            blocks = [blocks[index]]
        mapper = PathMapper(source or [])
        catalog = load_catalog()
        classifier = Classifier(catalog, str(settings["cann.version"]))
        try:
            store = RepairStore() if default_path().is_file() else None
        except RepairStoreError as exc:
            typer.echo(f"warning: {exc}; reports have no similar repairs", err=True)
            store = None
        missing = 0
        for i, b in enumerate(blocks):
            text, path = _source_of(b, mapper)
            if text is None and b.file:
                missing += 1
            report = build_report(
                b,
                text or "",
                path or (b.file or ""),
                settings,
                catalog=catalog,
                store=store,
                classifier=classifier,
            )
            if as_json:
                typer.echo(json.dumps(report.to_json(), ensure_ascii=False))
            else:
                typer.echo(("\n\n---\n\n" if i else "") + report.markdown())
        if missing:
            typer.echo(
                f"note: {missing} blocks point into files not found (pass --source DIR with the sources); "
                "their reports have no code context",
                err=True,
            )

    errors_corpus.register(errors)


def _source_of(block: Any, mapper: Any) -> tuple[str | None, str | None]:
    if not block.file:
        return None, None
    for cand in (mapper.display(block.file), block.file):
        p = Path(cand)
        if p.is_file():
            try:
                return p.read_text(encoding="utf-8", errors="replace"), str(p)
            except OSError:
                continue
    return None, block.file


def _print_distribution(dist: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console()
    t = Table(
        title=f"error classes ({dist['blocks']} blocks, {dist['kernel_errors']} kernel errors, "
        f"taxonomy {dist['taxonomy_version']})"
    )
    for col in ("class", "blocks", "share", "top signature"):
        t.add_column(col, justify="right" if col in ("blocks", "share") else "left")
    for c in dist["classes"]:
        if not c["count"]:
            continue
        top = (dist["top_signatures"].get(c["class"]) or [{}])[0].get("signature", "")
        t.add_row(f"{c['title']} ({c['class']})", str(c["count"]), f"{100 * c['share']:.1f}%", top[:70])
    con.print(t)
    for key in ("by_tool", "by_level", "by_model"):
        if dist[key]:
            con.print(
                f"{key[3:]}: " + "; ".join(f"{k} {sum(v.values())}" for k, v in list(dist[key].items())[:12])
            )
