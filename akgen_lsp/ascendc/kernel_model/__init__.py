"""The model of one kernel file, built once on the syntax layer and shared by the kernel-structure rules.

What it adds to `akgen_lsp.ascendc.syntax` (functions, classes, declarations, calls, `const_eval`):

- for every function definition, its device qualifiers, read from the user's text around the node (the tree was
  built with them blanked): ``__aicore__``, ``__global__``, ``__vector__``, ``__cube__``, ``__mix__(...)``,
  ``[aicore]``, ``__device__``, or a macro that stands for one of them; its ``extern "C"`` linkage; where its
  declaration starts (for fixes that insert a qualifier);
- the queues and buffers (``TQue``/``TQueBind``/``TBuf``) of each class and of each function, with their positions
  and constant depth, and the pipes (``TPipe``);
- every ``InitBuffer`` call with ``num`` and ``len`` evaluated where they are constant;
- the queue operations (``AllocTensor``, ``EnQue``, ``DeQue``, ``FreeTensor``) of each function, with the tensor
  variable they produce or consume;
- the byte ranges compiled only for CPU debugging (``#ifdef ASCENDC_CPU_DEBUG``).

`kernel_model(ctx)` builds it once per file and keeps it in ``ctx.memo``; `build_model(pf, catalog)` builds one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

from tree_sitter import Node

from akgen_lsp.ascendc import syntax
from akgen_lsp.ascendc.syntax import DEVICE_KEYWORDS, Call, ParsedFile, base_type_name, const_eval, walk

if TYPE_CHECKING:
    from akgen_lsp.ascendc.catalog import Catalog
    from akgen_lsp.ascendc.context import LintContext

# ------------------------------------------------------------------------------------------------- vocabulary

POSITIONS = frozenset({"GM", "VECIN", "VECOUT", "VECCALC", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "TSCM",
                       "SPM", "SHM", "C2PIPE2GM", "C2PIPE2LOCAL"})
UB_POSITIONS = frozenset({"VECIN", "VECOUT", "VECCALC"})
POSITION_MEMORY = {"VECIN": "ub", "VECOUT": "ub", "VECCALC": "ub", "A1": "l1", "B1": "l1", "C1": "l1",
                   "A2": "l0a", "B2": "l0b", "CO1": "l0c", "C2": "bt"}
QUEUE_OPS = frozenset({"AllocTensor", "EnQue", "DeQue", "FreeTensor"})
TENSOR_CLASSES = ("LocalTensor", "GlobalTensor")

# qualifiers that make a function device code
_DEVICE_MARK_RE = re.compile(
    r"\b(?:__aicore__|__global__|__vector__|__cube__|__device__|__simt_vf__|__simd_vf__|__attribute_aicore__|"
    r"__simd_callee__|__simt_callee__|__mix__|CATLASS_DEVICE|CATLASS_HOST_DEVICE|CATLASS_GLOBAL)\b"
    r"|\[\s*aicore\s*\]|\[\s*\[\s*(?:aicore|vector|cube)\s*\]\s*\]"
)
_AICORE_RE = re.compile(r"\b(?:__aicore__|__vector__|__cube__|__mix__|__attribute_aicore__|CATLASS_DEVICE|"
                        r"CATLASS_HOST_DEVICE|CATLASS_GLOBAL)\b|\[\s*aicore\s*\]"
                        r"|\[\s*\[\s*(?:aicore|vector|cube)\s*\]\s*\]")
_GLOBAL_RE = re.compile(r"\b(?:__global__|CATLASS_GLOBAL)\b")
_EXTERN_C_RE = re.compile(r'\bextern\s*"C"')
_DIRECTIVE_RE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b([^\n]*)", re.M)
# a necessary condition that starts with a literal (fast to search for); most kernels have no conditional at all
_DIRECTIVE_HINT_RE = re.compile(rb"#[ \t]*(?:if|ifdef|ifndef|elif|else|endif)\b")
_CPU_MACROS = (b"ASCENDC_CPU_DEBUG", b"__CCE_KT_TEST__")
_WORD_RE = re.compile(r"[A-Za-z_]\w*")
_MEMBER_RE = re.compile(r"[A-Za-z_)\]]\s*\.\s*[A-Za-z_]")
_BUFFER_TYPES = frozenset({"TQue", "TQueBind", "TBuf"})


# ------------------------------------------------------------------------------------------------- values


@dataclass
class Function:
    """A function definition (`syntax.Function`) with its device qualifiers."""

    fn: syntax.Function
    qualifiers: str             # the user's text of the declaration before its declarator (keywords included)
    has_device_mark: bool       # any device qualifier (__aicore__, __global__, __device__, ...)
    is_aicore: bool             # __aicore__, __vector__, __cube__, __mix__(...), [aicore]
    is_global: bool             # __global__: a kernel entry
    extern_c: bool
    is_template: bool
    is_constexpr: bool
    start_byte: int             # where the declaration starts in the user's text (its first qualifier)
    class_name: str | None = None  # the class it belongs to (last name part)

    @property
    def name(self) -> str:
        return self.fn.name

    @property
    def node(self) -> Node:
        return self.fn.node

    @property
    def name_node(self) -> Node:
        return self.fn.name_node

    @property
    def body(self) -> Node | None:
        return self.fn.body


    @property
    def params(self) -> tuple[syntax.Declaration, ...]:
        return self.fn.params

    @property
    def return_type(self) -> str:
        d = self.node.child_by_field_id(syntax.F_DECLARATOR)
        suffix = "*" if d is not None and d.type == "pointer_declarator" else (
            "&" if d is not None and d.type == "reference_declarator" else "")
        return self.fn.return_type + suffix


@dataclass
class Buffer:
    """A ``TQue``/``TQueBind``/``TBuf`` object: a class member or a function local."""

    name: str
    kind: str                   # TQue | TQueBind | TBuf
    src: str | None             # position (VECIN, ...); None when it is not a literal position
    dst: str | None
    depth_text: str | None      # the depth argument as written
    owner: str                  # class name, or "fn:<start byte>" for a function local
    decl: syntax.Declaration
    pf: ParsedFile = field(repr=False, compare=False)
    template_params: tuple[str, ...] = ()

    @cached_property
    def depth(self) -> int | None:
        """The queue's depth when constant; None for a TBuf, or when unknown (a template parameter's value depends
        on the instantiation)."""
        if self.depth_text is None or set(_WORD_RE.findall(self.depth_text)) & set(self.template_params):
            return None
        return const_eval(self.depth_text, self.pf, at=self.decl.node)

    @property
    def is_queue(self) -> bool:
        return self.kind != "TBuf"

    @property
    def is_array(self) -> bool:
        return self.decl.array_size is not None

    @property
    def position_key(self) -> tuple[str, str] | None:
        if self.src is None or self.dst is None:
            return None
        return (self.src, self.dst)

    @property
    def memory(self) -> str | None:
        """The on-chip memory the buffer lives in (``ub``, ``l1``, ``l0a``, ...), None when unknown."""
        for pos in (self.dst, self.src):
            if pos is not None and pos in POSITION_MEMORY:
                return POSITION_MEMORY[pos]
        return None


@dataclass
class InitBuffer:
    """``pipe.InitBuffer(buf, num, len)`` or ``pipe.InitBuffer(tbuf, len)``. `num` and `length` are evaluated when
    first asked (most sizes come from tiling data: a rule stops at the first unknown one)."""

    call: Call
    function: Function
    pipe: str                   # receiver text (``pipe``, ``this->pipe``, ``GetTPipePtr()``)
    target: str                 # the buffer argument's name
    buffer: Buffer | None
    conditional: bool           # inside an if/switch/loop/?: of its function, or an #if branch
    model: KernelModel = field(repr=False, compare=False)
    binding: Binding | None = None

    @property
    def node(self) -> Node:
        return self.call.node

    @cached_property
    def num(self) -> int | None:
        args = self.call.args
        return 1 if len(args) == 2 else self.model.eval(args[1], self.function, self.binding)

    @cached_property
    def length(self) -> int | None:
        return self.model.eval(self.call.args[-1], self.function, self.binding)

    def under(self, binding: Binding | None) -> InitBuffer:
        """This call evaluated for one instantiation of its class template."""
        return self if binding is None else replace(self, binding=binding)

    @property
    def rounded_bytes(self) -> int | None:
        """num x len with len rounded up to 32 bytes (what TPipe reserves); None when not constant."""
        if self.num is None or self.length is None:
            return None
        return self.num * ((self.length + 31) // 32 * 32)


@dataclass
class QueueOp:
    """One queue operation: ``q.AllocTensor<T>()``, ``q.EnQue(t)``, ``q.DeQue<T>()``, ``q.FreeTensor(t)``."""

    op: str
    call: Call
    function: Function
    queue: str                  # receiver name
    buffer: Buffer | None
    tensor: str | None          # the tensor variable produced (Alloc/DeQue) or consumed (EnQue/Free)
    tensor_node: Node | None
    stored_elsewhere: bool      # the result goes into a member or an expression (it escapes)

    @property
    def nargs(self) -> int:
        return len(self.call.args)

    @property
    def name_node(self) -> Node:
        return self.call.name_node


@dataclass(frozen=True)
class Binding:
    """One instantiation of a class template seen in the file (``KernelAdd<half, 256> op;``): its type
    parameters bound to scalar types and its non-type parameters to constant values."""

    types: tuple[tuple[str, str], ...] = ()
    values: tuple[tuple[str, int], ...] = ()

    @property
    def type_map(self) -> dict[str, str]:
        return dict(self.types)

    @property
    def value_map(self) -> dict[str, int]:
        return dict(self.values)

    def label(self) -> str:
        parts = [f"{k} = {v}" for k, v in self.types] + [f"{k} = {v}" for k, v in self.values]
        return ", ".join(parts)


@dataclass
class KernelClass:
    info: syntax.ClassInfo
    methods: list[Function] = field(default_factory=list)
    buffers: dict[str, Buffer] = field(default_factory=dict)
    pipes: list[str] = field(default_factory=list)
    is_kernel_class: bool = False
    """A class with device methods (its other methods run on the device too)."""
    instantiations: list[Binding] = field(default_factory=list)
    """The distinct instantiations of a class template that the file writes out with concrete arguments."""

    @property
    def name(self) -> str:
        return self.info.name.rsplit("::", 1)[-1]

    @property
    def node(self) -> Node:
        return self.info.node

    @property
    def bases(self) -> list[str]:
        return [b.rsplit("::", 1)[-1] for b in self.info.bases]

    def field_decl(self, name: str) -> syntax.Declaration | None:
        return self.info.field(name)


@dataclass
class KernelModel:
    pf: ParsedFile
    catalog: Catalog | None
    functions: list[Function]
    classes: dict[str, KernelClass]
    buffers: list[Buffer]
    init_buffers: list[InitBuffer]
    queue_ops: list[QueueOp]
    device_macros: frozenset[str]
    cpu_only: list[tuple[int, int]]
    pp_branches: list[tuple[int, int]]
    function_names: dict[str, list[Function]]
    calls_by_function: dict[int, list[Call]]
    _call_index: dict[tuple[int, int], Call] | None = None
    _local_index: dict[tuple[str, str], Buffer] | None = None
    _by_start: dict[int, Function] = field(default_factory=dict)
    _short_index: dict[str, list[tuple[Function, Call]]] | None = None

    @property
    def entries(self) -> list[Function]:
        return [f for f in self.functions if f.is_global]

    def is_device(self, fn: Function) -> bool:
        """Device code: a function with a device qualifier, or a method of a class that has device methods."""
        if fn.has_device_mark:
            return True
        cls = self.classes.get(fn.class_name or "")
        return cls is not None and cls.is_kernel_class

    def in_cpu_only(self, node: Node) -> bool:
        return bool(self.cpu_only) and any(a <= node.start_byte < b for a, b in self.cpu_only)

    def in_preprocessor_branch(self, node: Node) -> bool:
        return bool(self.pp_branches) and any(a <= node.start_byte < b for a, b in self.pp_branches)

    def function_of(self, node: Node) -> Function | None:
        """The innermost function definition around `node`."""
        f = syntax.function_at(self.pf, node)
        return None if f is None else self._by_start.get(f.node.start_byte)

    def calls_in(self, fn: Function) -> list[Call]:
        """The calls whose innermost function is `fn`."""
        return self.calls_by_function.get(fn.node.start_byte, [])

    def buffer_for(self, fn: Function, name: str) -> Buffer | None:
        """The queue/buffer named `name` as seen from `fn`: a local, a member, a member of a base in the file."""
        index = self._local_index
        if index is None:
            index = {}
            for b in self.buffers:
                if b.owner.startswith("fn:"):
                    index.setdefault((b.owner, b.name), b)
            self._local_index = index
        if index:
            local = index.get((_fn_owner(fn), name))
            if local is not None:
                return local
        seen: set[str] = set()
        cname = fn.class_name
        while cname and cname not in seen:
            seen.add(cname)
            cls = self.classes.get(cname)
            if cls is None:
                return None
            if name in cls.buffers:
                return cls.buffers[name]
            cname = next((b for b in cls.bases if b in self.classes), None)
        return None

    def bindings_for(self, fn: Function) -> list[Binding]:
        """The instantiations `fn` runs under: those of its class template seen in the file; [] when it is not a
        method of a class template (or none is written out)."""
        cls = self.classes.get(fn.class_name or "")
        return list(cls.instantiations) if cls is not None else []

    def calls_named(self, *names: str) -> list[tuple[Function, Call]]:
        """(function, call) of the calls whose last name part is one of `names`, in document order."""
        index = self._short_index
        if index is None:
            index = {}
            for start, cs in self.calls_by_function.items():
                fn = self._by_start.get(start)
                if fn is not None:
                    for c in cs:
                        index.setdefault(c.short, []).append((fn, c))
            self._short_index = index
        out = [pair for name in names for pair in index.get(name, ())]
        if len(names) > 1:
            out.sort(key=lambda pair: pair[1].node.start_byte)
        return out

    def call_names(self) -> set[str]:
        """The last name parts of every call of the file."""
        self.calls_named()
        assert self._short_index is not None
        return set(self._short_index)

    def call_at(self, node: Node) -> Call | None:
        """The `Call` of a call_expression node (None when the callee has no name)."""
        index = self._call_index
        if index is None:
            index = {(c.node.start_byte, c.node.end_byte): c for cs in self.calls_by_function.values() for c in cs}
            self._call_index = index
        return index.get((node.start_byte, node.end_byte))

    def eval(self, node: Node | None, fn: Function | None = None, binding: Binding | None = None) -> int | None:
        """The value of an expression when it is a compile-time constant of the file, else None. A name that is a
        template parameter of `fn` (or of its class) makes it unknown (its value depends on the instantiation),
        unless `binding` gives it."""
        if node is None:
            return None
        text = self.pf.node_text(node)
        if "->" in text or ("." in text and _MEMBER_RE.search(text)):
            return None  # a member of an object: a runtime value (tiling data, this->len)
        types = binding.type_map if binding is not None else {}
        values = binding.value_map if binding is not None else {}
        if fn is not None and fn.fn.template_params and \
                (set(_WORD_RE.findall(text)) & set(fn.fn.template_params)) - set(types) - set(values):
            return None
        return const_eval(node, self.pf, env=values or None, types=types or None)


# ------------------------------------------------------------------------------------------------- building


def kernel_model(ctx: LintContext) -> KernelModel:
    """The model of `ctx`'s file, built once and kept in ``ctx.memo``."""
    model = ctx.memo.get("kernel_model")
    if model is None:
        model = build_model(ctx.parsed, ctx.catalog)
        ctx.memo["kernel_model"] = model
    return model


