"""One instance's rounds (a task, its case in static shape, a sample): a state machine with no I/O.

`Attempt.request()` gives the next round's kind and messages (or None when the attempt is over); the driver asks the
model, evaluates the answer and hands the round back with `Attempt.take(round)`, which reads the outcome, keeps the
best correct kernel, writes the feedback turn the next round starts from, and tells the experience memory what
worked. Rounds are numbered from 0: ``rounds`` correctness rounds at most (until the kernel passes), then
``perf_rounds`` performance rounds in which a kernel is kept only if every case passes and the estimate is lower.
A model that loops, answering the files of an earlier round again (`Attempt.same_as`), gets that round's outcome
without another run, and its feedback says so: the same files cannot do better.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.ascendc.arch import ArchProfile
from akgen_lsp.ascendc.catalog import Catalog
from akgen_lsp.bench.extract import ExtractError, extract_answer
from akgen_lsp.bench.tasks import Task
from akgen_lsp.check.result import CheckResult, Status
from akgen_lsp.config import Settings
from akgen_lsp.generate.conversation import Bounded, ContextOverflow, Turn, bound, estimate_tokens
from akgen_lsp.generate.feedback import failure_turn, no_code_turn, perf_turn, target_finding
from akgen_lsp.generate.memory import ExperienceMemory
from akgen_lsp.generate.task_prompt import instance_case, task_messages
from akgen_lsp.model.prompts import answer_layout
from akgen_lsp.repair.verify import verify_fix

KINDS = ("generate", "repair", "perf", "given")  # given: a kernel the loop started from (the editor's)


def answer_text(op: str, mode: str, kernel: str, host: Mapping[str, str | None] | None = None) -> str:
    """Files as an answer in the layout the prompt asks for (`model.prompts.answer_layout`, what `bench.extract`
    reads): the kernel in ``<kernel_impl>`` (static shape), else the three file sections with the op_host files of
    `host` by name (``<op>_tiling.h``, ``<op>.cpp``)."""
    if mode != "dynamic":
        return f"<kernel_impl>\n```cpp\n{kernel.rstrip()}\n```\n</kernel_impl>"
    files = dict(host or {})
    parts = [
        (f"op_host/{op}_tiling.h", files.get(f"{op}_tiling.h")),
        (f"op_host/{op}.cpp", files.get(f"{op}.cpp")),
        (f"op_kernel/{op}.cpp", kernel),
    ]
    return "\n\n".join(
        f"================== {name} ==================\n```cpp\n{text.rstrip()}\n```"
        for name, text in parts
        if text is not None
    )


@dataclass(frozen=True)
class LoopConfig:
    rounds: int = 3  # correctness rounds at most (round 0 is the first answer)
    perf_rounds: int = 0
    mode: str = "static"
    max_tokens: int = 4096
    temperature: float = 0.7
    top_p: float = 0.95
    timeout_s: float = 600.0  # one model answer
    context: int = 32768  # the model's context in tokens
    concurrency: int = 1  # model requests at once (one shared backend)
    think: bool = False
    chat_template: str = "qwen3"
    seed: int = 1234
    # the GBNF grammar of a round (round index, attempt): forced outputs for tests and demos
    grammar: Callable[[int, Attempt], str | None] | None = None


@dataclass
class Round:
    index: int
    kind: str
    messages: list[dict[str, str]] = field(default_factory=list, repr=False)
    answer: str = ""
    code: str | None = None  # the kernel
    host: str | None = None  # dynamic shape: op_host/<op>.cpp
    tiling: str | None = None  # dynamic shape: op_host/<op>_tiling.h
    problem: str | None = None  # why no kernel was evaluated (no code, the model's time out, the backend)
    outcome: CheckResult | None = field(default=None, repr=False)
    record: dict[str, Any] = field(default_factory=dict, repr=False)  # the bench record of the evaluation
    tokens: int = 0
    prompt_tokens: int = 0
    finish: str = ""
    model_s: float = 0.0
    eval_s: float = 0.0
    loop_s: float = 0.0  # outside the model and the simulator: prompt, extraction, report, bookkeeping
    loop_parts: dict[str, float] = field(default_factory=dict)  # loop_s by stage: prompt, extract, feedback
    note: str = ""  # what the context bound did
    kept: bool = False  # this round's kernel became the best

    @property
    def status(self) -> str:
        if self.outcome is not None:
            return self.outcome.status
        return "no_code" if self.problem else "pending"

    @property
    def compiled(self) -> bool:
        return self.outcome is not None and self.outcome.compiles

    @property
    def correct(self) -> bool:
        return self.outcome is not None and self.outcome.status is Status.PASS

    def summary(self) -> str:
        """One line: what this round's kernel did."""
        if self.outcome is None:
            return f"{self.kind}: no kernel ({self.problem or 'not evaluated'})"
        text = f"{self.kind}: {self.outcome.summary()}"
        target = target_finding(self.outcome)
        if target is not None and not self.correct:
            where = f" at line {target.span.line}" if target.span.line > 1 else ""
            text += f" ({target.code}{where}: {target.message[:160]})"
        return text


