"""The distribution report as a self-contained HTML page (`akgen errors classify F.jsonl --html report.html`): a bar
chart of the classes (inline SVG), the class table with definitions, the break-downs per tool, level, model and task,
and the top signatures of each class with an example. No script and no external file: it opens offline."""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from akgen_lsp.bench.report import CSS, bar_svg
from akgen_lsp.error_classes import load_taxonomy

MAX_ROWS = 40


def _e(v: Any) -> str:
    return html.escape("" if v is None else str(v))


def _matrix(title: str, rows: Mapping[str, Mapping[str, int]]) -> str:
    if not rows:
        return ""
    cols = sorted(
        {c for r in rows.values() for c in r}, key=lambda c: -sum(r.get(c, 0) for r in rows.values())
    )
    head = "".join(f"<th>{_e(c)}</th>" for c in cols)
    body = []
    for name, r in list(rows.items())[:MAX_ROWS]:
        cells = "".join(f"<td class=num>{r.get(c, 0) or ''}</td>" for c in cols)
        body.append(f"<tr><td>{_e(name)}</td><td class=num>{sum(r.values())}</td>{cells}</tr>")
    more = (
        f'<p class="note">{len(rows) - MAX_ROWS} more not shown (see the JSON)</p>'
        if len(rows) > MAX_ROWS
        else ""
    )
    return f"<h2>{_e(title)}</h2><table><tr><th></th><th>blocks</th>{head}</tr>{''.join(body)}</table>{more}"


def render_html(dist: Mapping[str, Any], title: str = "akgen errors: distribution") -> str:
    tax = load_taxonomy()
    classes = [c for c in dist["classes"]]
    chart = bar_svg(
        [(str(c["class"]), float(c["count"])) for c in classes if c["count"]],
        width=760,
        colour="#c62828",
        fmt="{:.0f}",
    )
    rows = []
    for c in classes:
        info = tax.classes.get(c["class"])
        share = f"{100 * c['share']:.1f}%" if dist["blocks"] else ""
        rows.append(
            f"<tr><td><code>{_e(c['class'])}</code></td><td>{_e(c['title'])}</td><td class=num>{c['count']}"
            f"</td><td class=num>{share}</td><td class=note>{_e(info.definition if info else '')}</td></tr>"
        )
    tops = []
    for c in classes:
        sigs = dist["top_signatures"].get(c["class"]) or []
        if not sigs:
            continue
        items = "".join(
            f"<tr><td class=num>{s['count']}</td><td class=finding>{_e(s['signature'])}</td><td class=finding>"
            f"{_e(s['example']['where'])}: {_e(s['example']['message'])}</td></tr>"
            for s in sigs
        )
        tops.append(
            f"<h3>{_e(c['title'])} (<code>{_e(c['class'])}</code>)</h3><table><tr><th>blocks</th>"
            f"<th>signature</th><th>example</th></tr>{items}</table>"
        )
    cards = (
        f'<div class="cards"><div class="card"><b>{dist["blocks"]}</b>error blocks</div><div class="card"><b>'
        f'{dist["kernel_errors"]}</b>kernel errors</div><div class="card"><b>{dist["occurrences"]}</b>'
        f'reports</div><div class="card"><b>{len([c for c in classes if c["count"]])}</b>classes seen</div>'
        "</div>"
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title><style>{CSS}
h3 {{ font-size: 15px; margin: 18px 0 6px; }} code {{ font-size: 12px; }}</style></head><body>
<h1>{_e(title)}</h1>
<div class="meta">taxonomy version {_e(dist["taxonomy_version"])} (akgen_lsp/error_classes.toml); counts are
error blocks (one root cause each); "not a kernel error" (harness) is kept out of the kernel errors.</div>
{cards}
<h2>Classes</h2>
{chart}
<table><tr><th>id</th><th>class</th><th>blocks</th><th>share</th><th>definition</th></tr>{"".join(rows)}</table>
{_matrix("Per tool", dist["by_tool"])}
{_matrix("Per level", dist["by_level"])}
{_matrix("Per model", dist["by_model"])}
{_matrix("Per task", dist["by_task"])}
<h2>Top signatures per class</h2>
{"".join(tops) or '<p class="note">no blocks</p>'}
</body></html>
"""


def write_html(dist: Mapping[str, Any], out: str | Path, title: str = "akgen errors: distribution") -> Path:
    p = Path(out)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(render_html(dist, title), encoding="utf-8")
    return p
