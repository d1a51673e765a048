"""The verified model repair ("Fix with KernelGen-LM"): report -> prompt -> candidates -> verify -> rank.

`model_repair(text, path, target, before, backend, checker, settings)`:
1. the diagnostic report of the finding (`errors.report.build_report`: error class, code context, the catalog's real
   signatures, similar repairs already made) and the repair prompt models are trained on (`errors.samples`);
2. ``fix.samples`` answers through the configured backend at ``fix.temperature`` (a seed per sample), one after the
   other (a local model is one at a time anyway); each answer's verification starts as soon as it arrives;
3. each answer: the corrected file extracted; an answer with no code, the file unchanged, or another kernel (its
   entry renamed, most of the file replaced) is rejected with the reason; the candidate is linted (a new lint error
   rejects it) and then checked on the simulator like a save (`checker`, at most ``fix.jobs`` at once);
4. a candidate is offered only when it compiles, removes the finding and passes every case the kernel passed plus
   the one that failed (`verify.verify_repair`); the verified ones are ranked by passing cases, then by the
   estimate.
Cancelling the caller stops the generation and the checks it started (the checker kills their processes).
`ModelRepair.message()` says what was verified, or that nothing was and the best candidate's first failure.
"""

from __future__ import annotations

import asyncio
import difflib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from akgen_lsp.ascendc.catalog import Catalog, load_catalog
from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.bench.extract import ExtractError, extract_answer
from akgen_lsp.bench.pipeline import kernel_entry
from akgen_lsp.check.result import Checker, CheckResult
from akgen_lsp.config import Settings
from akgen_lsp.errors.report import DiagnosticReport, build_report
from akgen_lsp.errors.samples import extract_code, repair_messages
from akgen_lsp.errors.store import RepairStore, RepairStoreError
from akgen_lsp.findings import Finding, Severity
from akgen_lsp.logs.signature import signature
from akgen_lsp.model.backends.base import Backend, BackendError, GenParams, Prompt
from akgen_lsp.model.prompts import render_chat
from akgen_lsp.model.registry import ModelSpec
from akgen_lsp.repair.remember import store_path
from akgen_lsp.repair.verify import Verdict, required_cases, verify_repair

log = logging.getLogger(__name__)

Progress = Callable[[str, "int | None"], None]  # (message, percentage)
MIN_SIMILARITY = 0.5  # a candidate sharing less of its lines with the file is another kernel, not a repair
SEED = 4096


@dataclass
class Candidate:
    index: int
    answer: str = ""
    text: str | None = None
    verdict: Verdict | None = None
    problem: str | None = None  # why it was rejected (before or by verification)
    generate_s: float = 0.0
    verify_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.verdict is not None and self.verdict.ok

    def failure(self) -> str:
        if self.verdict is not None and not self.verdict.ok:
            return self.verdict.reason
        return self.problem or "not verified"


@dataclass
class ModelRepair:
    target: Finding
    model: str
    candidates: list[Candidate] = field(default_factory=list)
    report: DiagnosticReport | None = None
    problem: str | None = None  # the backend failed (down, slow, not configured): nothing was verified

    @property
    def verified(self) -> list[Candidate]:
        return sorted(
            (c for c in self.candidates if c.ok), key=lambda c: c.verdict.rank if c.verdict else (0, 0, 0)
        )

    @property
    def best(self) -> Candidate | None:
        v = self.verified
        return v[0] if v else None

    def title(self) -> str:
        best = self.best
        return (
            f"Fix with {self.model}: {best.verdict.reason}"
            if best and best.verdict
            else f"Fix with {self.model}"
        )

    def message(self) -> str:
        """What was verified, or why nothing is offered (with the best candidate's first failure)."""
        best = self.best
        if best is not None and best.verdict is not None:
            n = len(self.verified)
            return (
                f"{self.model}: a repair verified on the simulator ({best.verdict.reason}); "
                f"{n} of {len(self.candidates)} candidates verified."
            )
        if self.problem:
            return f"{self.model}: no repair: {self.problem}"
        if not self.candidates:
            return f"{self.model}: no repair: the model gave no candidate."
        tried = [c for c in self.candidates if c.verdict is not None] or self.candidates
        top = min(tried, key=lambda c: c.verdict.rank if c.verdict else (1, 1, float("inf")))
        return (
            f"{self.model}: none of {len(self.candidates)} candidates verified, so nothing was applied; the best "
            f"(candidate {top.index + 1}): {top.failure()}"
        )


def repair_prompt(report: DiagnosticReport, text: str, path: str, spec: ModelSpec | None = None) -> Prompt:
    """The repair prompt (`errors.samples.repair_messages`: the report and the file), rendered for the model."""
    messages = tuple(repair_messages(report.markdown(), text, path))
    template = spec.chat_template if spec is not None else "qwen3"
    return Prompt(render_chat(messages, template=template, think=False), messages=messages, kind="chat")


def candidate_code(answer: str) -> str | None:
    """The corrected file of an answer: its last fenced C++ block, else a kernel the bench's parser finds."""
    code = extract_code(answer)
    if code is None:
        try:
            code = extract_answer(answer).kernel
        except ExtractError:
            return None
    return code if code.endswith("\n") else code + "\n"


