"""The deterministic fixes of a failed check, verified before anyone sees them.

`verified_fixes(text, path, before, checker, settings)` takes the check of a document (`before`: its compile errors,
runtime findings, wrong numbers), asks every fixer (`repair.fixers`) for fixes of its first findings, checks each
distinct fixed text on the simulator (`checker`, at most `jobs` at once) and returns the fixes that verify
(`verify.verify_fix`), each titled with what was verified; of one finding's fixes only those that get as far as the
best one are kept (passing as many cases, reaching the same stage). A fix is `safe` only when it is certain (a
rename to the real name, a type spelling, a template argument the declaration gives) and the only one of its
finding kept. The server attaches these to the published diagnostics; `akgen fix` applies them.

`repair(text, path, checker, settings)` is `akgen fix`'s loop: check, apply the best verified fix, and again with
the check of the fixed text (already made by the verification), until the kernel passes or no fix verifies.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from akgen_lsp.ascendc.catalog import Catalog, load_catalog
from akgen_lsp.check.result import CHECK_SOURCES, Checker, CheckResult, Status
from akgen_lsp.config import Settings, defaults
from akgen_lsp.findings import Finding, Fix, Span, apply_edits
from akgen_lsp.logs.signature import signature
from akgen_lsp.repair.fixers import FixContext, Proposal, propose
from akgen_lsp.repair.verify import Verdict, repairable, verify_fix

log = logging.getLogger(__name__)

MAX_TARGETS = 3  # findings a check's fixes are tried for (the first root causes)
MAX_CHECKS = 8  # fixed texts checked per round
MAX_COMBOS = 4  # texts with the fixes of several errors together, checked per round


@dataclass(frozen=True)
class VerifiedFix:
    """A fix of `finding` that verified: its text after the fix and the check of that text."""

    finding: Finding
    proposal: Proposal
    text: str
    verdict: Verdict
    safe: bool = False

    @property
    def fix(self) -> Fix:
        return Fix(
            f"{self.proposal.fix.title} — verified: {self.verdict.reason}",
            self.proposal.fix.edits,
            safe=self.safe,
        )


def spans_overlap(a: Span, b: Span) -> bool:
    return (a.line, a.column) < (b.end_line, b.end_column) and (b.line, b.column) < (a.end_line, a.end_column)


def fix_targets(before: CheckResult, limit: int = MAX_TARGETS) -> list[Finding]:
    """The findings whose fixes are tried: the check's errors and the simulator's warnings (a DataCopy that drops
    its tail shows as wrong numbers), one per distinct message, in order."""
    out: list[Finding] = []
    seen: set[tuple[str, str, int]] = set()
    for f in before.findings:
        if not repairable(f):
            continue
        key = (f.code, signature(f.message), f.span.line)
        if key in seen:
            continue
        seen.add(key)
        out.append(f)
    # runtime warnings first when the kernel compiled: they say what made the numbers wrong
    out.sort(key=lambda f: (0 if f.code.startswith("SIM-") else 1) if before.compiles else 0)
    return out[:limit]


async def verified_fixes(
    text: str,
    path: str,
    before: CheckResult,
    checker: Checker,
    settings: Settings | None = None,
    *,
    jobs: int = 2,
    catalog: Catalog | None = None,
    targets: Sequence[Finding] | None = None,
    max_checks: int = MAX_CHECKS,
) -> list[VerifiedFix]:
    """The verified fixes of `before`'s findings (see the module docstring), best first per finding."""
    settings = settings or defaults()
    ctx = FixContext(text, path, settings, catalog or load_catalog())
    wanted = list(targets) if targets is not None else fix_targets(before)
    proposals: list[tuple[Finding, Proposal, str]] = []
    texts: dict[str, None] = {}
    for target in wanted:
        for p in propose(ctx, target):
            new = apply_edits(text, p.fix.edits)
            if new not in texts and len(texts) >= max_checks:
                continue
            texts.setdefault(new, None)
            proposals.append((target, p, new))
    if not proposals:
        return []
    gate = asyncio.Semaphore(max(1, jobs))
    outcomes = await check_all(texts, path, checker, gate)
    out: list[VerifiedFix] = []
    per_target: list[tuple[Finding, list[VerifiedFix]]] = []
    for target in wanted:
        mine = [
            (p, new, verify_fix(target, before, outcomes[new], text, new))
            for t, p, new in proposals
            if t is target
        ]
        good = sorted([(p, new, v) for p, new, v in mine if v.ok], key=lambda x: x[2].rank)
        if (
            good
        ):  # of the fixes of one error, only the best kind: one that passes makes one that compiles moot
            top = good[0][2].rank[:2]
            good = [g for g in good if g[2].rank[:2] == top]
        for p, _new, v in mine:
            if not v.ok:
                log.debug("fix %r of %s did not verify: %s", p.fix.title, target.code, v.reason)
        fixed = [VerifiedFix(target, p, new, v, safe=p.certain and len(good) == 1) for p, new, v in good]
        out.extend(fixed)
        if fixed:
            per_target.append((target, fixed))
    if len(per_target) > 1 and not any(vf.verdict.outcome.status is Status.PASS for vf in out):
        out.extend(await _together(text, path, before, per_target, checker, gate))
    return out


