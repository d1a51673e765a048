"""The syntax layer: tree-sitter-cpp over AscendC device code, and the model of one file built on it.

Parsing. Device keywords (``__aicore__``, ``__global__``, ``__gm__``, ``__mix__(1, 2)``, ``[aicore]``, ...),
``<<<...>>>`` launch configurations and the constructs tree-sitter-cpp cannot read (preprocessor conditionals that
split an ``if``/``else`` chain, ``ASSERT(...)`` without a semicolon, ``x.template F(a)``, tiling-data macros, ...; see
`mask_device_code`) are rewritten in place before parsing: characters are replaced, never inserted or deleted, and
newlines are kept, so every byte offset in the tree is an offset in the user's text. `ParsedFile` converts tree
positions to 1-based character `Span`s; `pf.text` is the user's text, `pf.masked` what the tree was built from,
`pf.code` the user's text with comments and literals blanked.

The model (each memoized per `ParsedFile` in ``pf.memo``; one tree-sitter query collects the nodes):
- `declarations(pf)`: variables, fields and parameters (`Declaration`: type text, type name, template arguments,
  kind, scope, initializer); `lookup(pf, name, at)` finds the one visible at a node.
- `functions(pf)` (`Function`), `kernel_entries(pf)`, `function_at(pf, node)`; `classes(pf)` (`ClassInfo` with
  fields and methods), `class_named`, `class_at`, `ascendc_fields` (pipes, queues, buffers, tensors of a class).
- `calls(pf, catalog)`: every named call (`Call`) with its callee text, qualifier, receiver, the receiver's
  Ascend C class, and the catalog name it resolves to; `expr_type` types an expression the same way.
- `qualified_refs(pf)`: every ``A::B::C`` name with its role (call, template, type, value).
- `user_defined_names(pf)`, `macros(pf)`, `type_aliases(pf)`, `enumerators(pf)`, `foreign_names_possible(pf)`.
- `const_eval(expr, pf, at, env, types)`: integer constant expressions; None when unknown, never raises.

The modules, each importing only those above it in this list:
- `grammar` (the tree-sitter C++ language and its field ids), `codeview` (comments and literals blanked, small
  scanners over the code view), `masking` (what tree-sitter parses), `parsing` (`parse`, `ParsedFile`, incremental
  re-parse, `walk`);
- `index` (the one query, innermost containers), `type_names` (type texts and template arguments);
- `declarations`, `functions`, `classes`: the file's model; `preprocessor` (``#define``s);
- `names` (names the file defines, `lookup`, names from elsewhere), `ascendc_types` (names against namespace
  AscendC, `qualify_type`), `calls` (call resolution, `expr_type`), `consteval` (`const_eval`), `refs` (names as
  written: qualified names, type names, ``sizeof`` operands);
- `cursor`: what is at a position of half-typed text (the word, its qualifier, the receiver's class, the enclosing
  call), for the server's hover, completion and signature help: a text scan over `code_view`, asking `lookup` for
  a receiver's declaration while the parse holds the text.
Callers import from this package (``from akgen_lsp.ascendc.syntax import parse``); names with a leading underscore
are shared between the package's modules only.
"""

from __future__ import annotations

from akgen_lsp.ascendc.syntax import cursor
from akgen_lsp.ascendc.syntax.ascendc_types import (
    ASCEND_MEMBER_CLASSES,
    ASCENDC,
    ascendc_fields,
    ascendc_visible_at,
    qualify_type,
)
from akgen_lsp.ascendc.syntax.calls import Call, calls, expr_type
from akgen_lsp.ascendc.syntax.classes import ClassInfo, class_at, class_named, classes
from akgen_lsp.ascendc.syntax.codeview import code_view
from akgen_lsp.ascendc.syntax.consteval import TYPE_SIZES, const_eval
from akgen_lsp.ascendc.syntax.declarations import Declaration, declarations
from akgen_lsp.ascendc.syntax.functions import Function, function_at, functions, kernel_entries
from akgen_lsp.ascendc.syntax.grammar import (
    CPP,
    F_ALTERNATIVE,
    F_ARGUMENT,
    F_ARGUMENTS,
    F_BODY,
    F_CONDITION,
    F_CONSEQUENCE,
    F_DECLARATOR,
    F_DEFAULT_VALUE,
    F_FIELD,
    F_FUNCTION,
    F_LEFT,
    F_NAME,
    F_OPERATOR,
    F_PARAMETERS,
    F_PLACEMENT,
    F_RIGHT,
    F_SCOPE,
    F_SIZE,
    F_TYPE,
    F_VALUE,
)
from akgen_lsp.ascendc.syntax.index import for_loops
from akgen_lsp.ascendc.syntax.masking import ATTRIBUTE_MACROS, DEVICE_KEYWORDS, mask_device_code
from akgen_lsp.ascendc.syntax.names import (
    ASCEND_HEADER_PREFIXES,
    enumerators,
    foreign_names_possible,
    lookup,
    type_aliases,
    user_defined_names,
)
from akgen_lsp.ascendc.syntax.parsing import ParsedFile, error_nodes, parse, walk
from akgen_lsp.ascendc.syntax.preprocessor import Macro, macros, undefined_macro_uses
from akgen_lsp.ascendc.syntax.refs import QualifiedRef, qualified_refs, sizeof_operands, type_name_nodes
from akgen_lsp.ascendc.syntax.type_names import base_type_name, strip_templates

__all__ = [
    "ASCENDC",
    "ASCEND_HEADER_PREFIXES",
    "ASCEND_MEMBER_CLASSES",
    "ATTRIBUTE_MACROS",
    "CPP",
    "DEVICE_KEYWORDS",
    "F_ALTERNATIVE",
    "F_ARGUMENT",
    "F_ARGUMENTS",
    "F_BODY",
    "F_CONDITION",
    "F_CONSEQUENCE",
    "F_DECLARATOR",
    "F_DEFAULT_VALUE",
    "F_FIELD",
    "F_FUNCTION",
    "F_LEFT",
    "F_NAME",
    "F_OPERATOR",
    "F_PARAMETERS",
    "F_PLACEMENT",
    "F_RIGHT",
    "F_SCOPE",
    "F_SIZE",
    "F_TYPE",
    "F_VALUE",
    "TYPE_SIZES",
    "Call",
    "ClassInfo",
    "Declaration",
    "Function",
    "Macro",
    "ParsedFile",
    "QualifiedRef",
    "ascendc_fields",
    "ascendc_visible_at",
    "base_type_name",
    "calls",
    "class_at",
    "class_named",
    "classes",
    "code_view",
    "const_eval",
    "cursor",
    "declarations",
    "enumerators",
    "error_nodes",
    "expr_type",
    "for_loops",
    "foreign_names_possible",
    "function_at",
    "functions",
    "kernel_entries",
    "lookup",
    "macros",
    "mask_device_code",
    "parse",
    "qualified_refs",
    "qualify_type",
    "sizeof_operands",
    "strip_templates",
    "type_aliases",
    "type_name_nodes",
    "undefined_macro_uses",
    "user_defined_names",
    "walk",
]