def build_model(pf: ParsedFile, catalog: Catalog | None = None) -> KernelModel:
    orig = _original_bytes(pf)
    device_macros = _device_macros(pf)
    functions = [_function(pf, orig, f, device_macros) for f in syntax.functions(pf)]
    aliases = syntax.type_aliases(pf)
    classes: dict[str, KernelClass] = {}
    buffers: list[Buffer] = []
    for info in syntax.classes(pf):
        short = info.name.rsplit("::", 1)[-1]
        if not short or short in classes:
            continue
        cls = KernelClass(info)
        for d in info.fields:
            b = _buffer(pf, d, short, aliases, info.template_params) if not (d.is_pointer or d.is_reference) else None
            if b is not None:
                cls.buffers[d.name] = b
                buffers.append(b)
            elif _resolve_alias(d.type_name, aliases).rsplit("::", 1)[-1] == "TPipe" and not d.is_pointer:
                cls.pipes.append(d.name)
        classes[short] = cls
    _instantiations(pf, classes)
    by_name: dict[str, list[Function]] = {}
    by_start: dict[int, Function] = {}
    for f in functions:
        by_name.setdefault(f.name, []).append(f)
        by_start[f.node.start_byte] = f
        cls = classes.get(f.class_name or "")
        if cls is not None:
            cls.methods.append(f)
            cls.is_kernel_class = cls.is_kernel_class or f.has_device_mark
    calls_by_function: dict[int, list[Call]] = {}
    for c in syntax.calls(pf, catalog):
        if c.in_function is not None:
            calls_by_function.setdefault(c.in_function.start_byte, []).append(c)
    for d in syntax.declarations(pf):
        if d.kind == "local" and (d.type_name.rsplit("::", 1)[-1] in _BUFFER_TYPES or d.type_name in aliases):
            fdef = syntax.function_at(pf, d.node)
            if fdef is not None and fdef.node.start_byte in by_start:
                owner = by_start[fdef.node.start_byte]
                b = _buffer(pf, d, _fn_owner(owner), aliases, owner.fn.template_params)
                if b is not None and not d.is_reference and not d.is_pointer:
                    buffers.append(b)
    directives = _directives(orig)
    model = KernelModel(pf, catalog, functions, classes, buffers, [], [], device_macros, _cpu_only_regions(directives),
                        _preprocessor_branches(orig, directives), by_name, calls_by_function)
    model._by_start = by_start
    for f in functions:
        if f.body is not None:
            _scan_calls(model, f)
    return model


