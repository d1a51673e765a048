"""Prompts for KernelGen-LM and other code models, and the parsing of their answers.

- `completion_prompt`: fill-in-the-middle for FIM-capable models (Qwen tokens ``<|fim_prefix|>``...), a chat turn for
  chat-only models such as KernelGen-LM (Qwen3 template, thinking switched off, the answer pre-filled with a code
  fence so the model writes code at once), or plain continuation for unknown base models.
- `strip_think`, `extract_code`: turn a chat answer into the code to insert.
(The repair flow's prompt is `repair.model_repair.repair_prompt`, over `errors.report`'s diagnostic report.)
- `kernel_prompt`: a kernel-generation request in NPUKernelBench's style (api_desc, test case, hardware block, rules).
- `retrieve_context`: catalog entries for the identifiers near the cursor, as comment lines within a budget.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from akgen_lsp.ascendc.catalog import Catalog, Entry
from akgen_lsp.model.backends.base import Prompt
from akgen_lsp.model.registry import ModelSpec

CURSOR = "<CURSOR>"
FENCE = "```"
SYSTEM_COMPLETE = (
    "You are KernelGen-LM, an expert in Ascend C kernels for Huawei Ascend NPUs. You complete code exactly where "
    "the user's cursor is, using only real Ascend C APIs."
)
SYSTEM_REPAIR = (
    "You are KernelGen-LM, an expert in Ascend C kernels for Huawei Ascend NPUs. You repair kernels that fail to "
    "build or run, using only the real Ascend C APIs whose signatures you are given."
)


# ----------------------------------------------------------------------------------------------- chat template


def render_chat(
    messages: Sequence[Mapping[str, str]], *, template: str = "qwen3", think: bool = False, prefill: str = ""
) -> str:
    """Render messages with the Qwen3 (ChatML) template and open the assistant turn.

    With ``think=False`` the turn starts with an empty ``<think></think>`` block, which is how Qwen3's own template
    switches reasoning off (``enable_thinking=False``); `prefill` is written at the start of the answer.
    """
    if template not in ("qwen3", "chatml"):
        raise ValueError(f"unknown chat template {template!r}; the registry knows qwen3 and chatml")
    parts = [f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages]
    parts.append("<|im_start|>assistant\n")
    if template == "qwen3" and not think:
        parts.append("<think>\n\n</think>\n\n")
    parts.append(prefill)
    return "".join(parts)


# ----------------------------------------------------------------------------------------------- budgets


def fit_context(prefix: str, suffix: str, budget_chars: int, prefix_share: float = 0.7) -> tuple[str, str]:
    """Cut `prefix` (keeping its end) and `suffix` (keeping its start) to `budget_chars`, biased to the prefix.

    Cuts fall on line boundaries where a whole line fits; the share one side does not use goes to the other.
    """
    budget_chars = max(0, budget_chars)
    want_p = int(budget_chars * prefix_share)
    want_s = budget_chars - want_p
    if len(suffix) < want_s:
        want_p += want_s - len(suffix)
        want_s = len(suffix)
    if len(prefix) < want_p:
        want_s += want_p - len(prefix)
        want_p = len(prefix)
    p = prefix[len(prefix) - want_p :] if want_p < len(prefix) else prefix
    if len(p) < len(prefix):
        nl = p.find("\n")
        if 0 <= nl < len(p) - 1:
            p = p[nl + 1 :]
    s = suffix[:want_s]
    if len(s) < len(suffix):
        nl = s.rfind("\n")
        if nl > 0:
            s = s[: nl + 1]
    return p, s


# ----------------------------------------------------------------------------------------------- completion


@dataclass(frozen=True)
class CompletionPrompt:
    prompt: Prompt
    stop: tuple[str, ...]
    prefill: str = ""  # text the prompt already wrote into the answer (chat: the code fence)


def completion_prompt(
    spec: ModelSpec, prefix: str, suffix: str, *, path: str = "", context: str = "", single_line: bool = False
) -> CompletionPrompt:
    """The prompt that asks `spec`'s model for the text between `prefix` and `suffix`."""
    header = f"// Path: {path}\n" if path else ""
    if context:
        header += context if context.endswith("\n") else context + "\n"
    stops = tuple(spec.stop)
    if spec.format == "fim":
        text = f"{spec.fim_prefix}{header}{prefix}{spec.fim_suffix}{suffix}{spec.fim_middle}"
        return CompletionPrompt(Prompt(text, kind="fim"), stops)
    if spec.format == "chat":
        what = "the rest of the current line" if single_line else "the code that belongs at the cursor"
        user = (
            f"Complete the Ascend C code at {CURSOR}. Reply with {what} only, in one ```cpp block, without "
            f"repeating the code before or after the cursor.\n\n"
            + (f"Relevant API:\n{context}\n" if context else "")
            + f"```cpp\n{prefix}{CURSOR}{suffix}\n```"
        )
        messages = ({"role": "system", "content": SYSTEM_COMPLETE}, {"role": "user", "content": user})
        prefill = "```cpp\n"
        text = render_chat(messages, template=spec.chat_template, think=False, prefill=prefill)
        return CompletionPrompt(Prompt(text, messages=messages, kind="chat"), (*stops, FENCE), prefill)
    return CompletionPrompt(Prompt(header + prefix, kind="raw"), stops)


