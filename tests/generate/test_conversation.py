"""The conversation bounded to the context: the newest round always in full, older rounds summarised in one line
each (and the result says which), the last answer left out before giving up, and a clear overflow error."""

from __future__ import annotations

import pytest

from akgen_lsp.generate.conversation import ContextOverflow, Turn, bound, estimate_tokens

TASK = [{"role": "system", "content": "sys"}, {"role": "user", "content": "T" * 300}]


def turns(n: int, answer: int = 300, feedback: int = 300) -> list[Turn]:
    return [Turn(f"A{i}" + "a" * answer, f"F{i}" + "f" * feedback, f"round {i} did not compile") for i in range(n)]


def size(b) -> int:  # type: ignore[no-untyped-def]
    return sum(estimate_tokens(m["content"]) + 8 for m in b.messages)


def test_everything_fits() -> None:
    b = bound(TASK, turns(2), 10_000)
    assert [m["role"] for m in b.messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert b.summarised == [] and b.note == "" and b.tokens == size(b)


def test_the_oldest_rounds_are_summarised_first() -> None:
    ts = turns(4)
    b = bound(TASK, ts, 500)
    assert b.summarised and b.summarised == list(range(len(b.summarised)))
    assert b.tokens <= 500 and b.messages[-1]["content"] == ts[-1].feedback  # the newest feedback is there
    head = b.messages[1]["content"]
    assert "## Earlier rounds (summarised to fit the context)" in head and "- round 0: round 0 did not compile" in head
    assert "summarised in one line each" in b.note


def test_the_last_answer_goes_before_the_bound_gives_up() -> None:
    ts = turns(2, answer=3000, feedback=300)
    b = bound(TASK, ts, 400)
    assert b.answer_dropped and "the last answer left out" in b.note
    assert all(m["role"] != "assistant" for m in b.messages)


def test_an_overflow_says_what_to_change() -> None:
    with pytest.raises(ContextOverflow, match=r"raise model\.n_ctx"):
        bound(TASK, turns(1, feedback=6000), 400)
    with pytest.raises(ContextOverflow):
        bound(TASK, [], 50)