def _instantiations(pf: ParsedFile, classes: dict[str, KernelClass]) -> None:
    """Record, for each class template, the instantiations written out with scalar types and constants."""
    templates = {name: cls for name, cls in classes.items() if cls.info.template_params}
    if not templates:
        return
    for d in syntax.declarations(pf):
        cls = templates.get(d.type_name.rsplit("::", 1)[-1])
        if cls is None or not d.template_args or d.is_pointer or d.is_reference:
            continue
        params = cls.info.template_params
        types: list[tuple[str, str]] = []
        values: list[tuple[str, int]] = []
        for param, arg in zip(params, d.template_args, strict=False):
            if type_size(pf, arg) is not None and not _literal_like(arg):
                types.append((param, " ".join(arg.split())))
            else:
                v = const_eval(arg, pf, at=d.node)
                if v is None:
                    break
                values.append((param, v))
        else:
            binding = Binding(tuple(types), tuple(values))
            if binding not in cls.instantiations:
                cls.instantiations.append(binding)


def _literal_like(text: str) -> bool:
    return bool(re.fullmatch(r"[\d\s()+\-*/<>%&|^~xXa-fA-FuUlL']+", text))


def _original_bytes(pf: ParsedFile) -> bytes:
    raw = pf.memo.get("original_bytes")
    if not isinstance(raw, bytes):
        raw = pf.text.encode("utf-8", errors="surrogatepass")
        pf.memo["original_bytes"] = raw
    return raw


