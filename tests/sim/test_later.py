"""sim/later: work a check leaves for after its answer runs then, in order; outside answer_first it runs at once."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.sim.later import answer_first, later, pending


def test_outside_answer_first_the_work_runs_at_once() -> None:
    done: list[str] = []
    later(lambda: done.append("a"))
    assert done == ["a"]


def test_inside_the_work_waits_and_then_runs_in_order_past_a_failure(tmp_path: Path, capsys) -> None:
    done: list[str] = []

    def broken() -> None:
        raise OSError("disk full")

    with answer_first() as afterwards:
        later(lambda: done.append("trace"), makes=tmp_path / "run" / "case0" / "out" / "trace.json")
        later(broken)
        later(lambda: done.append("copy"), makes=tmp_path / "elsewhere.json")
        assert done == []
        assert pending(tmp_path, "*/case*/out/trace.json") == [tmp_path / "run" / "case0" / "out" / "trace.json"]
        assert pending(tmp_path / "other", "*.json") == []
    assert pending(tmp_path, "*.json") == []  # the queue is the caller's now
    later(lambda: done.append("after"))  # past the block: at once again
    afterwards.run()
    assert done == ["after", "trace", "copy"]
    assert "disk full" in capsys.readouterr().err
