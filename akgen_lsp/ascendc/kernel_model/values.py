"""The values of the kernel model: the vocabulary of queue positions and operations, and the records the rules
read (`Function` with its device qualifiers, `Buffer`, `InitBuffer`, `QueueOp`, `Binding`, `KernelClass`) held by
`KernelModel`, which answers the questions the rules ask (the buffer a name means in a function, the calls of a
function, the constant value of an expression under one instantiation)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

from tree_sitter import Node

from akgen_lsp.ascendc import syntax
from akgen_lsp.ascendc.syntax import Call, ParsedFile, const_eval

if TYPE_CHECKING:
    from akgen_lsp.ascendc.catalog import Catalog


POSITIONS = frozenset(
    {
        "GM",
        "VECIN",
        "VECOUT",
        "VECCALC",
        "A1",
        "A2",
        "B1",
        "B2",
        "C1",
        "C2",
        "CO1",
        "CO2",
        "TSCM",
        "SPM",
        "SHM",
        "C2PIPE2GM",
        "C2PIPE2LOCAL",
    }
)
UB_POSITIONS = frozenset({"VECIN", "VECOUT", "VECCALC"})
POSITION_MEMORY = {
    "VECIN": "ub",
    "VECOUT": "ub",
    "VECCALC": "ub",
    "A1": "l1",
    "B1": "l1",
    "C1": "l1",
    "A2": "l0a",
    "B2": "l0b",
    "CO1": "l0c",
    "C2": "bt",
}
QUEUE_OPS = frozenset({"AllocTensor", "EnQue", "DeQue", "FreeTensor"})
TENSOR_CLASSES = ("LocalTensor", "GlobalTensor")


_WORD_RE = re.compile(r"[A-Za-z_]\w*")
_MEMBER_RE = re.compile(r"[A-Za-z_)\]]\s*\.\s*[A-Za-z_]")
_BUFFER_TYPES = frozenset({"TQue", "TQueBind", "TBuf"})


@dataclass
class Function:
    """A function definition (`syntax.Function`) with its device qualifiers."""

    fn: syntax.Function
    qualifiers: str  # the user's text of the declaration before its declarator (keywords included)
    has_device_mark: bool  # any device qualifier (__aicore__, __global__, __device__, ...)
    is_aicore: bool  # __aicore__, __vector__, __cube__, __mix__(...), [aicore]
    is_global: bool  # __global__: a kernel entry
    extern_c: bool
    is_template: bool
    is_constexpr: bool
    start_byte: int  # where the declaration starts in the user's text (its first qualifier)
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
        suffix = (
            "*"
            if d is not None and d.type == "pointer_declarator"
            else ("&" if d is not None and d.type == "reference_declarator" else "")
        )
        return self.fn.return_type + suffix


@dataclass
class Buffer:
    """A ``TQue``/``TQueBind``/``TBuf`` object: a class member or a function local."""

    name: str
    kind: str  # TQue | TQueBind | TBuf
    src: str | None  # position (VECIN, ...); None when it is not a literal position
    dst: str | None
    depth_text: str | None  # the depth argument as written
    owner: str  # class name, or "fn:<start byte>" for a function local
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
    pipe: str  # receiver text (``pipe``, ``this->pipe``, ``GetTPipePtr()``)
    target: str  # the buffer argument's name
    buffer: Buffer | None
    conditional: bool  # inside an if/switch/loop/?: of its function, or an #if branch
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
    queue: str  # receiver name
    buffer: Buffer | None
    tensor: str | None  # the tensor variable produced (Alloc/DeQue) or consumed (EnQue/Free)
    tensor_node: Node | None
    stored_elsewhere: bool  # the result goes into a member or an expression (it escapes)

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
            index = {
                (c.node.start_byte, c.node.end_byte): c for cs in self.calls_by_function.values() for c in cs
            }
            self._call_index = index
        return index.get((node.start_byte, node.end_byte))

    def eval(
        self, node: Node | None, fn: Function | None = None, binding: Binding | None = None
    ) -> int | None:
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
        if (
            fn is not None
            and fn.fn.template_params
            and (set(_WORD_RE.findall(text)) & set(fn.fn.template_params)) - set(types) - set(values)
        ):
            return None
        return const_eval(node, self.pf, env=values or None, types=types or None)


def _fn_owner(fn: Function) -> str:
    return f"fn:{fn.node.start_byte}"