def _fn_owner(fn: Function) -> str:
    return f"fn:{fn.node.start_byte}"


def _device_macros(pf: ParsedFile) -> frozenset[str]:
    """Object-like macros whose body holds a device qualifier (``#define KERNEL_API __aicore__ inline``)."""
    return frozenset(name for name, m in syntax.macros(pf).items()
                     if m.params is None and m.node is not None and _DEVICE_MARK_RE.search(_macro_body(pf, name)))


def _directives(orig: bytes) -> list[re.Match[bytes]]:
    return list(_DIRECTIVE_RE.finditer(orig)) if b"#" in orig and _DIRECTIVE_HINT_RE.search(orig) else []


def _cpu_only_regions(directives: list[re.Match[bytes]]) -> list[tuple[int, int]]:
    """Byte ranges compiled only for CPU debugging: ``#ifdef ASCENDC_CPU_DEBUG`` (or ``#if defined(...)``) branches and
    the ``#else`` of an ``#ifndef ASCENDC_CPU_DEBUG``."""
    out: list[tuple[int, int]] = []
    stack: list[tuple[bool | None, int]] = []  # (this branch is CPU-only: True/False/None unrelated, branch start)
    for m in directives:
        kind, cond = m.group(1), m.group(2)
        if kind in (b"if", b"ifdef", b"ifndef"):
            cpu: bool | None = None
            if any(c in cond for c in _CPU_MACROS) and b"||" not in cond:
                cpu = kind == b"ifdef" or (kind == b"if" and b"!" not in cond)
                if not cpu and b"&&" in cond:
                    cpu = None  # not (A and B): its #else is not only the CPU build
            stack.append((cpu, m.end()))
        elif kind in (b"elif", b"else") and stack:
            cpu, start = stack.pop()
            if cpu:
                out.append((start, m.start()))
            stack.append(((not cpu) if (cpu is not None and kind == b"else") else None, m.end()))
        elif kind == b"endif" and stack:
            cpu, start = stack.pop()
            if cpu:
                out.append((start, m.start()))
    return out


