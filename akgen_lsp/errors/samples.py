"""The chat messages of a repair: the prompt (diagnostic report + the broken file) and the answer (a short reasoning,
then the corrected file). Training data (`akgen errors synthesize`) and the model fixer of the repair benchmark use
the same prompt, so what a model is trained on is what it is asked."""

from __future__ import annotations

import re
from collections.abc import Sequence

from akgen_lsp.model.prompts import SYSTEM_REPAIR

_CODE_BLOCK = re.compile(r"```(?:cpp|c\+\+|c)?[ \t]*\n(.*?)```", re.S)


def repair_messages(report_markdown: str, code: str, path: str) -> list[dict[str, str]]:
    """[system, user]: the diagnostic report of the first error and the whole file."""
    user = (f"The Ascend C kernel `{path}` fails. The diagnostic report of its first error:\n\n{report_markdown}\n\n"
            f"### The file\n```cpp\n{code.rstrip()}\n```\n\n"
            "Fix the error using only the real API above and change nothing else. Say in a few sentences what is "
            "wrong and why, then give the whole corrected file in one ```cpp block.")
    return [{"role": "system", "content": SYSTEM_REPAIR}, {"role": "user", "content": user}]


def repair_answer(reasoning: Sequence[str], fixed: str) -> str:
    """The assistant's answer: the reasoning sentences, then the corrected file."""
    text = " ".join(s.strip() for s in reasoning if s.strip())
    return f"{text}\n\n```cpp\n{fixed.rstrip()}\n```"


def code_answer(code: str) -> str:
    """An answer that is only a file (the responses of preference pairs)."""
    return f"```cpp\n{code.rstrip()}\n```"


def extract_code(answer: str) -> str | None:
    """The last fenced C++ block of a model's answer (its corrected file), or None."""
    blocks = _CODE_BLOCK.findall(answer)
    return blocks[-1] if blocks else None
