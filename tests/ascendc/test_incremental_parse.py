"""An incremental re-parse (the previous parse's tree edited and reused) gives exactly the tree and the findings of a
full parse, whatever the edit."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.ascendc.lint import lint_parsed, lint_text
from akgen_lsp.ascendc.syntax import ParsedFile, parse, walk
from akgen_lsp.config import defaults
from akgen_lsp.findings import finding_to_json

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
KERNEL = (SAMPLES / "kernels" / "add_custom.cpp").read_text(encoding="utf-8")
BROKEN = (SAMPLES / "broken" / "akg120_dequeued_not_freed.cpp").read_text(encoding="utf-8")


def shape(pf: ParsedFile) -> list[tuple[str, int, int, tuple[int, int], tuple[int, int]]]:
    return [(n.type, n.start_byte, n.end_byte, n.start_point, n.end_point) for n in walk(pf.root)]


def check_edit(before: str, after: str) -> None:
    old = parse(before, "k.cpp")
    old_shape = shape(old)
    new = parse(after, "k.cpp", previous=old)
    assert shape(new) == shape(parse(after, "k.cpp"))
    assert shape(old) == old_shape  # the previous parse is left as it was


def test_typical_edits() -> None:
    i = KERNEL.index("Add(")
    j = KERNEL.index("__aicore__")
    edits = [
        KERNEL[:i] + "Sub(" + KERNEL[i + 4 :],  # same length
        KERNEL[:i] + KERNEL[i + 1 :],  # deletion, leaves a broken call
        KERNEL[:i] + "AscendC::" + KERNEL[i:],  # insertion
        KERNEL[:j] + KERNEL[j + len("__aicore__") :],  # a masked keyword removed
        KERNEL[:j] + "__global__ " + KERNEL[j:],  # a masked keyword added
        KERNEL + "\n// é ü 中文 trailing comment\n",  # multi-byte text at the end
        "// é\n" + KERNEL,  # at the start, shifting every row
        "",  # everything deleted
        KERNEL.replace("\n", "\r\n", 3),
    ]
    for after in edits:
        check_edit(KERNEL, after)
        check_edit(after, KERNEL)


def test_findings_are_the_same_as_a_full_lint() -> None:
    lines = BROKEN.splitlines(keepends=True)
    previous = parse(BROKEN, "b.cpp")
    rng = random.Random(7)
    for _ in range(12):
        k = rng.randrange(len(lines))
        lines[k] = lines[k].replace("Free", "Fre", 1) if rng.random() < 0.5 else "\n"
        text = "".join(lines)
        incremental = parse(text, "b.cpp", previous=previous)
        assert lint_parsed(incremental) == lint_text(text, "b.cpp")
        previous = incremental


def test_the_same_text_is_the_previous_parse_and_a_relint_reuses_its_models() -> None:
    first = parse(BROKEN, "b.cpp")
    findings = lint_parsed(first)
    model = first.memo[("kernel_model", id(load_catalog()))]
    again = parse(BROKEN, "b.cpp", previous=first)
    assert again is first
    assert lint_parsed(again) == findings == lint_text(BROKEN, "b.cpp") and findings
    assert first.memo[("kernel_model", id(load_catalog()))] is model  # not built again
    # another arch on the same parse: its own findings, as a fresh lint gives them
    on_950 = defaults().with_overrides({"arch": "Ascend950PR"}, "a test")
    assert lint_parsed(again, on_950) == lint_text(BROKEN, "b.cpp", on_950)
    # the same text under another path: a parse of its own that shares the (never edited) tree
    other = parse(BROKEN, "c.cpp", previous=first)
    assert other is not first and other.tree is first.tree and other.memo.get("declarations") is None


@settings(max_examples=60, deadline=None)
@given(
    start=st.integers(min_value=0, max_value=len(KERNEL)),
    length=st.integers(min_value=0, max_value=40),
    insert=st.text(alphabet=st.sampled_from(list("{}();<>:,.\n \t aAé_0129#\"/*")), max_size=30),
)
def test_random_edits(start: int, length: int, insert: str) -> None:
    after = KERNEL[:start] + insert + KERNEL[start + length :]
    check_edit(KERNEL, after)


def test_a_linted_parse_then_a_one_line_edit_gives_a_fresh_lints_findings() -> None:
    # the previous parse has every model in its memo (as in the server): a re-lint after a line is added, removed,
    # doubled or changed must not take any of them over wrongly; the findings, line numbers after the shift
    # included, are those of a fresh lint
    rng = random.Random(11)
    kinds = ("    // a comment\n", "    int zz = 1;\n", "    DataCopy(a, b, 32);\n", "    }\n", "drop", "double", "char")
    for path in sorted((SAMPLES / "kernels").glob("*.cpp")) + sorted((SAMPLES / "broken").glob("*.cpp"))[:8]:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        previous = parse(text, path.name)
        lint_parsed(previous)
        for _ in range(2):
            k, kind = rng.randrange(1, len(lines)), rng.choice(kinds)
            new = list(lines)
            if kind == "drop":
                del new[k]
            elif kind == "double":
                new.insert(k, lines[k])
            elif kind == "char":
                at = rng.randrange(max(1, len(lines[k]) - 1))
                new[k] = lines[k][:at] + rng.choice("aZ_ 1;(") + lines[k][at:]
            else:
                new.insert(k, kind)
            after = "".join(new)
            got = [finding_to_json(f) for f in lint_parsed(parse(after, path.name, previous=previous))]
            assert got == [finding_to_json(f) for f in lint_text(after, path.name)], (path.name, k, kind)