def _preprocessor_branches(orig: bytes, directives: list[re.Match[bytes]]) -> list[tuple[int, int]]:
    """Byte ranges of the branches of ``#if``/``#ifdef``/``#ifndef`` groups (include guards excepted): code that a
    build may leave out, so nothing in it is certain to run."""
    out: list[tuple[int, int]] = []
    stack: list[tuple[int, bool]] = []  # (branch start, is an include guard)
    for m in directives:
        kind, cond = m.group(1), m.group(2).strip()
        if kind in (b"if", b"ifdef", b"ifndef"):
            guard = kind == b"ifndef" and re.match(rb"\s*#\s*define\s+" + re.escape(cond) + rb"\b",
                                                   orig[m.end() + 1 : m.end() + 200]) is not None
            stack.append((m.end(), guard))
        elif kind in (b"elif", b"else") and stack:
            start, guard = stack.pop()
            out.append((start, m.start()))
            stack.append((m.end(), False))
        elif kind == b"endif" and stack:
            start, guard = stack.pop()
            if not guard:
                out.append((start, m.start()))
    return out


def _resolve_alias(type_name: str, aliases: dict[str, str]) -> str:
    seen = 0
    while type_name in aliases and seen < 8:
        type_name = base_type_name(aliases[type_name])
        seen += 1
    return type_name