def screen(text: str, code: str | None, path: str, settings: Settings, catalog: Catalog) -> str | None:
    """Why a candidate is no repair before it is compiled (no code, unchanged, another kernel, a new lint error);
    None when it goes on to verification."""
    if code is None or not code.strip():
        return "the answer holds no code"
    if code.strip() == text.strip():
        return "the answer is the file unchanged"
    before, after = kernel_entry(text), kernel_entry(code)
    if before is not None and (after is None or after[0] != before[0]):
        return f"a different kernel: its entry is {after[0] if after else 'missing'}, not {before[0]}"
    ratio = difflib.SequenceMatcher(None, text.splitlines(), code.splitlines(), autojunk=False).ratio()
    if ratio < MIN_SIMILARITY:
        return f"a different kernel: it keeps only {ratio:.0%} of the file's lines"
    had = {
        (f.code, signature(f.message))
        for f in lint_text(text, path, settings, catalog)
        if f.severity is Severity.ERROR
    }
    for f in lint_text(code, path, settings, catalog):
        if f.severity is Severity.ERROR and (f.code, signature(f.message)) not in had:
            return f"lint: {f.code} at line {f.span.line}: {f.message}"
    return None


async def model_repair(
    text: str,
    path: str,
    target: Finding,
    before: CheckResult,
    backend: Backend,
    checker: Checker,
    settings: Settings,
    *,
    spec: ModelSpec | None = None,
    model_name: str = "KernelGen-LM",
    progress: Progress | None = None,
    catalog: Catalog | None = None,
    store: RepairStore | None = None,
    grammar: str | None = None,
) -> ModelRepair:
    """The verified repair of `target` (see the module docstring). Raises nothing for a bad model or candidate: the
    result says what happened; cancelling the caller cancels the work."""
    cat = catalog or load_catalog()
    grammar = grammar or str(settings["fix.grammar"]) or None
    samples = max(1, int(settings["fix.samples"]))
    jobs = max(1, int(settings["fix.jobs"]))
    result = ModelRepair(target, model_name)

    def say(message: str, done: int | None = None) -> None:
        if progress is not None:
            progress(message, done)

    say("building the diagnostic report", 0)
    if store is None:
        try:
            where = store_path(settings)
            if where is not None and where.is_file():
                store = RepairStore(where)  # the similar repairs the user accepted before
        except RepairStoreError as exc:
            log.warning("%s", exc)
    result.report = build_report(target, text, path, settings, catalog=cat, store=store)
    prompt = repair_prompt(result.report, text, path, spec)
    gate = asyncio.Semaphore(jobs)
    required = required_cases(
        before
    )  # run first: a candidate failing one of them stops there (rejected anyway)
    checks: list[asyncio.Task[None]] = []
    finished = 0

    async def verify(c: Candidate) -> None:
        nonlocal finished
        async with gate:
            say(f"verifying candidate {c.index + 1} of {samples} on the simulator", None)
            t0 = time.perf_counter()
            after = await checker(path, c.text or "", required)
            c.verify_s = time.perf_counter() - t0
        c.verdict = verify_repair(target, before, after, text, c.text or "")
        finished += 1
        say(
            f"candidate {c.index + 1}: {'verified' if c.ok else c.verdict.reason}",
            30 + 70 * finished // samples,
        )

    deadline = time.monotonic() + float(settings["fix.timeout_s"])
    try:
        for i in range(samples):
            say(f"asking {model_name} for candidate {i + 1} of {samples}", 5 + 25 * i // samples)
            c = Candidate(i)
            result.candidates.append(c)
            left = deadline - time.monotonic()
            params = GenParams(
                max_tokens=int(settings["fix.max_tokens"]),
                temperature=float(settings["fix.temperature"]),
                top_p=float(settings["model.top_p"]),
                seed=SEED + i,
                timeout_s=max(1.0, left),
                **({"grammar": grammar} if grammar else {}),
            )
            t0 = time.perf_counter()
            try:
                if left <= 0:
                    raise asyncio.TimeoutError
                gen = backend.stream(prompt, params)
                try:
                    c.answer = await asyncio.wait_for(gen.text(), left)
                finally:
                    await gen.aclose()
            except asyncio.TimeoutError:
                result.problem = (
                    f"the model gave no answer within {float(settings['fix.timeout_s']):g} s; raise "
                    "fix.timeout_s or use a smaller model"
                )
                c.problem = result.problem
                break
            except BackendError as exc:
                result.problem = str(exc)
                c.problem = str(exc)
                break
            c.generate_s = time.perf_counter() - t0
            c.text = candidate_code(c.answer)
            c.problem = screen(text, c.text, path, settings, cat)
            if c.problem is not None:
                finished += 1
                say(f"candidate {i + 1}: {c.problem}", None)
                continue
            checks.append(asyncio.ensure_future(verify(c)))
        if checks:
            await asyncio.gather(*checks)
    finally:
        for t in checks:
            t.cancel()
    if result.problem and any(c.verdict is not None for c in result.candidates):
        result.problem = None  # some candidates came before the backend failed: they speak for themselves
    say(result.message(), 100)
    return result
