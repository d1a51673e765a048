"""The conversation of one instance, bounded to the model's context.

The turns are the task prompt, then per round the model's answer and the feedback on it. What goes to the model is
the system and task messages, then as many of the latest rounds as fit in ``context - max_tokens`` tokens (the
newest round always, with its feedback, which holds the whole file); the older rounds are replaced by one line each
(what the round's kernel did: "round 1: does not compile (CXX: ...)") added to the task message, and the result says
which rounds were summarised. When even the task and the newest feedback do not fit, the answer of that round is
dropped first (the feedback holds its file); if that is not enough either, `ContextOverflow` says how much is
missing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

CHARS_PER_TOKEN = 3.0  # a cautious estimate for code when the backend has no tokenizer to ask
MESSAGE_OVERHEAD = 8  # the chat template's tokens around one message

Counter = Callable[[str], int]


class ContextOverflow(ValueError):
    """The task prompt and the newest feedback alone do not fit in the model's context."""


def estimate_tokens(text: str) -> int:
    return int(len(text) / CHARS_PER_TOKEN) + 1


@dataclass(frozen=True)
class Turn:
    """One round as the conversation keeps it: the answer, the feedback on it, and a one-line summary."""

    answer: str
    feedback: str
    summary: str


@dataclass
class Bounded:
    messages: list[dict[str, str]]
    tokens: int
    summarised: list[int] = field(default_factory=list)  # rounds replaced by their one-line summary
    answer_dropped: bool = False  # the newest round's answer was left out (its feedback holds the file)

    @property
    def note(self) -> str:
        """What the bound did, for the round's record and the report ("" when everything fit)."""
        parts = []
        if self.summarised:
            rounds = ", ".join(str(r) for r in self.summarised)
            parts.append(f"rounds {rounds} summarised in one line each to fit the context")
        if self.answer_dropped:
            parts.append("the last answer left out (its file is in the feedback)")
        return "; ".join(parts)


def _size(messages: Sequence[dict[str, str]], count: Counter) -> int:
    return sum(count(m["content"]) + MESSAGE_OVERHEAD for m in messages)


def bound(
    task: Sequence[dict[str, str]], turns: Sequence[Turn], budget: int, count: Counter = estimate_tokens
) -> Bounded:
    """The messages for the next answer within `budget` tokens (see the module docstring)."""
    system, user = list(task[:-1]), dict(task[-1])

    def build(kept_from: int, drop_answer: bool = False) -> list[dict[str, str]]:
        head = dict(user)
        if kept_from > 0:
            lines = "\n".join(f"- round {i}: {t.summary}" for i, t in enumerate(turns[:kept_from]))
            head["content"] = (
                f"{user['content']}\n\n## Earlier rounds (summarised to fit the context)\n{lines}"
            )
        out = [*system, head]
        for i, t in enumerate(turns[kept_from:], kept_from):
            if not (drop_answer and i == len(turns) - 1):
                out.append({"role": "assistant", "content": t.answer or "(no answer)"})
            out.append({"role": "user", "content": t.feedback})
        return out

    for kept_from in range(0, max(len(turns), 1)):
        msgs = build(kept_from)
        n = _size(msgs, count)
        if n <= budget:
            return Bounded(msgs, n, list(range(kept_from)))
    if turns:
        msgs = build(len(turns) - 1, drop_answer=True)
        n = _size(msgs, count)
        if n <= budget:
            return Bounded(msgs, n, list(range(len(turns) - 1)), answer_dropped=True)
    else:
        msgs = build(0)
        n = _size(msgs, count)
    raise ContextOverflow(
        f"the task prompt and the last feedback need {n} tokens, and the model's context leaves "
        f"{budget} for the prompt; raise model.n_ctx (the model's context) or lower "
        "generate.max_tokens"
    )
