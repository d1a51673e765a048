"""The pipeline's stages, one at a time."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.ascendc.catalog import Catalog
from akgen_lsp.model.complete import (
    CompletionCache,
    Debouncer,
    StopRules,
    catalog_completion,
    catalog_completions,
    decide_mode,
    replace_range,
    split_at,
)

KERNEL = (Path(__file__).with_name("data") / "kernel_add.cpp").read_text(encoding="utf-8")
KERNEL_BLANK_LINE = 14  # 0-based: the indented blank line in Compute()


def test_split_at_positions_and_clamps() -> None:
    text = "ab\ncdé\nf"
    c = split_at(text, 1, 2)
    assert (c.prefix, c.suffix, c.line_prefix, c.line_suffix) == ("ab\ncd", "é\nf", "cd", "é")
    assert split_at(text, 1, 99).prefix == "ab\ncdé"
    assert split_at(text, 9, 0).prefix == "ab\ncdé\n"  # past the end: the last line
    assert split_at("x\r\ny", 0, 5).prefix == "x"  # never between \r and \n
    assert split_at("", 0, 0).prefix == ""


def test_debounce_follows_typing_rhythm_and_latency() -> None:
    assert Debouncer(0).delay_ms("a") == 0
    d = Debouncer(200)
    assert d.delay_ms("a") == 200
    for t in (0.0, 0.05, 0.10, 0.15):  # typing every 50 ms
        d.observe_request("a", t)
    assert d.delay_ms("a") == 100  # clamped to base / 2
    for t in (10.0, 10.5, 11.0, 11.5):  # slow typing: 500 ms
        d.observe_request("b", t)
    assert d.delay_ms("b") == 600
    d.observe_latency(400)
    assert d.delay_ms("b") == 400  # the model's own latency is half of the wait
    d.observe_latency(10_000)
    assert d.delay_ms("b") == 50  # never below base / 4


def test_cache_hit_and_typed_ahead_entries() -> None:
    cache = CompletionCache(maxsize=8, ttl_s=60)
    cache.put("int x = ", ";\n", "foo(1)")
    assert cache.get("int x = ", ";\n") == "foo(1)"
    assert cache.get("int x = f", ";\n") == "oo(1)"  # typing along the suggestion
    assert cache.get("int x = foo(", ";\n") == "1)"
    assert cache.get("int x = g", ";\n") is None  # typed something else
    assert cache.get("int x = ", "+1;\n") is None  # different text after the cursor
    assert cache.hits == 3 and cache.misses == 2


def test_cache_ttl_and_lru() -> None:
    now = [0.0]
    cache = CompletionCache(maxsize=2, ttl_s=10, timer=lambda: now[0])
    cache.put("a", "", "1")
    cache.put("b", "", "2")
    assert cache.get("a", "") == "1"
    cache.put("c", "", "3")  # evicts the least recently used: b
    assert cache.get("b", "") is None
    assert cache.get("a", "") == "1"
    now[0] = 11.0
    assert cache.get("a", "") is None


def test_cache_keys_only_the_prompt_windows() -> None:
    cache = CompletionCache(maxsize=4, ttl_s=60, prefix_chars=5, suffix_chars=3)
    cache.put("xxxxxhello", "abcdef", "!")
    assert cache.get("yyyhello", "abcXYZ") == "!"  # same windows: the prompt would be the same


def _cursor_at(text: str, line: int, needle: str | None = None, after: bool = True) -> tuple[int, int]:
    row = text.split("\n")[line]
    col = len(row) if needle is None else row.index(needle) + (len(needle) if after else 0)
    return line, col


def test_mode_from_the_syntax_tree() -> None:
    def mode(line: int, col: int, text: str = KERNEL) -> str:
        return decide_mode(text, split_at(text, line, col))

    assert mode(KERNEL_BLANK_LINE, 8) == "multi"  # blank line in a function body
    assert mode(*_cursor_at(KERNEL, 13, "xLocal = ")) == "none"  # code after the cursor
    assert mode(*_cursor_at(KERNEL, 13, "xLoc")) == "none"  # mid-word
    assert mode(*_cursor_at(KERNEL, 13)) == "single"  # end of a statement line
    commented = KERNEL.replace("        \n", "        // add the two \n")
    assert mode(*_cursor_at(commented, KERNEL_BLANK_LINE), commented) == "single"  # in a comment
    opened = KERNEL.replace("    {\n        LocalTensor", "    {    \n        LocalTensor")
    assert mode(*_cursor_at(KERNEL, 6)) == "single"  # end of the "Init(...)" signature line
    assert mode(*_cursor_at(opened, 12), opened) == "multi"  # an opening brace line
    typing = KERNEL.replace("        \n    }", "        pipe.InitBuffer(inQueueX, \n    }")
    assert mode(*_cursor_at(typing, KERNEL_BLANK_LINE), typing) == "single"  # mid-expression
    stringy = KERNEL.replace("        \n    }", '        printf("sum \n    }')
    assert mode(*_cursor_at(stringy, KERNEL_BLANK_LINE), stringy) == "single"  # in a string


def test_stop_rules() -> None:
    single = StopRules("single", "\n    y = 2;")
    assert single.check("x = 1;\n    z") == 6
    assert single.stop_strings() == ("\n",)
    multi = StopRules("multi", "\n    return z;\n}\n")
    assert multi.check("a = 1;\n    b = 2;") is None
    assert multi.check("a = 1;\n}\nint g() {") == 7  # an unmatched } ends the block: cut at its line
    assert multi.check("if (a) {\n  b();\n}\n") is None  # braces it opened itself
    assert multi.check("a = 1;\n    return z;\n") == 7  # the line below the cursor, written again
    assert multi.check("a = 1;\ntemplate <typename T>\n") == 7  # a top-level declaration
    assert multi.check('s = "}";\n') is None  # a brace in a string


def test_replace_range_covers_closers_the_suggestion_repeats() -> None:
    c = split_at("    foo()\n", 0, 8)
    assert replace_range("a, b)", c) == (0, 8, 0, 9)
    assert replace_range("a, b", c) == (0, 8, 0, 8)


def test_catalog_completion(small_catalog: Catalog) -> None:
    def complete(line: str) -> str | None:
        return catalog_completion(small_catalog, split_at(line, 0, len(line)))

    assert complete("    Ad") == "d(dst, src0, src1, count)"  # the shorter name first, with its parameters
    assert complete("    AscendC::Add") == "(dst, src0, src1, count)"
    assert complete("    AscendC::Sof") == "tMax(dst, src, tiling)"
    assert complete("    auto t = inQueueX.De") == "Que()"  # a member
    assert complete("    Zzz") is None
    assert complete("    x") is None  # a single letter is not enough
    assert complete("    TQ") == "ue"  # a class: its name only


def test_catalog_completion_as_a_snippet_has_tab_stops(small_catalog: Catalog) -> None:
    """Accepting a call's ghost text inserts tab stops named after the parameters, not the names themselves."""
    def complete(line: str) -> tuple[str, str] | None:
        return catalog_completions(small_catalog, split_at(line, 0, len(line)))

    assert complete("    Ad") == ("d(dst, src0, src1, count)", "d(${1:dst}, ${2:src0}, ${3:src1}, ${4:count})$0")
    assert complete("    TQ") == ("ue", "ue")  # a class: no fields
    assert complete("    Zzz") is None


def test_stop_rules_fed_token_by_token_agree_with_a_whole_scan() -> None:
    texts = [
        "a = 1; // }\n    b = '}';\n    /* } */ c();\n}\nint g() {",
        "x();\n    return z;\n",
        'if (a) {\n  s = "\\"}";\n}\n}',
        "a = 1 / 2;\n/",
    ]
    for text in texts:
        whole = StopRules("multi", "\n    return z;\n}\n").check(text)
        rules = StopRules("multi", "\n    return z;\n}\n")
        fed = None
        for k in range(0, len(text), 3):
            fed = rules.feed(text[k : k + 3])
            if fed is not None:
                break
        assert fed == whole, text
