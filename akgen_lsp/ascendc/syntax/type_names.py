"""Type names as written: template arguments stripped (`strip_templates`), the class a declared type names
(`base_type_name`), and the texts of a node's template arguments."""

from __future__ import annotations

import re

from tree_sitter import Node

from akgen_lsp.ascendc.syntax.grammar import F_ARGUMENTS
from akgen_lsp.ascendc.syntax.index import _named_children_without_comments, _tree_has_error
from akgen_lsp.ascendc.syntax.parsing import ParsedFile


def strip_templates(text: str) -> str:
    """``AscendC::TQue<QuePosition::VECIN, 2>`` -> ``AscendC::TQue`` (also nested and ``::`` after ``>``)."""
    if "<" not in text:
        return text
    prev = None
    while prev != text and "<" in text:
        prev = text
        text = _INNER_TEMPLATE_RE.sub("", text)
    return text.replace(">", "") if "<" not in text else text.split("<", 1)[0]


_INNER_TEMPLATE_RE = re.compile(r"<[^<>]*>")


def base_type_name(type_text: str) -> str:
    """The class or type name of a declared type: cv, ``typename``, pointers, references and template arguments
    removed, ``::`` kept: ``const AscendC::LocalTensor<half>&`` -> ``AscendC::LocalTensor``."""
    t = strip_templates(type_text)
    if " " in t:
        t = _TYPE_WORDS_RE.sub(" ", t)
    t = t.replace("&", "").replace("*", "")
    t = "".join(t.split())
    return t.lstrip(":")


_TYPE_WORDS_RE = re.compile(
    r"\b(?:const|constexpr|volatile|static|inline|typename|struct|class|mutable|extern|register)\b"
)


def _template_arg_texts(pf: ParsedFile, node: Node | None) -> tuple[str, ...]:
    """Texts of the arguments of the first template_argument_list in or under `node` (not nested deeper)."""
    if node is None:
        return ()
    node_type = node.type
    if node_type == "template_argument_list":  # the walk below would stop at once
        return _argument_texts(pf, node)
    if node_type == "template_type":  # `TQue<...>`: its name is a leaf, so the walk finds its arguments first
        args = node.child_by_field_id(F_ARGUMENTS)
        if args is not None and args.type == "template_argument_list":
            return _argument_texts(pf, args)
    if not _tree_has_error(pf):
        # every template_argument_list starts with its "<" token (no error recovery made one up), so the first one
        # in document order, the one the walk below finds, is the one at the first "<" if any is there
        at = pf.data.find(b"<", node.start_byte, node.end_byte)
        if at < 0:
            return ()
        first = node.named_descendant_for_byte_range(at, at + 1)
        if first is not None and first.type == "template_argument_list" and first.start_byte == at:
            return _argument_texts(pf, first)
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "template_argument_list":
            return _argument_texts(pf, n)
        stack.extend(reversed(n.named_children))
    return ()


def _argument_texts(pf: ParsedFile, arg_list: Node) -> tuple[str, ...]:
    """The texts of a template_argument_list's arguments, whitespace runs made single spaces."""
    return tuple(" ".join(pf.node_text(c).split()) for c in _named_children_without_comments(pf, arg_list))
