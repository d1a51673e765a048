"""AKG160 type spelling: ``bfloat16``, ``float16``, ``fp16`` or ``bf16`` written where a type is meant.

## What it does
Reports these names where they are used as a type (a declaration's type, a template argument, a cast, a
``sizeof``) and the file does not define them itself (no ``using``, ``typedef``, ``#define`` or class of that
name). The Ascend C spellings are ``bfloat16_t`` and ``half`` (``float16_t`` is also accepted).

## Why is this bad?
bisheng stops with ``unknown type name 'bfloat16'``. Models carry the spellings of other frameworks (PyTorch's
``bfloat16``/``float16``, CUDA's ``bf16``) into kernels; NPUKernelBench's prompt has to tell them to write
``bfloat16_t``.

## Example
```cpp
AscendC::LocalTensor<bfloat16> xLocal = inQueueX.AllocTensor<bfloat16>();
AscendC::Cast(yLocal, xLocal.ReinterpretCast<fp16>(), AscendC::RoundMode::CAST_NONE, n);
```

Use instead:
```cpp
AscendC::LocalTensor<bfloat16_t> xLocal = inQueueX.AllocTensor<bfloat16_t>();
AscendC::Cast(yLocal, xLocal.ReinterpretCast<half>(), AscendC::RoundMode::CAST_NONE, n);
```

## Fix safety
Safe: ``bfloat16``/``bf16`` mean the 16-bit brain float (``bfloat16_t``) and ``float16``/``fp16`` the IEEE half
(``half``) in every framework these spellings come from, and the rename touches only the type name.

## References
- Ascend C data types: ``half``, ``bfloat16_t`` (asc-devkit ``docs/zh/api``)
- clang: ``err_unknown_typename``
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import ParsedFile, lookup, sizeof_operands, type_name_nodes, user_defined_names
from akgen_lsp.findings import Edit, Finding, Fix, Severity

CODE = "AKG160"
SPELLINGS = {"bfloat16": "bfloat16_t", "bf16": "bfloat16_t", "float16": "half", "fp16": "half"}


def check(ctx: LintContext) -> Iterator[Finding]:
    text = ctx.text
    if not any(s in text for s in SPELLINGS):
        return
    pf = ctx.parsed
    user = user_defined_names(pf)
    wrong = {k: v for k, v in SPELLINGS.items() if k not in user}
    if not wrong:
        return
    candidates = [n for n in type_name_nodes(pf) if pf.node_text(n) in wrong]
    # `sizeof(bf16)` parses as an expression around an identifier
    candidates.extend(_sizeof_identifiers(pf, wrong))
    seen: set[int] = set()
    for node in sorted(candidates, key=lambda n: n.start_byte):
        if node.start_byte in seen:
            continue
        seen.add(node.start_byte)
        parent = node.parent
        if parent is not None and parent.type == "qualified_identifier":
            continue  # `ns::bf16` names something else (AKG101 judges AscendC::)
        name = pf.node_text(node)
        if lookup(pf, name, node) is not None:
            continue  # a variable of that name: `bf16 * x` is a multiplication
        right = wrong[name]
        span = pf.span(node)
        yield Finding(
            code=CODE,
            message=f"unknown type name '{name}'; did you mean '{right}'?",
            span=span,
            severity=Severity.ERROR,
            source="akgen-lint",
            error_class="dtype",
            fixes=(Fix(f"Replace '{name}' with '{right}'", (Edit(span, right),), safe=True),),
            data={"name": name, "replacement": right},
        )


def _sizeof_identifiers(pf: ParsedFile, wrong: dict[str, str]) -> Iterator[Node]:
    for node in sizeof_operands(pf):
        if node.type == "identifier" and pf.node_text(node) in wrong:
            yield node


RULE = Rule(
    CODE, "type-spelling", "bfloat16/float16/fp16/bf16 used as a type instead of bfloat16_t/half.", check
)
