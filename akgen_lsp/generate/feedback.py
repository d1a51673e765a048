"""A round's outcome as the next user turn.

- a kernel that fails (does not compile, crashes, computes wrong numbers): the diagnostic report of its first error
  (`errors.report.build_report`: the class, the code around the line, the catalog's real signatures, similar repairs
  from the experience memory) in the repair prompt the errors package trains on (`errors.samples.repair_messages`);
- an answer with no kernel in it (nonsense, cut off at the token limit, the model's time out): what was wrong and
  the layout again;
- a correct kernel in a performance round: the estimate against its roofline baseline, the bound, each pipe's
  utilisation and what would help ("double buffering would overlap MTE2 and V"), and the rule that every case must
  keep passing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from akgen_lsp.ascendc.catalog import Catalog
from akgen_lsp.check.result import CheckResult
from akgen_lsp.config import Settings
from akgen_lsp.errors.report import DiagnosticReport, build_report
from akgen_lsp.errors.samples import repair_messages
from akgen_lsp.errors.store import Repair, RepairStore
from akgen_lsp.findings import Finding, Severity
from akgen_lsp.repair.verify import repairable

_SINGLE_BUFFER = re.compile(r"InitBuffer\s*\(\s*[\w.\[\]]+\s*,\s*1\s*,")


def target_finding(outcome: CheckResult) -> Finding | None:
    """The error the next round is asked to repair: the first repairable one, else the first error."""
    errors = [f for f in outcome.findings if f.severity is Severity.ERROR]
    return next((f for f in outcome.findings if repairable(f)), errors[0] if errors else None)


def failure_turn(
    outcome: CheckResult,
    code: str,
    path: str,
    settings: Settings,
    *,
    catalog: Catalog | None = None,
    store: RepairStore | None = None,
    layout: str = "",
) -> tuple[str, DiagnosticReport | None]:
    """The user turn after a kernel that fails, and the report it holds (None when no finding says why)."""
    head = f"The kernel you wrote {outcome.summary()} ({outcome.status.replace('_', ' ')})."
    target = target_finding(outcome)
    if target is None:
        return (
            f"{head} The check gave no error message. Write the whole kernel again so that every case passes."
            f"\n\n{layout}".strip(),
            None,
        )
    target = replace(
        target, span=target.span.with_path(path)
    )  # the bench's copy of the file is named as the task's
    report = build_report(
        target, code, path, settings, catalog=catalog, store=store, use_store=store is not None
    )
    user = repair_messages(report.markdown(), code, path)[1]["content"]
    return f"{head}\n\n{user}\n\n{layout}".strip(), report


def no_code_turn(problem: str, layout: str) -> str:
    """The user turn after an answer that holds no kernel."""
    return f"Your answer holds no kernel I could read: {problem}.\n\n{layout}"


def _pipes(cases: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """Mean utilisation per pipe over the passing cases that report it."""
    sums: dict[str, list[float]] = {}
    for c in cases:
        for pipe, v in (c.get("pipes") or {}).items():
            if isinstance(v, Mapping) and isinstance(v.get("utilization"), (int, float)):
                sums.setdefault(pipe, []).append(float(v["utilization"]))
    return {p: sum(v) / len(v) for p, v in sums.items()}


def advice(outcome: CheckResult, code: str) -> list[str]:
    """What the estimate suggests, most useful first."""
    cases = [c for c in outcome.figures.case_results if c.get("status") == "pass"]
    pipes = _pipes(cases)
    bound = str(outcome.figures.bound or "")
    out: list[str] = []
    blocks = [int(c["blocks"]) for c in cases if isinstance(c.get("blocks"), int)]
    cores = [int(c["cores"]) for c in cases if isinstance(c.get("cores"), int)]
    if blocks and cores and max(blocks) < min(cores):
        out.append(f"only {max(blocks)} of {min(cores)} cores run: split the work over all of them")
    if _SINGLE_BUFFER.search(code) and pipes.get("MTE2", 0) > 0 and pipes.get("V", 0) > 0:
        out.append(
            "the queues have one buffer each: double buffering (InitBuffer(que, 2, ...)) would overlap MTE2 "
            "and V"
        )
    elif pipes and sum(pipes.get(p, 0.0) for p in ("MTE2", "V", "MTE3")) <= 1.05 and len(pipes) >= 2:
        out.append(
            "the pipes take turns instead of overlapping: alternate two buffers per queue so MTE2, V and "
            "MTE3 run at once"
        )
    if bound in ("HBM", "MTE2", "MTE3"):
        out.append(
            "memory bound: move more data per DataCopy (larger tiles within UB) and read each input once"
        )
    elif bound == "V":
        out.append(
            "vector bound: fewer, longer vector instructions (a larger count per call), fewer passes over UB"
        )
    elif bound == "S":
        out.append("scalar bound: replace per-element scalar loops with vector instructions")
    return out


def perf_turn(
    outcome: CheckResult,
    code: str,
    layout: str,
    last_failed: str | None = None,
    improvements: Sequence[Repair] = (),
    files: str | None = None,
) -> str:
    """The user turn of a performance round, from the best correct kernel's check `outcome`; `files` is the best
    version as the answer's file sections (dynamic shape: the host tiling with the kernel), else the kernel shown."""
    f = outcome.figures
    est, base = outcome.estimate_us, f.baseline_us
    lines = []
    if last_failed:
        lines.append(
            f"Your last version was not kept: {last_failed}. Start again from the best correct version below."
        )
    gap = (
        f"; the roofline baseline is {float(base):.2f} us, {est / float(base):.1f}x below it"
        if (est and isinstance(base, (int, float)) and base > 0)
        else ""
    )
    lines.append(
        f"The kernel is correct ({len(outcome.passed)}/{outcome.cases} cases pass). Its estimated time on "
        f"{f.arch or 'the NPU'} is {est if est is not None else '?'} us (an estimate of the simulator's "
        f"cost model){gap}."
    )
    pipes = _pipes([c for c in f.case_results if c.get("status") == "pass"])
    if f.bound or pipes:
        util = ", ".join(f"{p} {u:.0%}" for p, u in sorted(pipes.items(), key=lambda kv: -kv[1]))
        lines.append(f"It is bound by {f.bound or '?'}; pipe utilisation: {util or 'not reported'}.")
    tips = advice(outcome, code)
    if tips:
        lines.append("What would help: " + "; ".join(tips) + ".")
    for r in improvements:
        lines.append(
            f"A change that helped a kernel bound the same way ({r.message}):\n```diff\n{r.diff[:1500]}\n```"
        )
    lines.append("Make it faster. Every case must still pass; a faster kernel that fails a case is not kept.")
    lines.append("### The best version so far\n" + (files if files else f"```cpp\n{code.rstrip()}\n```"))
    lines.append(layout)
    return "\n\n".join(lines)
