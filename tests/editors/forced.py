"""The forced answers of the editors' Generate / Improve tests: AbsMath's static-shape kernel (tests/generate's
fixture) and variants of it, each as the answer layout the prompt asks for, forced by a literal GBNF grammar (the
tiny GGUF then answers it through real llama.cpp inference)."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.model.tiny import literal_grammar

REPO = Path(__file__).resolve().parents[2]
CORRECT = (REPO / "tests" / "generate" / "fixtures" / "abs_case0.cpp").read_text(encoding="utf-8")
# correct and slow: every element on core 0
ONE_CORE = (CORRECT.replace("        len = TOTAL / GetBlockNum();\n", "        len = GetBlockIdx() == 0 ? TOTAL : 0;\n")
            .replace("(__gm__ half *)x + len * GetBlockIdx(), len)", "(__gm__ half *)x, TOTAL)")
            .replace("(__gm__ half *)y + len * GetBlockIdx(), len)", "(__gm__ half *)y, TOTAL)"))
SLOWER = ONE_CORE.replace("constexpr int32_t TILE = 1024;", "constexpr int32_t TILE = 256;")
WRONG = CORRECT.replace("Abs(y, x, TILE);", "Muls(y, x, (half)-1.0, TILE);")
MAX_TOKENS = 1800  # one answer of the kernel above, in tokens of the tiny model's vocabulary, and some room


def kernel_answer(code: str) -> str:
    """The static-shape answer layout: the kernel in a ```cpp block inside <kernel_impl>."""
    return f"<kernel_impl>\n```cpp\n{code.rstrip()}\n```\n</kernel_impl>\n"


def forced(code: str) -> str:
    """The grammar whose only answer is `code` in the answer layout."""
    return literal_grammar(kernel_answer(code))