# ----------------------------------------------------------------------------------------------- answers

_THINK_BLOCK = re.compile(r"<think>.*?</think>\s*", re.S)
_FENCED = re.compile(r"```[ \t]*([\w+#.-]*)[ \t]*\n(.*?)(?:^[ \t]*```|\Z)", re.S | re.M)


def strip_think(text: str) -> str:
    """Remove ``<think>...</think>`` reasoning; an unclosed block removes the rest, a stray close the part before."""
    text = _THINK_BLOCK.sub("", text)
    if "</think>" in text:
        text = text.split("</think>", 1)[1].lstrip()
    if "<think>" in text:
        text = text.split("<think>", 1)[0]
    return text


def _looks_like_code(text: str) -> bool:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return False
    codeish = sum(
        1
        for ln in lines
        if re.search(r"[;{}()\[\]=<>]|^\s*(#|//|/\*|\*)", ln)
        or (re.fullmatch(r"\s*[\w:.<>,*&\s]+", ln) and len(ln) < 40)
    )
    prose = sum(1 for ln in lines if re.search(r"[A-Za-z]+ [a-z]+ [a-z]+ [a-z]+.*[.:!?]\s*$", ln))
    return codeish > prose


def extract_code(answer: str, prefilled: bool = False) -> str | None:
    """The code in a chat answer: the first fenced block, the text before the closing fence when the prompt opened
    one (`prefilled`), or the whole answer when it reads as code. None when the answer holds no code."""
    text = strip_think(answer)
    if prefilled:
        body = text.split(FENCE, 1)[0]
        return body if body.strip() and _looks_like_code(body) else None
    blocks = _FENCED.findall(text)
    for _lang, body in blocks:
        if body.strip():
            return body[:-1] if body.endswith("\n") else body
    if FENCE in text:
        return None
    stripped = text.strip("\n")
    return stripped if stripped.strip() and _looks_like_code(stripped) else None


def align_to_cursor(code: str, line_prefix: str) -> str:
    """Drop a restatement of the current line's text before the cursor from the start of `code`."""
    head = line_prefix.lstrip()
    stripped = code.lstrip()
    if head.strip() and stripped.startswith(head):
        return stripped[len(head) :]
    if head.strip() and stripped.startswith(head.rstrip()):
        return stripped[len(head.rstrip()) :].lstrip(" \t")
    return code


# ----------------------------------------------------------------------------------------------- retrieval

_IDENT = re.compile(r"[A-Za-z_]\w*")


def identifiers_near(text: str, offset: int, before: int = 1500, after: int = 300) -> list[str]:
    """Identifiers around `offset`, nearest first, each once."""
    lo, hi = max(0, offset - before), min(len(text), offset + after)
    scored: dict[str, int] = {}
    for m in _IDENT.finditer(text, lo, hi):
        dist = offset - m.end() if m.end() <= offset else (m.start() - offset) * 3
        name = m.group(0)
        scored[name] = min(scored.get(name, dist), dist)
    return sorted(scored, key=lambda n: scored[n])


def describe_entry(entry: Entry, max_overloads: int = 2) -> str:
    lines = [f"// {entry.name}" + (f": {entry.doc.splitlines()[0]}" if entry.doc else "")]
    for ov in entry.overloads[:max_overloads]:
        lines.append(f"//   {ov.label()}")
    return "\n".join(lines)


def retrieve_context(catalog: Catalog, text: str, offset: int, budget_chars: int = 768) -> str:
    """Catalog entries (signature and first doc line) for the identifiers near the cursor, nearest first, as C++
    comment lines, within `budget_chars`."""
    out: list[str] = []
    used = 0
    seen: set[str] = set()
    for name in identifiers_near(text, offset):
        for entry in catalog.lookup(name):
            if entry.name in seen or entry.kind in ("namespace", "enumerator"):
                continue
            seen.add(entry.name)
            block = describe_entry(entry)
            if used + len(block) + 1 > budget_chars:
                return "\n".join(out) + ("\n" if out else "")
            out.append(block)
            used += len(block) + 1
    return "\n".join(out) + ("\n" if out else "")


# ----------------------------------------------------------------------------------------------- kernel generation

