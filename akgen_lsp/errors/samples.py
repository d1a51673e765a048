"""The chat messages of a repair: the prompt (diagnostic report + the broken file) and the answer (a short reasoning,
then the corrected file). Training data (`akgen errors synthesize`) and the model fixer of the repair benchmark use
the same prompt, so what a model is trained on is what it is asked."""

from __future__ import annotations

import re
from collections.abc import Sequence

from akgen_lsp.model.prompts import SYSTEM_REPAIR

_CODE_BLOCK = re.compile(r"```(?:cpp|c\+\+|c)?[ \t]*\n(.*?)```", re.S)
_DIFF_BLOCK = re.compile(r"```(?:diff|patch)[ \t]*\n(.*?)```", re.S)
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def repair_messages(report_markdown: str, code: str, path: str) -> list[dict[str, str]]:
    """[system, user]: the diagnostic report of the first error and the whole file."""
    user = (
        f"The Ascend C kernel `{path}` fails. The diagnostic report of its first error:\n\n{report_markdown}\n\n"
        f"### The file\n```cpp\n{code.rstrip()}\n```\n\n"
        "Fix the error using only the real API above and change nothing else. Say in a few sentences what is "
        "wrong and why, then give the whole corrected file in one ```cpp block."
    )
    return [{"role": "system", "content": SYSTEM_REPAIR}, {"role": "user", "content": user}]


def repair_answer(reasoning: Sequence[str], fixed: str) -> str:
    """The assistant's answer: the reasoning sentences, then the corrected file."""
    text = " ".join(s.strip() for s in reasoning if s.strip())
    return f"{text}\n\n```cpp\n{fixed.rstrip()}\n```"


def code_answer(code: str) -> str:
    """An answer that is only a file (the responses of preference pairs)."""
    return f"```cpp\n{code.rstrip()}\n```"


def extract_code(answer: str, broken: str | None = None) -> str | None:
    """The corrected file of a model's answer: its last fenced C++ block, or, given the `broken` file, the result
    of applying its last ```diff block (a unified diff of the file) to it. None when the answer has neither (or
    the diff does not apply)."""
    diffs = _DIFF_BLOCK.findall(answer)
    if diffs and broken is not None:
        return apply_unified_diff(broken, diffs[-1])
    blocks = _CODE_BLOCK.findall(answer)
    return blocks[-1] if blocks else None


def apply_unified_diff(text: str, diff: str) -> str | None:
    """`text` with the hunks of a one-file unified diff applied; each hunk's context and removed lines must match
    the text where the hunk says (or, failing that, at one other place). None when a hunk does not apply."""
    lines = text.splitlines(keepends=True)
    hunks: list[tuple[int, list[str]]] = []
    for ln in diff.splitlines(keepends=True):
        if ln.startswith(("--- ", "+++ ")):
            continue
        m = _HUNK.match(ln)
        if m:
            hunks.append((int(m.group(1)), []))
        elif hunks and ln[:1] in (" ", "+", "-"):
            hunks[-1][1].append(ln if ln.endswith("\n") else ln + "\n")
        elif hunks and ln.strip() == "":
            hunks[-1][1].append(" \n")  # an empty context line whose leading space was lost
    if not hunks:
        return None
    out: list[str] = []
    pos = 0
    for start, body in hunks:
        old = [b[1:] for b in body if b[:1] in (" ", "-")]
        new = [b[1:] for b in body if b[:1] in (" ", "+")]
        at = max(start - 1, 0) if not old else _find(lines, old, max(start - 1, 0), pos)
        if at is None or at < pos:
            return None
        out.extend(lines[pos:at])
        out.extend(new)
        pos = at + len(old)
    out.extend(lines[pos:])
    return "".join(out)


def _find(lines: list[str], old: list[str], hint: int, lo: int) -> int | None:
    def norm(s: str) -> str:
        return s.rstrip("\r\n")

    want = [norm(o) for o in old]

    def match(i: int) -> bool:
        return i + len(want) <= len(lines) and all(norm(lines[i + j]) == w for j, w in enumerate(want))

    if match(hint):
        return hint
    hits = [i for i in range(lo, len(lines) - len(want) + 1) if match(i)]
    return hits[0] if len(hits) == 1 else None
