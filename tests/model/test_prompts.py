from __future__ import annotations

from pathlib import Path

import pytest

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.ascendc.catalog import Catalog
from akgen_lsp.model.prompts import (
    align_to_cursor,
    completion_prompt,
    extract_code,
    fit_context,
    kernel_prompt,
    render_chat,
    retrieve_context,
    strip_think,
)
from akgen_lsp.model.registry import ModelSpec

KERNEL = (Path(__file__).with_name("data") / "kernel_add.cpp").read_text(encoding="utf-8")

FIM = ModelSpec("fim-model", format="fim", stop=("<|endoftext|>",))
CHAT = ModelSpec("chat-model", format="chat", think=True, stop=("<|im_end|>",))
PLAIN = ModelSpec("base-model", format="prefix")


def test_fim_prompt_uses_the_qwen_tokens_in_order() -> None:
    cp = completion_prompt(FIM, "int a = ", ";\n", path="k.cpp", context="// AscendC::Add: sum\n")
    text = cp.prompt.text
    assert text.startswith("<|fim_prefix|>// Path: k.cpp\n// AscendC::Add: sum\nint a = ")
    assert text.endswith("<|fim_suffix|>;\n<|fim_middle|>")
    assert cp.stop == ("<|endoftext|>",)
    assert not cp.prompt.is_chat


def test_chat_prompt_renders_qwen3_without_thinking_and_prefills_a_fence() -> None:
    cp = completion_prompt(CHAT, "int a = ", ";\n", single_line=True)
    text = cp.prompt.text
    assert text.count("<|im_start|>") == 3 and "<|im_start|>assistant\n<think>\n\n</think>\n\n```cpp\n" in text
    assert "int a = <CURSOR>;\n" in text
    assert "```" in cp.stop
    assert cp.prefill == "```cpp\n"
    assert cp.prompt.messages[-1]["role"] == "user" and cp.prompt.kind == "chat"


def test_prefix_prompt_is_plain_continuation() -> None:
    assert completion_prompt(PLAIN, "int a = ", ";").prompt.text == "int a = "


def test_render_chat_with_thinking_on_leaves_the_turn_open() -> None:
    text = render_chat([{"role": "user", "content": "hi"}], think=True)
    assert text == "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"
    with pytest.raises(ValueError):
        render_chat([], template="llama2")


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("<think>plan</think>\n```cpp\nx = 1;\n```", "x = 1;"),
        ("Here you go:\n```\ny = 2;\n```\nDone.", "y = 2;"),
        ("reasoning only</think>```c++\nz();\n```", "z();"),
        ("foo(a, b);", "foo(a, b);"),
        ("I cannot help with that request, sorry about this.", None),
        ("<think>still thinking about the kernel", None),
        ("```cpp\n```", None),
    ],
)
def test_extract_code(answer: str, expected: str | None) -> None:
    assert extract_code(answer) == expected


def test_extract_code_from_a_prefilled_answer() -> None:
    assert extract_code("x = 1;\n```\nExplanation.", prefilled=True) == "x = 1;\n"
    assert extract_code("Sorry, I do not know what belongs here.", prefilled=True) is None


def test_strip_think_variants() -> None:
    assert strip_think("<think>a</think>b") == "b"
    assert strip_think("a</think>b") == "b"
    assert strip_think("b<think>a") == "b"


def test_align_to_cursor_drops_a_restated_line() -> None:
    assert align_to_cursor("    int a = foo();", "    int a = ") == "foo();"
    assert align_to_cursor("foo();", "    int a = ") == "foo();"


def test_fit_context_is_biased_to_the_prefix_and_cuts_at_lines() -> None:
    prefix = "".join(f"line{i}\n" for i in range(100)) + "    x = "
    suffix = "".join(f"after{i}\n" for i in range(100))
    p, s = fit_context(prefix, suffix, 100, 0.7)
    assert prefix.endswith(p) and suffix.startswith(s)
    assert len(p) <= 70 and len(s) <= 30 and len(p) > len(s)
    assert p.startswith("line") and s.endswith("\n")
    p2, s2 = fit_context("short", suffix, 100, 0.7)  # the prefix's unused share goes to the suffix
    assert p2 == "short" and 30 < len(s2) <= 95


def test_retrieval_finds_apis_near_the_cursor_within_budget(small_catalog: Catalog) -> None:
    text = "void f() {\n    Add(dst, a, b, n);\n    inQueueX.DeQue<half>();\n    "
    ctx = retrieve_context(small_catalog, text, len(text), budget_chars=400)
    assert "AscendC::TQue::DeQue" in ctx and "AscendC::Add" in ctx
    assert ctx.index("DeQue") < ctx.index("AscendC::Add")  # nearest first
    assert all(line.startswith("//") for line in ctx.splitlines())
    assert len(ctx) <= 400
    tight = retrieve_context(small_catalog, text, len(text), budget_chars=60)
    assert len(tight) <= 60


def test_kernel_prompt_in_npukernelbench_style() -> None:
    arch = load_arch("Ascend910B2")
    prompt = kernel_prompt("# Abs\nout = |x|", "0;[48, 128];float16", arch, question="extern \"C\" ...")
    text = prompt.messages[-1]["content"]
    for part in ("## API description", "## Test case", "## Hardware", "## Rules", "GET_TILING_DATA", "32 bytes"):
        assert part in text
    assert f"ub_size: {arch.memory['ub']} bytes" in text
    assert f"AI Vector cores (AIV): {arch.aiv_cores}" in text