def _position(arg: str | None) -> str | None:
    if arg is None:
        return None
    last = arg.split("::")[-1].strip()
    return last if last in POSITIONS else None


def _buffer(pf: ParsedFile, d: syntax.Declaration, owner: str, aliases: dict[str, str],
            template_params: tuple[str, ...] = ()) -> Buffer | None:
    name = d.type_name
    args = d.template_args
    if name in aliases:
        target = aliases[name]
        name = base_type_name(target)
        args = _template_args_of_text(target)
    kind = name.rsplit("::", 1)[-1]
    if kind == "TQue":
        pos = _position(args[0]) if args else None
        return Buffer(d.name, kind, pos, pos, args[1] if len(args) > 1 else None, owner, d, pf, template_params)
    if kind == "TQueBind":
        return Buffer(d.name, kind, _position(args[0]) if args else None,
                      _position(args[1]) if len(args) > 1 else None, args[2] if len(args) > 2 else None, owner, d,
                      pf, template_params)
    if kind == "TBuf":
        pos = _position(args[0]) if args else "VECCALC"
        return Buffer(d.name, kind, pos, pos, None, owner, d, pf, template_params)
    return None


def _template_args_of_text(text: str) -> tuple[str, ...]:
    lt = text.find("<")
    if lt < 0:
        return ()
    inner = text[lt + 1 : text.rfind(">")]
    out, depth, cur = [], 0, ""
    for ch in inner:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return tuple(out)


_QUALIFIER_WORDS = frozenset(DEVICE_KEYWORDS) | {"CATLASS_DEVICE", "CATLASS_HOST_DEVICE", "CATLASS_GLOBAL",
                                                  "CATLASS_HOST", "inline", "static"}
_ATTRIBUTE_WORD_RE = re.compile(rb"__\w+__")


def _space_before(orig: bytes, end: int) -> int:
    """Start of the run of spaces, tabs and newlines that ends at `end`."""
    window = orig[max(0, end - 64) : end]
    kept = len(window.rstrip(b" \t\n\r"))
    if kept:  # the run starts inside the window
        return end - len(window) + kept
    i = end
    while i > 0 and orig[i - 1 : i] in (b" ", b"\t", b"\n", b"\r"):
        i -= 1
    return i


_WORD_TAIL_RE = re.compile(rb"[A-Za-z0-9_]+\Z")


def _word_before(orig: bytes, end: int) -> int:
    """Start of the identifier that ends at `end` (== `end` when there is none)."""
    window = orig[max(0, end - 64) : end]
    m = _WORD_TAIL_RE.search(window)
    if m is None:
        return end
    if m.start() > 0 or len(window) == end:  # the word starts inside the window (bytes.isalnum is ASCII only)
        return end - len(window) + m.start()
    i = end
    while i > 0 and (orig[i - 1 : i].isalnum() or orig[i - 1 : i] == b"_"):
        i -= 1
    return i


def _open_before(orig: bytes, close_at: int, opener: bytes, closer: bytes, limit: int = 400) -> int:
    """Index of the bracket that opens the one at `close_at` (scanning back at most `limit` bytes), or -1."""
    depth = 0
    i = close_at
    stop = max(0, close_at - limit)
    while i >= stop:
        c = orig[i : i + 1]
        if c == closer:
            depth += 1
        elif c == opener:
            depth -= 1
            if depth == 0:
                return i
        elif c in (b";", b"{", b"}"):
            return -1
        i -= 1
    return -1


def _qualifier_start(orig: bytes, pos: int, device_macros: frozenset[str]) -> int:
    """Where the qualifiers written before `pos` (a declaration's first token in the tree) begin: the tree does not
    cover the blanked device keywords, nor attributes it could not parse (``__inout_pipe__(V)``,
    ``__attribute__((always_inline))``, ``[aicore]``). Scans back token by token: device keywords and macros,
    ``inline``/``static``, ``__word__`` and ``__word__(...)``, ``[aicore]`` and ``[[...]]``."""
    start = pos
    for _ in range(16):
        i = _space_before(orig, start)
        if i == 0:
            break
        last = orig[i - 1 : i]
        if last == b")":
            opened = _open_before(orig, i - 1, b"(", b")")
            word_at = _word_before(orig, opened) if opened > 0 else -1
            if opened <= 0 or not _ATTRIBUTE_WORD_RE.fullmatch(orig[word_at:opened].rstrip()):
                break
            cand = word_at
        elif last == b"]":
            opened = _open_before(orig, i - 1, b"[", b"]", 80)
            if opened < 0 or not re.fullmatch(rb"\[\s*(?:aicore|\[[^\[\]]*\])\s*\]", orig[opened:i]):
                break
            cand = opened
        elif last.isalnum() or last == b"_":
            cand = _word_before(orig, i)
            word = orig[cand:i].decode("ascii", errors="replace")
            if word not in _QUALIFIER_WORDS and word not in device_macros and not _ATTRIBUTE_WORD_RE.fullmatch(
                    orig[cand:i]):
                break
        else:
            break
        line_start = orig.rfind(b"\n", 0, cand) + 1
        if orig[line_start:cand].lstrip().startswith(b"#"):
            break  # a preprocessor line is not part of the declaration
        start = cand
    return start


