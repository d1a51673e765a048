"""The editor's deterministic fixes as the ``deterministic`` fixer of the repair benchmark (`akgen errors bench`).

For each broken kernel of the corpus it does what `akgen fix --no-model` does: the kernel's check, then the verified
fixes round after round (`repair.deterministic.repair`), each fixed text checked on the simulator against the
kernel's task (`check.kernel.check_kernel`: the mutant's text beside its folder, the answer's op_host, the same cases
as the benchmark's own verification). A mistake only the linter sees (an invented name our headers happen to
declare, a call on a path no case runs) is mended with the linter's own fix (the editor's quick fix), or the fixers'
answer to its message (an argument count, a type spelling), checked the same way. Only a
repaired text that passes, with no lint error the correct kernel does not have, is proposed, so every candidate it
offers is one the editor would offer: the benchmark's own verification of it is the count of offered fixes that fail
(0 is the bar).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.check.kernel import check_kernel
from akgen_lsp.check.result import Checker, CheckResult, Status
from akgen_lsp.config import Settings
from akgen_lsp.errors.fixers import BrokenKernel, CandidateEdit
from akgen_lsp.findings import Finding, Severity, apply_edits
from akgen_lsp.repair import deterministic
from akgen_lsp.repair.fixers import FixContext, propose


def _suite_of(broken: BrokenKernel) -> str:
    root = str(Path(broken.task_root))
    return (
        root[: -len(broken.task_id)].rstrip("/")
        if root.endswith(broken.task_id)
        else str(Path(root).parents[2])
    )


class VerifiedFixer:
    """``deterministic`` for `errors.repair_bench` (see the module docstring)."""

    name = "deterministic"

    def __init__(self, max_cases: int | None = None, jobs: int = 2, rounds: int = 4) -> None:
        self.max_cases = max_cases
        self.jobs = jobs
        self.rounds = rounds

    def checker(self, broken: BrokenKernel, settings: Settings) -> Checker:
        values = settings.with_overrides({"bench.suite": _suite_of(broken)}, "the mutant's suite")

        async def check(path: str, text: str, required: Sequence[int] = ()) -> CheckResult:
            return await asyncio.to_thread(
                check_kernel,
                broken.file,
                values,
                None,
                text=text,
                task_name=broken.task_id,
                host_dir=broken.host_dir,
                max_cases=self.max_cases,
                required=required,
            )

        return check

    def candidates(
        self, broken: BrokenKernel, findings: Sequence[Finding], settings: Settings, k: int
    ) -> list[CandidateEdit]:
        return asyncio.run(self._candidates(broken, settings, k))

    async def _candidates(self, broken: BrokenKernel, settings: Settings, k: int) -> list[CandidateEdit]:
        checker = self.checker(broken, settings)
        done = await deterministic.repair(
            broken.text, str(broken.file), checker, settings, rounds=self.rounds, jobs=self.jobs
        )
        text, outcome, titles = done.text, done.outcome, [vf.proposal.fix.title for vf in done.applied]
        for _ in range(self.rounds):  # what only the linter sees: its own fix, checked like the others
            lint = self._new_lint(text, broken, settings)
            if not lint or outcome.status is not Status.PASS:
                break
            fixed = await self._lint_fix(text, lint, broken, settings, checker)
            if fixed is None:
                break
            text, outcome, title = fixed
            titles.append(title)
        if outcome.status is not Status.PASS or text == broken.text or self._new_lint(text, broken, settings):
            return []
        return [CandidateEdit(text, "; ".join(titles), self.name)][: max(1, k)]

    @staticmethod
    def _new_lint(text: str, broken: BrokenKernel, settings: Settings) -> list[Finding]:
        return [
            f
            for f in lint_text(text, broken.path, settings, load_catalog())
            if f.severity is Severity.ERROR and (f.code, f.message) not in broken.original_lint
        ]

    async def _lint_fix(
        self, text: str, lint: list[Finding], broken: BrokenKernel, settings: Settings, checker: Checker
    ) -> tuple[str, CheckResult, str] | None:
        fixes = [fx for f in lint for fx in f.fixes if fx.safe] + [
            fx for f in lint for fx in f.fixes if not fx.safe
        ]
        ctx = FixContext(text, str(broken.file), settings)
        fixes += [
            p.fix for f in lint for p in propose(ctx, f) if p.fix not in fixes
        ]  # the fixers on its messages
        for fx in fixes[:6]:
            new = apply_edits(text, fx.edits)
            left = self._new_lint(new, broken, settings)
            if len(left) >= len(lint):
                continue
            outcome = await checker(str(broken.file), new)
            if outcome.status is Status.PASS:
                return new, outcome, fx.title
        return None
