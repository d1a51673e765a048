"""Minimal edits between two versions of a file, and where lines go."""

from __future__ import annotations

import random

from akgen_lsp.findings import apply_edits
from akgen_lsp.repair.edits import changed_lines, line_mapper, minimal_edits

from .conftest import original


def test_one_changed_word_is_one_small_edit() -> None:
    before = "a\n    Add(z, xLocl, y, n);\nb\n"
    after = "a\n    Add(z, xLocal, y, n);\nb\n"
    (edit,) = minimal_edits(before, after, "k.cpp")
    assert (edit.span.line, edit.span.column, edit.span.end_line, edit.span.end_column, edit.new_text) == (
        2, 16, 2, 16, "a")
    assert apply_edits(before, [edit]) == after


def test_insertions_deletions_and_the_end_of_the_file() -> None:
    before = "one\ntwo\nthree"
    for after in ("one\ntwo\nthree\nfour", "two\nthree", "one\n2\nthree\n", "", "x"):
        assert apply_edits(before, minimal_edits(before, after, "k")) == after
    assert minimal_edits(before, before, "k") == ()


def test_random_rewrites_of_a_kernel_round_trip() -> None:
    rng = random.Random(7)
    lines = original().splitlines(keepends=True)
    for _ in range(200):
        new = list(lines)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(new))
            op = rng.choice(("del", "ins", "mod"))
            if op == "del":
                del new[i]
            elif op == "ins":
                new.insert(i, "    // é inserted\n")
            else:
                new[i] = new[i].replace("Local", "Tensor", 1)
        after = "".join(new)
        edits = minimal_edits(original(), after, "abs.cpp")
        assert apply_edits(original(), edits) == after
        assert len(edits) <= 4


def test_line_mapper_follows_inserted_lines() -> None:
    before = "a\nb\nc\nd\n"
    after = "a\nnew\nb\nc2\nd\n"
    where = line_mapper(before, after)
    assert [where(n) for n in (1, 2, 3, 4)] == [1, 3, None, 5]
    assert changed_lines(before, after) == {1, 3}