def _function(pf: ParsedFile, orig: bytes, f: syntax.Function, device_macros: frozenset[str]) -> Function:
    node = f.node
    start = _qualifier_start(orig, node.start_byte, device_macros)
    decl = node.child_by_field_id(syntax.F_DECLARATOR)
    head_end = decl.start_byte if decl is not None else node.start_byte
    head = orig[start:head_end].decode("utf-8", errors="replace")
    # qualifiers written after the parameter list (rare: `void f() __aicore__`) count too
    fdecl = decl
    while fdecl is not None and fdecl.type != "function_declarator":
        fdecl = fdecl.child_by_field_id(syntax.F_DECLARATOR)
    params = fdecl.child_by_field_id(syntax.F_PARAMETERS) if fdecl is not None else None
    tail_start = params.end_byte if params is not None else f.name_node.end_byte
    body = f.body
    tail = orig[tail_start : body.start_byte if body is not None else node.end_byte].decode("utf-8", errors="replace")
    words = set(_WORD_RE.findall(head))
    macro_words = words & device_macros
    macro_bodies = " ".join(_macro_body(pf, w) for w in macro_words)
    marks = f"{head} {tail} {macro_bodies}"
    extern_c = bool(_EXTERN_C_RE.search(head))
    # extern "C" void f() {} and extern "C" { void f() {} } (node.parent is slow: look two levels up at most)
    parent = anc = node.parent
    if anc is not None and anc.type == "declaration_list":
        anc = anc.parent
    if not extern_c and anc is not None and anc.type == "linkage_specification":
        val = anc.child_by_field_id(syntax.F_VALUE)
        extern_c = val is not None and pf.node_text(val).strip('"') == "C"
    is_global = bool(_GLOBAL_RE.search(head)) or bool(_GLOBAL_RE.search(macro_bodies))
    is_aicore = bool(_AICORE_RE.search(marks))
    return Function(
        fn=f, qualifiers=head, has_device_mark=bool(_DEVICE_MARK_RE.search(marks)) or bool(macro_words),
        is_aicore=is_aicore, is_global=is_global, extern_c=extern_c,
        is_template=parent is not None and parent.type == "template_declaration",
        is_constexpr="constexpr" in words or "consteval" in words, start_byte=start,
        class_name=f.class_name.rsplit("::", 1)[-1] if f.class_name else None,
    )


def _macro_body(pf: ParsedFile, name: str) -> str:
    """The user's text of an object-like macro's body (device keywords not blanked)."""
    m = syntax.macros(pf).get(name)
    name_node = m.node.child_by_field_id(syntax.F_NAME) if m is not None and m.node is not None else None
    if m is None or m.node is None or name_node is None:
        return ""
    raw = _original_bytes(pf)[name_node.end_byte : m.node.end_byte]
    return raw.decode("utf-8", errors="replace").strip()


# ------------------------------------------------------------------------------------------------- bodies

def is_conditional(node: Node, stop: Node) -> bool:
    """Whether the call `node` may not run every time its function body `stop` runs: true unless it is a statement
    of the body itself (a call nested in a branch, a loop, a block or an expression counts as conditional; asking
    tree-sitter for parents is slow, so it looks two levels up only)."""
    statement = node.parent
    return not (statement is not None and statement.type == "expression_statement" and statement.parent == stop)


def receiver_base(pf: ParsedFile, node: Node | None) -> str | None:
    """The object's name in ``q``, ``this->q``, ``q[i]``, ``(q)``; None for anything else."""
    while node is not None:
        if node.type in ("identifier", "field_identifier"):
            return pf.node_text(node)
        if node.type == "field_expression":
            arg = node.child_by_field_id(syntax.F_ARGUMENT)
            if arg is not None and arg.type == "this":
                node = node.child_by_field_id(syntax.F_FIELD)
                continue
            return None
        if node.type == "subscript_expression":
            node = node.child_by_field_id(syntax.F_ARGUMENT)
            continue
        if node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
            continue
        return None
    return None


