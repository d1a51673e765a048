"""The self-contained HTML report of a run: per-level table, per-task status with the first finding, error-class
histogram and speedup plot as inline SVG. No script, no external file: it opens offline."""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

STATUS_COLOURS = {
    "pass": "#2e7d32",
    "wrong_answer": "#ef6c00",
    "compile_error": "#c62828",
    "runtime_error": "#ad1457",
    "timeout": "#6a1b9a",
    "no_work": "#4e342e",
    "parse_error": "#37474f",
    "skipped": "#757575",
    "harness_error": "#455a64",
}

CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1c1c1c; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; }
.meta { color: #555; margin-bottom: 16px; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.status { color: #fff; border-radius: 3px; padding: 1px 6px; font-size: 12px; white-space: nowrap; }
.finding { font-family: ui-monospace, monospace; font-size: 12px; color: #333; max-width: 760px;
           overflow-wrap: anywhere; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: 8px 14px; min-width: 120px; }
.card b { display: block; font-size: 20px; }
.note { color: #666; font-size: 12px; }
"""


def _e(v: Any) -> str:
    return html.escape("" if v is None else str(v))


def bar_svg(
    items: Sequence[tuple[str, float]], width: int = 560, colour: str = "#1565c0", fmt: str = "{:g}"
) -> str:
    """A horizontal bar chart as inline SVG: one labelled bar per (label, value) (akgen errors uses it too)."""
    if not items:
        return '<p class="note">nothing to plot</p>'
    row = 22
    label_w = 190
    h = row * len(items) + 10
    vmax = max((v for _, v in items), default=1.0) or 1.0
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" role="img">']
    for i, (label, v) in enumerate(items):
        y = 5 + i * row
        w = max(1.0, (width - label_w - 70) * v / vmax)
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 14}" font-size="12" text-anchor="end">{_e(label)}</text>'
        )
        parts.append(f'<rect x="{label_w}" y="{y + 2}" width="{w:.1f}" height="{row - 6}" fill="{colour}"/>')
        parts.append(
            f'<text x="{label_w + w + 4:.1f}" y="{y + 14}" font-size="12">{_e(fmt.format(v))}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _speedup_svg(tasks: Sequence[Mapping[str, Any]]) -> str:
    pts = [(t["task"].rsplit("/", 1)[-1], float(t["speedup"])) for t in tasks if t.get("speedup")]
    if not pts:
        return '<p class="note">no correct candidate with an estimate</p>'
    body = bar_svg(sorted(pts, key=lambda p: -p[1]), colour="#00897b", fmt="{:.2f}")
    return body + (
        '<p class="note">speedup = roofline time of the case (minimal bytes over HBM bandwidth, minimal '
        "work over peak compute) / the simulator's estimate; 1.0 means at the roofline. Both are "
        "estimates.</p>"
    )


def _no_answer_html(rows: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        return ""
    items = "".join(f"<li>{_e(r.get('task'))}: {_e(r.get('reason'))}</li>" for r in rows)
    return (
        f'<h2>Skipped: no reference answer ({len(rows)})</h2><p class="note">These tasks ship only question/ '
        f"and validation/ in the checkout; they are not counted as tasks, failures or in the score.</p>"
        f"<ul>{items}</ul>"
    )


def render_html(summary: Mapping[str, Any], title: str = "akgen bench") -> str:
    lv_rows = "".join(
        f"<tr><td>level {lv}</td><td class=num>{d['tasks']}</td><td class=num>{d['compiled']}</td>"
        f"<td class=num>{d['passed']}</td><td class=num>{d.get('no_answer', 0)}</td>"
        f"<td class=num>{_e(summary.get('level_scores', {}).get(lv, ''))}</td></tr>"
        for lv, d in summary.get("levels", {}).items()
    )
    task_rows = []
    for t in summary.get("tasks", []):
        st = t.get("status") or ""
        colour = STATUS_COLOURS.get(st, "#546e7a")
        est = f"{t['estimate_us']:.3f}" if isinstance(t.get("estimate_us"), (int, float)) else ""
        sp = f"{t['speedup']:.2f}" if isinstance(t.get("speedup"), (int, float)) else ""
        task_rows.append(
            f"<tr><td>{_e(t['task'])}</td><td class=num>{t.get('level')}</td>"
            f'<td><span class="status" style="background:{colour}">{_e(st)}</span></td>'
            f"<td class=num>{t.get('passed_cases')}/{t.get('cases')}</td><td>{_e(t.get('error_class') or '')}</td>"
            f"<td class=num>{est}</td><td class=num>{sp}</td>"
            f'<td class="finding">{_e(t.get("first_finding") or "")}</td></tr>'
        )
    hist = sorted(summary.get("error_classes", {}).items(), key=lambda kv: -kv[1])
    pak = summary.get("pass_at_k", {})
    cards = [("score", summary.get("score")), ("candidates", summary.get("candidates"))]
    cards += [(f"compile@{k}", v) for k, v in pak.get("compile", {}).items()]
    cards += [(f"pass@{k}", v) for k, v in pak.get("correct", {}).items()]
    cards += [(f"fast_{p}", v) for p, v in summary.get("fast_p", {}).items()]
    card_html = "".join(f'<div class="card">{_e(k)}<b>{_e(v)}</b></div>' for k, v in cards)
    stages = " · ".join(f"{k} {v:.0%}" for k, v in summary.get("stage_rates", {}).items())
    tm = summary.get("timings", {})
    meta = " · ".join(
        f"{k}: {_e(summary[k])}"
        for k in ("suite", "mode", "toolchain", "arch", "candidates_from")
        if summary.get(k)
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title><style>{CSS}</style></head>
<body>
<h1>{_e(title)}</h1>
<div class="meta">{meta}</div>
<div class="cards">{card_html}</div>
<p>Stage pass rates: {_e(stages)}. Harness time outside compile and run: {_e(tm.get("harness"))} s of
{_e(tm.get("total"))} s ({_e(tm.get("harness_overhead_ratio"))}).</p>
<h2>Levels</h2>
<table><tr><th>level</th><th>tasks</th><th>compiled</th><th>passed</th><th>no answer</th><th>score</th></tr>
{lv_rows}</table>
{_no_answer_html(summary.get("no_answer", []))}
<p class="note">score = 0.2·L1 + 0.3·L2 + 0.5·L3 over the levels present; task score = passed cases / cases × 100.</p>
<h2>Error classes (candidates)</h2>
{bar_svg([(k, float(v)) for k, v in hist], colour="#c62828", fmt="{:.0f}")}
<h2>Speedup against the roofline (estimate)</h2>
{_speedup_svg(summary.get("tasks", []))}
<h2>Tasks</h2>
<table><tr><th>task</th><th>level</th><th>status</th><th>cases</th><th>error class</th><th>estimate µs</th>
<th>speedup</th><th>first finding</th></tr>{"".join(task_rows)}</table>
</body></html>
"""


def write_report(out_dir: Path, summary: Mapping[str, Any]) -> tuple[Path, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    sj = out_dir / "summary.json"
    sj.write_text(json.dumps(summary, indent=2, default=str), encoding="utf-8")
    hp = out_dir / "report.html"
    hp.write_text(render_html(summary), encoding="utf-8")
    return sj, hp