KERNEL_RULES: tuple[str, ...] = (
    "Write only the kernel file (op_kernel/<op>.cpp); keep the kernel function's name and parameters.",
    "Tiling values are constants in the kernel: do not use GET_TILING_DATA and do not use DTYPE_X macros.",
    "Write bfloat16_t and float16_t (or half) for 16-bit floating types.",
    "DataCopy lengths and UB addresses must be multiples of 32 bytes.",
    "Split the work over all AI cores with GetBlockIdx() and GetBlockNum().",
    "Use only real Ascend C APIs (AscendC:: namespace); a made-up API fails to compile.",
)
# dynamic shape (kernel + host): NPUKernelBench's rules for the tiling header and the host tiling
DYNAMIC_RULES: tuple[str, ...] = (
    "Write the tiling header (op_host/<op>_tiling.h with BEGIN_TILING_DATA_DEF), the host TilingFunc "
    "(op_host/<op>.cpp: keep the OpDef, set the block dim and the tiling data from the input shapes) and the kernel "
    "(op_kernel/<op>.cpp, reading its tiling with GET_TILING_DATA); keep the kernel function's name and parameters.",
    "Every test case must pass with the same three files: nothing shape-specific may be hard-coded.",
    "Write bfloat16_t and float16_t (or half) for 16-bit floating types.",
    "DataCopy lengths and UB addresses must be multiples of 32 bytes.",
    "Split the work over all AI cores (SetBlockDim on the host, GetBlockIdx() in the kernel).",
    "Use only real Ascend C APIs (AscendC:: namespace); a made-up API fails to compile.",
)
SYSTEM_GENERATE = SYSTEM_REPAIR.replace("repair kernels that fail to build or run", "write kernels")


def answer_layout(op: str, mode: str = "static") -> str:
    """How the answer must be laid out (what NPUKernelBench's parser and `bench.extract` read)."""
    if mode == "dynamic":
        sections = "\n".join(
            f"================== {name} ==================\n```cpp\n...\n```"
            for name in (f"op_host/{op}_tiling.h", f"op_host/{op}.cpp", f"op_kernel/{op}.cpp")
        )
        return f"Reply with the three files, each under its title line:\n\n{sections}"
    return (
        "Reply with the complete kernel file between <kernel_impl> and </kernel_impl>, as one ```cpp block:\n\n"
        "<kernel_impl>\n```cpp\n...\n```\n</kernel_impl>"
    )


def hardware_block(arch: object) -> str:
    """The prompt's hardware block from an `ArchProfile` (name, cores, UB size)."""
    name = getattr(arch, "name", "Ascend910B2")
    memory = getattr(arch, "memory", {}) or {}
    lines = [
        f"SoC: {name}",
        f"AI Cube cores (AIC): {getattr(arch, 'aic_cores', '?')}",
        f"AI Vector cores (AIV): {getattr(arch, 'aiv_cores', '?')}",
        f"ub_size: {memory.get('ub', '?')} bytes",
    ]
    for key in ("l1", "l0a", "l0b", "l0c"):
        if key in memory:
            lines.append(f"{key}_size: {memory[key]} bytes")
    return "\n".join(lines)


def kernel_messages(
    api_desc: str,
    test_case: str,
    arch: object,
    *,
    question: str = "",
    example: str = "",
    reference: str = "",
    host: str = "",
    rules: Sequence[str] = KERNEL_RULES,
    layout: str = "Reply with the complete kernel file in one ```cpp block.",
) -> tuple[dict[str, str], ...]:
    """A kernel-generation request in NPUKernelBench's style, as [system, user] chat messages: the API description,
    the PyTorch reference, the test case, the templates (kernel, and host in dynamic mode), an example, the hardware
    block, the rules and the answer layout."""
    parts = [
        "## Task\nImplement the Ascend C kernel described below.",
        f"## API description\n{api_desc.strip()}",
    ]
    if reference:
        parts.append(f"## Reference (PyTorch)\n```python\n{reference.strip()}\n```")
    if test_case:
        parts.append(f"## Test case\n{test_case.strip()}")
    if question:
        parts.append(f"## Kernel template\n```cpp\n{question.strip()}\n```")
    if host:
        parts.append(f"## Host template (op_host)\n```cpp\n{host.strip()}\n```")
    if example:
        parts.append(f"## Example (AddCustom)\n```cpp\n{example.strip()}\n```")
    parts.append(f"## Hardware\n{hardware_block(arch)}")
    parts.append("## Rules\n" + "\n".join(f"{i}. {r}" for i, r in enumerate(rules, 1)))
    parts.append(layout)
    return ({"role": "system", "content": SYSTEM_GENERATE}, {"role": "user", "content": "\n\n".join(parts)})


def kernel_prompt(
    api_desc: str,
    test_case: str,
    arch: object,
    *,
    question: str = "",
    example: str = "",
    rules: Sequence[str] = KERNEL_RULES,
    think: bool = True,
) -> Prompt:
    """A kernel-generation request in NPUKernelBench's style."""
    messages = kernel_messages(api_desc, test_case, arch, question=question, example=example, rules=rules)
    return Prompt(render_chat(messages, think=think), messages=messages, kind="chat", think=think)