class Attempt:
    """The rounds of one instance (see the module docstring)."""

    def __init__(
        self,
        task: Task,
        arch: ArchProfile,
        cfg: LoopConfig,
        settings: Settings,
        *,
        case_id: int | None = None,
        sample: int = 0,
        example: str = "",
        memory: ExperienceMemory | None = None,
        catalog: Catalog | None = None,
    ) -> None:
        self.task, self.cfg, self.settings, self.sample = task, cfg, settings, sample
        self.case = instance_case(task, case_id) if cfg.mode == "static" else None
        self.case_id = self.case.case_id if self.case is not None else None
        self.memory, self.catalog = memory, catalog
        self.path = f"op_kernel/{task.op}.cpp"
        self.layout = answer_layout(task.op, cfg.mode)
        self.task_msgs = task_messages(task, arch, cfg.mode, self.case, example)
        self.turns: list[Turn] = []
        self.rounds: list[Round] = []
        self.best: Round | None = None
        self.passed_at: int | None = None
        self.stopped: str | None = None  # why the attempt ended early (context, backend)

    @property
    def key(self) -> str:
        return f"{self.task.id}#{self.case_id if self.case_id is not None else 'all'}#{self.sample}#{self.cfg.mode}"

    def next_kind(self) -> str | None:
        if self.stopped:
            return None
        n = len(self.rounds)
        if self.passed_at is None:
            if n >= self.cfg.rounds:
                return None
            return "generate" if n == 0 else "repair"
        return "perf" if n - self.passed_at - 1 < self.cfg.perf_rounds else None

    @property
    def done(self) -> bool:
        return self.next_kind() is None

    def request(self, count: Callable[[str], int] = estimate_tokens) -> Round | None:
        """The next round with its messages bounded to the context; None when the attempt is over (a context
        overflow ends it, with the reason in `stopped`)."""
        kind = self.next_kind()
        if kind is None:
            return None
        try:
            b: Bounded = bound(self.task_msgs, self.turns, self.cfg.context - self.cfg.max_tokens, count)
        except ContextOverflow as exc:
            self.stopped = f"context overflow: {exc}"
            return None
        return Round(len(self.rounds), kind, b.messages, prompt_tokens=b.tokens, note=b.note)

    def extract(self, r: Round) -> None:
        """The kernel of the round's answer (`bench.extract`, as the pipeline reads it), or the problem."""
        if r.problem:
            return
        try:
            ex = extract_answer(r.answer, self.task.op)
        except ExtractError as exc:
            cut = " (the answer was cut at the token limit)" if r.finish == "length" else ""
            r.problem = f"{exc}{cut}"
            return
        if self.cfg.mode == "dynamic" and not ex.host:
            r.problem = (
                f"the answer has no op_host/{self.task.op}.cpp section; dynamic shape needs the tiling "
                "header, the host tiling and the kernel"
            )
        r.code = ex.kernel
        if self.cfg.mode == "dynamic":
            r.host, r.tiling = ex.host, ex.tiling_header

    def same_as(self, r: Round) -> Round | None:
        """The earlier evaluated round whose files are the ones `r` answers (a model that loops), or None."""
        return next(
            (
                p
                for p in self.rounds
                if p is not r
                and p.outcome is not None
                and p.code == r.code
                and p.host == r.host
                and p.tiling == r.tiling
            ),
            None,
        )

    def host_files(self, r: Round) -> dict[str, str]:
        """Dynamic shape: the round's op_host files by name (``<op>.cpp``, ``<op>_tiling.h``); {} in static shape."""
        if self.cfg.mode != "dynamic":
            return {}
        named = {f"{self.task.op}.cpp": r.host, f"{self.task.op}_tiling.h": r.tiling}
        return {name: text for name, text in named.items() if text is not None}

    def seed(self, code: str, outcome: CheckResult, host: Mapping[str, str] | None = None) -> None:
        """Start from a kernel checked already (the editor's "Improve performance" on a passing kernel): it is
        round 0 (kind ``given``), and the next rounds are performance rounds from it. In dynamic shape `host` holds
        its op_host files by name (``<op>.cpp``, ``<op>_tiling.h``)."""
        op, files = self.task.op, dict(host or {})
        r = Round(0, "given", answer=answer_text(op, self.cfg.mode, code, files), code=code, outcome=outcome)
        if self.cfg.mode == "dynamic":
            r.host, r.tiling = files.get(f"{op}.cpp"), files.get(f"{op}_tiling.h")
        self.rounds.append(r)
        if r.correct:
            self.passed_at, self.best, r.kept = 0, r, True
            feedback = self._perf_feedback(None)
        else:
            feedback = self._failure_feedback(r)
        self.turns.append(Turn(r.answer, feedback, r.summary()))

    def take(self, r: Round) -> None:
        """Record an evaluated round (its `outcome` set, or its `problem`) and write the next turn."""
        prev = self.rounds[-1] if self.rounds else None
        same = self.same_as(r) if r.outcome is not None and r.code is not None else None
        self.rounds.append(r)
        best_before = self.best
        if r.outcome is None or r.code is None:
            feedback = no_code_turn(r.problem or "no kernel", self.layout)
            if best_before is not None and r.kind == "perf":
                feedback = self._perf_feedback(r.problem or "no kernel")
        elif r.kind != "perf":
            if r.correct:
                self.passed_at = r.index
                self.best, r.kept = r, True
                feedback = self._perf_feedback(None)
            else:
                feedback = self._failure_feedback(r)
                if same is not None:
                    feedback = (
                        f"Your answer is the kernel of round {same.index} again, so it was not run again: "
                        "it fails the same way. Change the kernel where the report below says.\n\n" + feedback
                    )
            self._remember_repair(prev, r)
        else:
            assert best_before is not None and best_before.outcome is not None
            old, new = best_before.outcome.estimate_us, r.outcome.estimate_us
            why = None
            if same is not None:
                why = f"it is the kernel of round {same.index} again (not run again), {same.summary()}"
            elif not r.correct:
                why = f"it {r.outcome.summary()} ({r.summary()})"
            elif new is None or (old is not None and new >= old):
                why = f"it is not faster ({new} us against {old} us)"
            if why is None:
                self.best, r.kept = r, True
                if (
                    self.memory is not None
                    and best_before.code
                    and r.code
                    and old is not None
                    and new is not None
                ):
                    self.memory.remember_improvement(
                        best_before.outcome.figures.bound,
                        best_before.code,
                        r.code,
                        est_before=old,
                        est_after=new,
                        task=self.task.id,
                        path=self.path,
                    )
            feedback = self._perf_feedback(why)
        self.turns.append(Turn(r.answer, feedback, r.summary()))

    def failing_file(self, r: Round) -> tuple[str, str]:
        """(path, text) of the file the round's first error is in: the kernel, or in dynamic shape the op_host file
        the finding names (a host tiling that does not compile is reported on its own lines)."""
        assert r.code is not None and r.outcome is not None
        target = target_finding(r.outcome)
        if target is not None and target.span.path:
            where = Path(target.span.path)
            for name, text in self.host_files(r).items():
                if where.name == name and where.parent.name == "op_host":
                    return f"op_host/{name}", text
        return self.path, r.code

    def _failure_feedback(self, r: Round) -> str:
        assert r.outcome is not None
        path, text = self.failing_file(r)
        feedback, _report = failure_turn(
            r.outcome,
            text,
            path,
            self.settings,
            catalog=self.catalog,
            store=self.memory.store if self.memory else None,
            layout=self.layout,
        )
        return feedback

    def _perf_feedback(self, last_failed: str | None) -> str:
        best = self.best
        assert best is not None and best.outcome is not None and best.code is not None
        tips = self.memory.improvements(best.outcome.figures.bound) if self.memory is not None else []
        files = (
            answer_text(self.task.op, "dynamic", best.code, self.host_files(best))
            if self.host_files(best)
            else None
        )
        return perf_turn(best.outcome, best.code, self.layout, last_failed, tips, files)

    def _remember_repair(self, prev: Round | None, r: Round) -> None:
        """A round that removed the previous round's error and got further is a verified repair."""
        if self.memory is None or prev is None or prev.outcome is None or r.outcome is None:
            return
        if prev.code is None or r.code is None or prev.correct:
            return
        target = target_finding(prev.outcome)
        if target is None:
            return
        if (
            verify_fix(target, prev.outcome, r.outcome, prev.code, r.code).ok
            and r.outcome.stage > prev.outcome.stage
        ):
            self.memory.remember_repair(target, prev.code, r.code, task=self.task.id, path=self.path)
