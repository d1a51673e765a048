"""The forced-output model of the generation tests: the tiny GGUF (real llama.cpp inference) whose answer in each
round is fixed by a GBNF grammar, and a workspace whose akgen.toml gives it a context that fits the rounds."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from akgen_lsp.model.tiny import literal_grammar, write_tiny_gguf

FIXTURES = Path(__file__).with_name("fixtures")
CORRECT = (FIXTURES / "abs_case0.cpp").read_text(encoding="utf-8")
# round 0: a made-up API (does not compile); round 1: runs and computes -x (wrong numbers); round 2: |x|
NO_COMPILE = CORRECT.replace("Abs(y, x, TILE);", "AscendC::Absolute(y, x, TILE);")
WRONG = CORRECT.replace("Abs(y, x, TILE);", "Muls(y, x, (half)-1.0, TILE);")
# correct and slow: every element on core 0, the other cores idle ("Improve performance" starts from it)
ONE_CORE = (CORRECT.replace("        len = TOTAL / GetBlockNum();\n", "        len = GetBlockIdx() == 0 ? TOTAL : 0;\n")
            .replace("(__gm__ half *)x + len * GetBlockIdx(), len)", "(__gm__ half *)x, TOTAL)")
            .replace("(__gm__ half *)y + len * GetBlockIdx(), len)", "(__gm__ half *)y, TOTAL)"))
N_CTX = 12288


def answer(code: str, why: str = "Here is the kernel.") -> str:
    return f"{why}\n\n<kernel_impl>\n```cpp\n{code.rstrip()}\n```\n</kernel_impl>\n"


@dataclass(frozen=True)
class Forced:
    root: Path  # the workspace (akgen.toml)
    gguf: Path
    grammars: tuple[Path, ...]  # rounds 0, 1, 2


def write_grammars(folder: Path, answers: list[str]) -> tuple[Path, ...]:
    out = []
    for i, a in enumerate(answers):
        p = folder / f"round{i}.gbnf"
        p.write_text(literal_grammar(a), encoding="utf-8")
        out.append(p)
    return tuple(out)


@pytest.fixture(scope="session")
def forced(tmp_path_factory: pytest.TempPathFactory) -> Forced:
    root = tmp_path_factory.mktemp("generate-ws")
    (root / "akgen.toml").write_text(f"[model]\nn_ctx = {N_CTX}\nn_threads = 1\n", encoding="utf-8")
    # not named *tiny*: the registry's akgen-tiny entry would cap the context at the 2048 it was trained for
    gguf = write_tiny_gguf(root / "forced.gguf", n_ctx=N_CTX)
    grammars = write_grammars(root, [answer(NO_COMPILE, "Abs of each element."),
                                     answer(WRONG, "Absolute does not exist; negate the input instead."),
                                     answer(CORRECT, "Negating is wrong for positive inputs: use Abs.")])
    return Forced(root, gguf, grammars)