def _tensor_target(pf: ParsedFile, call: Node) -> tuple[str | None, Node | None, bool]:
    """Where a call's result goes: (variable name, its node, stored elsewhere)."""
    p = call.parent
    while p is not None and p.type in ("parenthesized_expression", "cast_expression"):
        p = p.parent
    if p is None:
        return None, None, True
    if p.type == "init_declarator":
        d = p.child_by_field_id(syntax.F_DECLARATOR)
        if d is not None and d.type == "identifier":
            return pf.node_text(d), d, False
    if p.type == "assignment_expression":
        left = p.child_by_field_id(syntax.F_LEFT)
        if left is not None and left.type == "identifier":
            return pf.node_text(left), left, False
        return None, None, True
    if p.type == "expression_statement":
        return None, None, False  # the result is dropped
    return None, None, True


def _scan_calls(model: KernelModel, fn: Function) -> None:
    pf = model.pf
    assert fn.body is not None
    for c in model.calls_in(fn):
        if c.receiver is None or (c.short != "InitBuffer" and c.short not in QUEUE_OPS):
            continue
        if c.short == "InitBuffer" and len(c.args) in (2, 3):
            target = receiver_base(pf, c.args[0])
            buf = model.buffer_for(fn, target) if target else None
            model.init_buffers.append(InitBuffer(
                call=c, function=fn, pipe=" ".join(pf.node_text(c.receiver).split()),
                target=target or pf.node_text(c.args[0]), buffer=buf,
                conditional=is_conditional(c.node, fn.body) or model.in_preprocessor_branch(c.node), model=model))
        elif c.short in QUEUE_OPS:
            qname = receiver_base(pf, c.receiver)
            if qname is None:
                continue
            buf = model.buffer_for(fn, qname)
            tensor: str | None = None
            tnode: Node | None = None
            escaped = False
            if c.short in ("AllocTensor", "DeQue"):
                tensor, tnode, escaped = _tensor_target(pf, c.node)
            elif c.args:
                if c.args[0].type == "identifier":
                    tensor, tnode = pf.node_text(c.args[0]), c.args[0]
                else:
                    escaped = True
            model.queue_ops.append(QueueOp(c.short, c, fn, qname, buf, tensor, tnode, escaped))


def identifier_uses(pf: ParsedFile, root: Node, name: str) -> list[Node]:
    """The identifier nodes spelled `name` under `root`."""
    raw = name.encode()
    return [n for n in walk(root) if n.type == "identifier" and pf.data[n.start_byte : n.end_byte] == raw]


def tensor_info(model: KernelModel, expr: Node, binding: Binding | None = None) -> tuple[str, str] | None:
    """(``LocalTensor`` or ``GlobalTensor``, element type text) of a tensor expression (``x``, ``xGm[off]``,
    ``this->x``) from its declaration, when the file says; else None. A template parameter as element type is
    replaced by its type in `binding`."""
    info = _tensor_info(model, expr)
    if info is None or binding is None:
        return info
    return info[0], binding.type_map.get(info[1], info[1])


def _tensor_info(model: KernelModel, expr: Node) -> tuple[str, str] | None:
    pf = model.pf
    name = receiver_base(pf, expr)
    if name is None:
        return None
    d = syntax.lookup(pf, name, expr)
    if d is None:
        return None
    kind = d.type_name.rsplit("::", 1)[-1]
    if kind in TENSOR_CLASSES:
        return (kind, d.template_args[0]) if d.template_args else None
    if kind == "auto" and d.init is not None and d.init.type == "call_expression":
        fnode = d.init.child_by_field_id(syntax.F_FUNCTION)
        if fnode is None:
            return None
        short = _last_name(pf, fnode)
        if short in ("AllocTensor", "DeQue", "Get", "GetWithOffset"):
            targs = next((n for n in walk(fnode) if n.type == "template_argument_list"), None)
            if targs is not None and targs.named_children:
                return "LocalTensor", " ".join(pf.node_text(targs.named_children[0]).split())
    return None


def _last_name(pf: ParsedFile, fnode: Node) -> str:
    text = syntax.strip_templates(pf.node_text(fnode))
    return re.split(r"\.|->|::", text.replace(" ", ""))[-1]


def type_size(pf: ParsedFile, type_text: str | None) -> int | None:
    """sizeof of a scalar element type (``half`` 2, ``float`` 4, aliases of the file followed); None if unknown."""
    if not type_text or not _WORD_RE.match(type_text.strip()):
        return None
    return const_eval(f"sizeof({type_text})", pf)