async def _together(
    text: str,
    path: str,
    before: CheckResult,
    per_target: Sequence[tuple[Finding, list[VerifiedFix]]],
    checker: Checker,
    gate: asyncio.Semaphore,
    max_combos: int = MAX_COMBOS,
) -> list[VerifiedFix]:
    """Errors that each have a verified fix, fixed together: a fix of one error can verify alone and still be the
    wrong one once the others are fixed (``Addd`` -> ``Adds`` beside an undeclared argument), so the best fixes of
    each error are combined (non-overlapping edits, at most `max_combos` texts) and checked as one. A combination
    that verifies for every error it fixes is offered on each of them."""
    choices = [fixes[:2] for _t, fixes in per_target]
    combos: list[tuple[VerifiedFix, ...]] = [()]
    for options in choices:
        combos = [(*c, o) for c in combos for o in options][: max_combos * 2]
    texts: dict[str, tuple[VerifiedFix, ...]] = {}
    for combo in combos:
        edits = [e for vf in combo for e in vf.proposal.fix.edits]
        if any(spans_overlap(a.span, b.span) for i, a in enumerate(edits) for b in edits[i + 1 :]):
            continue
        new = apply_edits(text, edits)
        texts.setdefault(new, combo)
        if len(texts) >= max_combos:
            break
    outcomes = await check_all(texts, path, checker, gate)
    out: list[VerifiedFix] = []
    for new, combo in texts.items():
        after = outcomes[new]
        verdicts = [verify_fix(vf.finding, before, after, text, new) for vf in combo]
        if not all(v.ok for v in verdicts):
            continue
        title = "; ".join(vf.proposal.fix.title for vf in combo)
        edits = tuple(e for vf in combo for e in vf.proposal.fix.edits)
        for vf, v in zip(combo, verdicts, strict=True):
            joint = Proposal(Fix(f"Fix {len(combo)} errors: {title}", edits), False, "together")
            out.append(VerifiedFix(vf.finding, joint, new, v))
    return out


async def check_all(
    texts: Iterable[str], path: str, checker: Checker, gate: asyncio.Semaphore
) -> dict[str, CheckResult]:
    """The check of each text, as many at once as `gate` lets through; cancelled together."""

    async def check(new: str) -> CheckResult:
        async with gate:
            return await checker(path, new)

    tasks = {new: asyncio.ensure_future(check(new)) for new in texts}
    try:
        await asyncio.gather(*tasks.values())
    finally:
        for t in tasks.values():
            t.cancel()
    return {new: t.result() for new, t in tasks.items()}


def with_fixes(findings: Sequence[Finding], fixes: Sequence[VerifiedFix]) -> list[Finding]:
    """`findings` with each verified fix attached to the finding it fixes (replacing the unverified ones)."""
    by_id: dict[int, list[Fix]] = {}
    for vf in fixes:
        by_id.setdefault(id(vf.finding), []).append(vf.fix)
    return [
        dataclasses.replace(f, fixes=tuple(by_id.get(id(f), ()))) if f.source in CHECK_SOURCES else f
        for f in findings
    ]


@dataclass
class Repaired:
    """What `repair` did: the final text and its check, and the fixes applied in order."""

    text: str
    outcome: CheckResult
    applied: list[VerifiedFix] = field(default_factory=list)

    @property
    def passes(self) -> bool:
        return self.outcome.status is Status.PASS


async def repair(
    text: str,
    path: str,
    checker: Checker,
    settings: Settings | None = None,
    *,
    before: CheckResult | None = None,
    rounds: int = 4,
    jobs: int = 2,
    catalog: Catalog | None = None,
) -> Repaired:
    """Apply the best verified fix, round after round, until the kernel passes or nothing verifies."""
    current = before if before is not None else await checker(path, text)
    done = Repaired(text, current)
    for _ in range(rounds):
        if done.passes:
            break
        fixes = await verified_fixes(
            done.text, path, done.outcome, checker, settings, jobs=jobs, catalog=catalog
        )
        if not fixes:
            break
        pick = min(fixes, key=lambda vf: vf.verdict.rank)
        done = Repaired(pick.text, pick.verdict.outcome, [*done.applied, pick])
    return done
