"""The driver of the rounds: every open attempt's next round is asked of one shared backend (at most
``concurrency`` requests at once), the answers extracted, evaluated in one batch, and handed back to their attempts.

A model that answers nonsense gets its round back as a no-kernel round with the layout again; one that never stops
is cut at ``max_tokens`` (the round says so) or at ``timeout_s`` (what came before the time out is still parsed); one
that loops, answering an earlier round's files again, gets that round's outcome without another run (the note says
which round); a
backend that drops mid-stream is asked once more, and an attempt whose backend fails twice ends with the reason
(`Attempt.stopped`), the others go on. Times are kept per round: the model's, the evaluation's, and the loop's own
(prompt, extraction, report, bookkeeping), which `benchmarks/bench_generate.py` measures.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from akgen_lsp.generate.attempt import Attempt, LoopConfig, Round
from akgen_lsp.generate.conversation import estimate_tokens
from akgen_lsp.generate.evaluators import Evaluate, outcome_of
from akgen_lsp.model.backends.base import Backend, BackendError, Generation, GenParams, Prompt
from akgen_lsp.model.prompts import render_chat

OnRound = Callable[[Attempt, Round], None]
Progress = Callable[[str], None]
RETRIES = 1  # a transient backend error (a dropped stream, a server restarting) is retried this often


COUNT_CACHE = 4096  # texts whose token count is kept (the task prompts, every round's answer and feedback)


def token_counter(backend: Backend) -> Callable[[str], int]:
    """The backend's token count (its tokenizer), else the estimate; each text is counted once: the conversation
    is bounded again every round, and its task prompt and older turns are the same texts each time (tokenizing them
    again was most of the loop's own time in a round without a kernel)."""
    counted: dict[str, int] = {}

    def count(text: str) -> int:
        n = counted.get(text)
        if n is None:
            got = backend.count_tokens(text)
            n = got if got is not None else estimate_tokens(text)
            if len(counted) >= COUNT_CACHE:
                counted.pop(next(iter(counted)))
            counted[text] = n
        return n

    return count


def _prompt(r: Round, cfg: LoopConfig) -> Prompt:
    msgs = tuple(r.messages)
    return Prompt(
        render_chat(msgs, template=cfg.chat_template, think=cfg.think),
        messages=msgs,
        kind="chat",
        think=cfg.think,
    )


async def _drain(gen: Generation, into: list[str]) -> None:
    async for piece in gen:
        into.append(piece)


async def ask(backend: Backend, a: Attempt, r: Round, cfg: LoopConfig) -> None:
    """The model's answer to round `r` (set on it: answer, tokens, finish, model_s, or problem)."""
    grammar = cfg.grammar(r.index, a) if cfg.grammar is not None else None
    params = GenParams(
        max_tokens=cfg.max_tokens,
        temperature=cfg.temperature,
        top_p=cfg.top_p,
        seed=cfg.seed + 7919 * a.sample + r.index,
        timeout_s=cfg.timeout_s,
        grammar=grammar,
    )
    prompt = _prompt(r, cfg)
    t0 = time.perf_counter()
    for attempt_no in range(RETRIES + 1):
        chunks: list[str] = []
        gen = backend.stream(prompt, params)

        try:
            await asyncio.wait_for(_drain(gen, chunks), cfg.timeout_s)
            r.finish = gen.stats.finish_reason or "stop"
        except asyncio.TimeoutError:
            r.finish = "timeout"
            r.note = (
                r.note + "; " if r.note else ""
            ) + f"the model's answer was cut at the time limit ({cfg.timeout_s:g} s)"
        except (
            Exception
        ) as exc:  # BackendError, or a transport error a backend let through (a dropped stream)
            await gen.aclose()
            transient = exc.transient if isinstance(exc, BackendError) else True
            if transient and attempt_no < RETRIES:
                continue
            why = str(exc) if isinstance(exc, BackendError) else f"{type(exc).__name__}: {exc}"
            r.problem = f"the model failed: {why}"
            a.stopped = r.problem
            break
        finally:
            await gen.aclose()
        r.answer = "".join(chunks)
        r.tokens = gen.stats.tokens
        if gen.stats.prompt_tokens:
            r.prompt_tokens = gen.stats.prompt_tokens
        if r.finish == "length":
            r.note = (
                r.note + "; " if r.note else ""
            ) + f"the answer was cut at max_tokens ({cfg.max_tokens})"
        break
    r.model_s = time.perf_counter() - t0


async def run_rounds(
    attempts: Sequence[Attempt],
    backend: Backend,
    evaluate: Evaluate,
    cfg: LoopConfig,
    *,
    on_round: OnRound | None = None,
    progress: Progress | None = None,
) -> None:
    """Run every attempt to its end (see the module docstring). Cancelling the caller cancels the model's streams
    and the evaluation (the evaluator's own cancellation kills the processes it started)."""
    gate = asyncio.Semaphore(max(1, cfg.concurrency))
    count = token_counter(backend)

    async def asked(a: Attempt, r: Round) -> None:
        async with gate:
            if progress is not None:
                progress(f"{a.task.name}: asking the model for round {r.index} ({r.kind})")
            await ask(backend, a, r, cfg)

    while True:
        t0 = time.perf_counter()
        pending = [(a, r) for a in attempts for r in (a.request(count),) if r is not None]
        if not pending:
            return
        prep = (time.perf_counter() - t0) / len(pending)
        await asyncio.gather(*(asked(a, r) for a, r in pending))
        t1 = time.perf_counter()
        live = [(a, r) for a, r in pending if not (a.stopped and r.problem)]
        for a, r in live:
            a.extract(r)
        todo = [(a, r) for a, r in live if r.code is not None and not r.problem]
        for a, r in todo:  # a model that loops: the files of an earlier round again
            same = a.same_as(r)
            if same is not None:
                r.outcome, r.record = same.outcome, same.record
                r.note = "; ".join(
                    x for x in (r.note, f"the same files as round {same.index}: not run again") if x
                )
        todo = [(a, r) for a, r in todo if r.outcome is None]
        extract = (time.perf_counter() - t1) / max(1, len(live))
        if todo and progress is not None:
            progress(f"evaluating {len(todo)} kernel{'s' if len(todo) != 1 else ''} on the simulator")
        t2 = time.perf_counter()
        evals = await evaluate(todo) if todo else []
        batch_s = time.perf_counter() - t2
        for (_a, r), ev in zip(todo, evals, strict=True):
            r.outcome, r.record = ev.outcome, ev.record
            r.eval_s = batch_s  # the round waited for the whole batch
        for a, r in live:
            t3 = time.perf_counter()
            a.take(r)
            feedback = time.perf_counter() - t3
            r.loop_parts = {
                "prompt": round(prep, 6),
                "extract": round(extract, 6),
                "feedback": round(feedback, 6),
            }
            r.loop_s = prep + extract + feedback
            if on_round is not None:
                on_round(a, r)  # the results file: its own seconds are the store's (ResultStore.write_s)
            if progress is not None:
                progress(f"{a.task.name}: round {r.index}: {r.summary()}")


def round_line(a: Attempt, r: Round) -> dict[str, Any]:
    """A round as one line of results.jsonl (what `replay` and the summary read back)."""
    rec = r.record
    o = r.outcome
    out: dict[str, Any] = {
        "task": a.task.id,
        "name": a.task.name,
        "level": a.task.level_number,
        "category": a.task.category,
        "case": a.case_id,
        "sample": a.sample,
        "mode": a.cfg.mode,
        "round": r.index,
        "kind": r.kind,
        "status": r.status,
        "compiled": r.compiled,
        "correct": r.correct,
        "passed_cases": len(o.passed) if o else 0,
        "cases": o.cases if o else 0,
        "estimate_us": rec.get("estimate_us"),
        "baseline_us": rec.get("baseline_us"),
        "speedup": rec.get("speedup"),
        "bound": rec.get("bound"),
        "error_class": rec.get("error_class") if o else "parse",
        "findings": rec.get("findings", []),
        "case_results": rec.get("case_results", []),
        "timings": rec.get("timings", {}),
        "answer": r.answer,
        "problem": r.problem,
        "tokens": r.tokens,
        "prompt_tokens": r.prompt_tokens,
        "finish": r.finish,
        "model_s": round(r.model_s, 4),
        "eval_s": round(r.eval_s, 4),
        "loop_s": round(r.loop_s, 6),
        "loop_parts": r.loop_parts,
        "note": r.note,
        "kept": r.kept,
        "stopped": a.stopped,
        "feedback": a.turns[r.index].feedback if r.index < len(a.turns) else None,
    }
    line = out
    line["seal"] = line_seal(line)
    return line


_SEALED = (
    "task",
    "case",
    "sample",
    "mode",
    "round",
    "kind",
    "status",
    "compiled",
    "correct",
    "passed_cases",
    "cases",
    "estimate_us",
    "speedup",
    "problem",
    "stopped",
)


def _seal_key() -> bytes | None:
    from akgen_lsp.safety import cache_base, user_key

    try:
        return user_key(cache_base())
    except OSError:
        return None


def line_seal(line: Mapping[str, Any], key: bytes | None = None) -> str | None:
    """An HMAC-SHA256, under the user's key, of a round line's verdict and of the content hash of its answer (the
    kernel it names): a resumed run trusts only lines it wrote itself for that very kernel (docs/security.md)."""
    import hashlib
    import hmac
    import json

    key = key if key is not None else _seal_key()
    if key is None:
        return None
    body = {k: line.get(k) for k in _SEALED}
    body["answer_sha256"] = hashlib.sha256(
        str(line.get("answer") or "").encode("utf-8", "surrogatepass")
    ).hexdigest()
    return hmac.new(key, json.dumps(body, sort_keys=True, default=str).encode(), hashlib.sha256).hexdigest()


def sealed(line: Mapping[str, Any], key: bytes | None = None) -> bool:
    """Whether a stored round line carries this user's seal over its own verdict and answer."""
    import hmac

    want = line_seal(line, key)
    return want is not None and isinstance(line.get("seal"), str) and hmac.compare_digest(want, line["seal"])


def replay(
    a: Attempt, lines: Sequence[Mapping[str, Any]], arch: str, count: Callable[[str], int] = estimate_tokens
) -> None:
    """Rebuild an attempt from its stored rounds (a resumed run): each round is requested and taken again with the
    stored answer and outcome, so the conversation and the best kernel are what they were. Replay stops at the first
    line without this user's seal over its verdict and its answer's content hash (`sealed`: planted, edited, or
    from another answer): that round and the ones after it run again."""
    key = _seal_key()
    for line in sorted(lines, key=lambda x: int(x.get("round", 0))):
        if not sealed(line, key):
            return
        r = a.request(count)
        if r is None or r.index != int(line.get("round", -1)):
            return
        r.answer, r.tokens, r.finish = (
            str(line.get("answer") or ""),
            int(line.get("tokens") or 0),
            str(line.get("finish") or ""),
        )
        r.prompt_tokens = int(line.get("prompt_tokens") or r.prompt_tokens)
        r.model_s, r.eval_s, r.loop_s = (float(line.get(k) or 0.0) for k in ("model_s", "eval_s", "loop_s"))
        if line.get("problem"):
            r.problem = str(line["problem"])
            if line.get("stopped") and str(line["stopped"]) == r.problem:
                a.stopped = r.problem
                return
        a.extract(r)
        if r.code is not None and not r.problem:
            r.outcome, r.record = outcome_of(line, a.cfg.mode, arch), dict(line)
        a.take(r)
