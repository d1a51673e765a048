"""The model of one kernel file, built once on the syntax layer and shared by the kernel-structure rules.

What it knows:

- every function definition: its name, its class, whether it is device code (``__aicore__``, ``__global__``,
  ``__vector__``, ``__cube__``, ``__mix__(...)``, ``[aicore]``, ``__device__``, or a macro that stands for one of
  them), whether it is a kernel entry (``__global__``), its linkage (``extern "C"``) and return type;
- classes with their pipes (``TPipe``), queues (``TQue``/``TQueBind``/``TBuf`` with positions and depth) and
  tensors (``LocalTensor<T>``/``GlobalTensor<T>``), and queues/pipes declared inside functions;
- every ``InitBuffer`` call with its ``num`` and ``len`` evaluated where they are constant;
- the queue operations (``AllocTensor``, ``EnQue``, ``DeQue``, ``FreeTensor``) per function, with the tensor they
  produce or consume;
- the file's integer constants (``constexpr``/``const`` with constant initialisers, ``#define``), used to evaluate
  sizes and counts.

Device keywords are blanked in the tree (see `akgen_lsp.ascendc.syntax`), so the qualifiers of a function are read
from the user's text around the node. `build_model(pf)` builds it; `kernel_model(ctx)` builds it once per file and
keeps it in ``ctx.memo``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from tree_sitter import Node

from akgen_lsp.ascendc.syntax import DEVICE_KEYWORDS, ParsedFile, parse, walk

if TYPE_CHECKING:
    from akgen_lsp.ascendc.context import LintContext

# ------------------------------------------------------------------------------------------------- vocabulary

POSITIONS = ("GM", "VECIN", "VECOUT", "VECCALC", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "TSCM", "SPM",
             "SHM", "C2PIPE2GM", "C2PIPE2LOCAL")
UB_POSITIONS = frozenset({"VECIN", "VECOUT", "VECCALC"})
POSITION_MEMORY = {"VECIN": "ub", "VECOUT": "ub", "VECCALC": "ub", "A1": "l1", "B1": "l1", "C1": "l1",
                   "A2": "l0a", "B2": "l0b", "CO1": "l0c", "C2": "bt"}
QUEUE_OPS = frozenset({"AllocTensor", "EnQue", "DeQue", "FreeTensor"})

SCALAR_SIZES = {
    "half": 2, "float16_t": 2, "bfloat16_t": 2, "int16_t": 2, "uint16_t": 2, "short": 2,
    "float": 4, "float32_t": 4, "int32_t": 4, "uint32_t": 4, "int": 4, "unsigned": 4,
    "int8_t": 1, "uint8_t": 1, "char": 1, "bool": 1, "hifloat8_t": 1, "fp8_e4m3fn_t": 1, "fp8_e5m2_t": 1,
    "int64_t": 8, "uint64_t": 8, "double": 8, "size_t": 8, "long": 8,
}

# qualifiers that make a function device code (the masked keywords, read from the user's text)
_DEVICE_MARK_RE = re.compile(
    r"\b(?:__aicore__|__global__|__vector__|__cube__|__device__|__simt_vf__|__simd_vf__|__attribute_aicore__|"
    r"__simd_callee__|__simt_callee__|__mix__|CATLASS_DEVICE|CATLASS_HOST_DEVICE|CATLASS_GLOBAL)\b"
    r"|\[\s*aicore\s*\]|\[\s*\[\s*(?:aicore|vector|cube)\s*\]\s*\]"
)
_AICORE_RE = re.compile(r"\b(?:__aicore__|__vector__|__cube__|__mix__|__attribute_aicore__)\b|\[\s*aicore\s*\]"
                        r"|\[\s*\[\s*(?:aicore|vector|cube)\s*\]\s*\]")
_GLOBAL_RE = re.compile(r"\b(?:__global__|CATLASS_GLOBAL)\b")
_EXTERN_C_RE = re.compile(r'\bextern\s*"C"')
_DEFINE_RE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]*((?:[^\n\\]|\\\n|\\.)*)$", re.M)
_DIRECTIVE_RE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b([^\n]*)", re.M)
_CPU_MACROS = (b"ASCENDC_CPU_DEBUG", b"__CCE_KT_TEST__")


# ------------------------------------------------------------------------------------------------- values


@dataclass
class Function:
    """One function definition (free function, method defined in or out of its class, or kernel entry)."""

    node: Node
    name: str
    name_node: Node
    class_name: str | None
    qualifiers: str            # the user's text of the declaration before the name (device keywords included)
    body: Node | None
    return_type: str
    is_template: bool
    is_constexpr: bool
    extern_c: bool
    has_device_mark: bool       # any device qualifier (__aicore__, __global__, __device__, ...)
    is_aicore: bool             # __aicore__ or __vector__/__cube__/__mix__ or [aicore]
    is_global: bool
    in_class_body: bool         # defined inside the class body (a member), not out of line
    start_byte: int             # where the declaration starts in the user's text (the first qualifier)
    params: list[Node] = field(default_factory=list)

    @property
    def is_entry(self) -> bool:
        return self.is_global


@dataclass
class Buffer:
    """A ``TQue``/``TQueBind``/``TBuf`` object (class member or function local)."""

    name: str
    kind: str                   # TQue | TQueBind | TBuf
    src: str | None             # position (VECIN, ...), None when not a literal position
    dst: str | None
    depth: int | None           # TQue/TQueBind depth when constant; None for TBuf or unknown
    depth_node: Node | None
    owner: str                  # class name, or "fn:<start byte>" for a function local
    node: Node                  # the declarator
    is_array: bool = False

    @property
    def is_queue(self) -> bool:
        return self.kind != "TBuf"

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
    """``pipe.InitBuffer(buf, num, len)`` or ``pipe.InitBuffer(tbuf, len)``."""

    node: Node                  # the call_expression
    function: Function
    pipe: str                   # receiver text (``pipe``, ``this->pipe``, ``pipe_``, ``GetTPipePtr()``)
    target: str                 # the buffer argument's base name
    buffer: Buffer | None
    num: int | None
    length: int | None
    num_node: Node | None
    len_node: Node | None
    conditional: bool           # inside an if/switch/loop/?: of its function

    @property
    def rounded_bytes(self) -> int | None:
        """num x len, len rounded up to 32 bytes (what TPipe really reserves); None when not constant."""
        if self.num is None or self.length is None:
            return None
        return self.num * ((self.length + 31) // 32 * 32)


@dataclass
class QueueOp:
    """One queue operation call: ``q.AllocTensor<T>()``, ``q.EnQue(t)``, ``q.DeQue<T>()``, ``q.FreeTensor(t)``."""

    op: str
    node: Node                  # the call_expression
    name_node: Node             # the method name
    function: Function
    queue: str                  # receiver base name
    buffer: Buffer | None
    nargs: int
    tensor: str | None          # the tensor variable produced (Alloc/DeQue) or consumed (EnQue/Free)
    tensor_node: Node | None
    stored_elsewhere: bool      # the result goes into a member, a parameter or an expression (escapes)


@dataclass
class KernelClass:
    name: str
    node: Node
    bases: list[str]
    methods: list[Function] = field(default_factory=list)
    buffers: dict[str, Buffer] = field(default_factory=dict)
    pipes: list[str] = field(default_factory=list)
    tensors: dict[str, str] = field(default_factory=dict)    # member name -> element type text
    fields: dict[str, str] = field(default_factory=dict)     # member name -> type text

    @property
    def is_kernel_class(self) -> bool:
        return any(m.has_device_mark for m in self.methods) or bool(self.buffers) or bool(self.pipes)


@dataclass
class KernelModel:
    pf: ParsedFile
    functions: list[Function]
    classes: dict[str, KernelClass]
    buffers: list[Buffer]
    init_buffers: list[InitBuffer]
    queue_ops: list[QueueOp]
    constants: dict[str, int]
    device_macros: frozenset[str]
    cpu_only: list[tuple[int, int]]            # byte ranges compiled only in CPU debug builds
    function_names: dict[str, list[Function]]  # simple name -> definitions

    @property
    def entries(self) -> list[Function]:
        return [f for f in self.functions if f.is_global]

    def is_device(self, fn: Function) -> bool:
        """Device code: a function with a device qualifier, or a method of a kernel class."""
        if fn.has_device_mark:
            return True
        cls = self.classes.get(fn.class_name or "")
        return cls is not None and cls.is_kernel_class and any(m.has_device_mark for m in cls.methods)

    def in_cpu_only(self, node: Node) -> bool:
        return any(a <= node.start_byte < b for a, b in self.cpu_only)

    def function_at(self, node: Node) -> Function | None:
        for fn in self.functions:
            if fn.node.start_byte <= node.start_byte < fn.node.end_byte:
                inner = fn
                # the innermost (a local class's method inside a function)
                for other in self.functions:
                    if other is not fn and fn.node.start_byte <= other.node.start_byte and \
                            other.node.start_byte <= node.start_byte < other.node.end_byte:
                        inner = other
                return inner
        return None

    def buffer_for(self, fn: Function, name: str) -> Buffer | None:
        """The queue/buffer object named `name` as seen from `fn` (a local, a member, a base class's member)."""
        local = [b for b in self.buffers if b.owner == _fn_owner(fn) and b.name == name]
        if local:
            return local[0]
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

    def eval(self, node: Node | None, fn: Function | None = None) -> int | None:
        """The integer value of an expression when it is a compile-time constant of this file, else None."""
        if node is None:
            return None
        env = dict(self.constants)
        if fn is not None:
            env.update(_local_constants(self.pf, fn, self.constants))
        return const_eval(node, self.pf, env=env)


# ------------------------------------------------------------------------------------------------- building


def kernel_model(ctx: LintContext) -> KernelModel:
    """The model of `ctx`'s file, built once and kept in ``ctx.memo``."""
    model = ctx.memo.get("kernel_model")
    if model is None:
        model = build_model(ctx.parsed)
        ctx.memo["kernel_model"] = model
    return model


def build_model(pf: ParsedFile) -> KernelModel:
    orig = pf.text.encode("utf-8", errors="surrogatepass")
    nodes = walk(pf.root)
    device_macros = _device_macros(orig)
    constants = _file_constants(pf, orig, nodes)
    classes: dict[str, KernelClass] = {}
    functions: list[Function] = []
    buffers: list[Buffer] = []

    for n in nodes:
        if n.type in ("class_specifier", "struct_specifier"):
            cls = _class(pf, n, constants)
            if cls is not None and cls.name not in classes:
                classes[cls.name] = cls
        elif n.type == "function_definition":
            fn = _function(pf, orig, n, device_macros)
            if fn is not None:
                functions.append(fn)

    for cls in classes.values():
        buffers.extend(cls.buffers.values())
    for fn in functions:
        if fn.class_name and fn.class_name in classes and fn not in classes[fn.class_name].methods:
            classes[fn.class_name].methods.append(fn)
    by_name: dict[str, list[Function]] = {}
    for fn in functions:
        by_name.setdefault(fn.name, []).append(fn)

    model = KernelModel(pf, functions, classes, buffers, [], [], constants, device_macros,
                        _cpu_only_regions(orig), by_name)
    for fn in functions:
        if fn.body is not None:
            buffers.extend(_local_buffers(model, fn))
    for fn in functions:
        if fn.body is not None:
            _scan_calls(model, fn)
    return model


def _fn_owner(fn: Function) -> str:
    return f"fn:{fn.node.start_byte}"


def _text(pf: ParsedFile, node: Node | None) -> str:
    return pf.node_text(node) if node is not None else ""


def _device_macros(orig: bytes) -> frozenset[str]:
    names = set()
    for m in _DEFINE_RE.finditer(orig):
        body = m.group(2).decode("utf-8", errors="replace")
        if _DEVICE_MARK_RE.search(body):
            names.add(m.group(1).decode())
    return frozenset(names)


def _cpu_only_regions(orig: bytes) -> list[tuple[int, int]]:
    """Byte ranges compiled only for CPU debug (``#ifdef ASCENDC_CPU_DEBUG``, the ``#else`` of an ``#ifndef``)."""
    out: list[tuple[int, int]] = []
    stack: list[tuple[bool | None, int]] = []  # (this branch is CPU-only?, branch start); None: unrelated
    for m in _DIRECTIVE_RE.finditer(orig):
        kind, cond = m.group(1), m.group(2)
        mentions = any(c in cond for c in _CPU_MACROS)
        if kind in (b"if", b"ifdef", b"ifndef"):
            cpu: bool | None = None
            if mentions:
                positive = kind == b"ifdef" or (kind == b"if" and b"!" not in cond)
                cpu = positive
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


def _strip_ns(name: str) -> str:
    name = re.sub(r"\s+", "", name)
    name = re.sub(r"<.*", "", name)
    return name.split("::")[-1]


def _split_template_args(text: str) -> tuple[str, list[str]]:
    """``AscendC::TQue<TPosition::VECIN, 2>`` -> (``TQue``, [``TPosition::VECIN``, ``2``])."""
    text = re.sub(r"\s+", " ", text).strip()
    lt = text.find("<")
    if lt < 0:
        return _strip_ns(text), []
    base = _strip_ns(text[:lt])
    inner = text[lt + 1 : text.rfind(">")] if ">" in text else text[lt + 1 :]
    args, depth, cur = [], 0, ""
    for ch in inner:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        args.append(cur.strip())
    return base, args


def _position(arg: str | None) -> str | None:
    if arg is None:
        return None
    last = arg.split("::")[-1].strip()
    return last if last in POSITIONS else None


def _buffer_from_type(type_text: str, aliases: dict[str, str]) -> tuple[str, str | None, str | None, str | None] | None:
    """(kind, src, dst, depth text) for a TQue/TQueBind/TBuf type, else None."""
    base, args = _split_template_args(type_text)
    if base in aliases:
        base, args = _split_template_args(aliases[base])
    if base == "TQue":
        pos = _position(args[0]) if args else None
        return ("TQue", pos, pos, args[1] if len(args) > 1 else None)
    if base == "TQueBind":
        return ("TQueBind", _position(args[0]) if args else None, _position(args[1]) if len(args) > 1 else None,
                args[2] if len(args) > 2 else None)
    if base == "TBuf":
        pos = _position(args[0]) if args else "VECCALC"
        return ("TBuf", pos, pos, None)
    return None


def _eval_text(text: str | None, constants: dict[str, int]) -> int | None:
    if text is None:
        return None
    text = text.strip()
    if re.fullmatch(r"\d+[uUlL]*", text):
        return int(re.sub(r"[uUlL]", "", text))
    return constants.get(text)


def _declarators(decl: Node) -> Iterator[tuple[Node, Node, bool]]:
    """(name node, declarator node, is array) for each declarator of a declaration/field_declaration."""
    for d in decl.children_by_field_name("declarator"):
        node, is_array = d, False
        while node is not None and node.type not in ("identifier", "field_identifier"):
            if node.type == "array_declarator":
                is_array = True
            nxt = node.child_by_field_name("declarator")
            if nxt is None:
                break
            node = nxt
        if node is not None and node.type in ("identifier", "field_identifier"):
            yield node, d, is_array


def _type_aliases(pf: ParsedFile, root: Node) -> dict[str, str]:
    out: dict[str, str] = {}
    for n in walk(root):
        if n.type == "alias_declaration":
            name = n.child_by_field_name("name")
            typ = n.child_by_field_name("type")
            if name is not None and typ is not None:
                out[_text(pf, name)] = _text(pf, typ)
        elif n.type == "type_definition":
            typ = n.child_by_field_name("type")
            for d in n.children_by_field_name("declarator"):
                if typ is not None and d.type == "type_identifier":
                    out[_text(pf, d)] = _text(pf, typ)
    return out


_aliases_cache: dict[int, dict[str, str]] = {}


def _aliases(pf: ParsedFile) -> dict[str, str]:
    key = id(pf)
    found = _aliases_cache.get(key)
    if found is None:
        _aliases_cache.clear()
        found = _type_aliases(pf, pf.root)
        _aliases_cache[key] = found
    return found


def _element_type(type_text: str) -> str | None:
    base, args = _split_template_args(type_text)
    if base in ("LocalTensor", "GlobalTensor") and args:
        return re.sub(r"\s+", " ", args[0]).strip()
    return None


def _class(pf: ParsedFile, node: Node, constants: dict[str, int]) -> KernelClass | None:
    name_node = node.child_by_field_name("name")
    body = node.child_by_field_name("body")
    if name_node is None or body is None:
        return None
    name = _strip_ns(_text(pf, name_node))
    bases: list[str] = []
    for ch in node.children:
        if ch.type == "base_class_clause":
            for b in ch.named_children:
                if b.type in ("type_identifier", "qualified_identifier", "template_type"):
                    bases.append(_strip_ns(_text(pf, b)))
    cls = KernelClass(name, node, bases)
    aliases = _aliases(pf)
    for ch in body.named_children:
        if ch.type != "field_declaration":
            continue
        typ = ch.child_by_field_name("type")
        if typ is None:
            continue
        type_text = _text(pf, typ)
        info = _buffer_from_type(type_text, aliases)
        for name_n, decl_n, is_array in _declarators(ch):
            member = _text(pf, name_n)
            cls.fields[member] = type_text
            if info is not None:
                kind, src, dst, depth_text = info
                depth_node = _template_arg_node(typ, 2 if kind == "TQueBind" else 1)
                depth = _eval_text(depth_text, constants)
                cls.buffers[member] = Buffer(member, kind, src, dst, depth, depth_node, name, decl_n, is_array)
            elif _strip_ns(type_text) == "TPipe" or type_text.replace(" ", "").endswith("TPipe"):
                cls.pipes.append(member)
            else:
                et = _element_type(type_text)
                if et is not None:
                    cls.tensors[member] = et
    return cls


def _template_arg_node(typ: Node, index: int) -> Node | None:
    args = next((c for c in walk(typ) if c.type == "template_argument_list"), None)
    if args is None:
        return None
    named = args.named_children
    return named[index] if index < len(named) else None


def _function_declarator(node: Node) -> Node | None:
    d = node.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator")
    return d


def _function(pf: ParsedFile, orig: bytes, node: Node, device_macros: frozenset[str]) -> Function | None:
    fdecl = _function_declarator(node)
    if fdecl is None:
        return None
    name_node = fdecl.child_by_field_name("declarator")
    if name_node is None:
        return None
    raw_name = _text(pf, name_node)
    class_name: str | None = None
    if name_node.type == "qualified_identifier":
        parts = re.sub(r"<[^<>]*(?:<[^<>]*>[^<>]*)*>", "", raw_name).replace(" ", "").split("::")
        name = parts[-1]
        class_name = parts[-2] if len(parts) >= 2 else None
        inner = name_node
        while inner.type == "qualified_identifier" and inner.child_by_field_name("name") is not None:
            inner = inner.child_by_field_name("name")  # type: ignore[assignment]
        name_node = inner
    else:
        name = re.sub(r"<.*", "", raw_name).strip()
    in_class = False
    parent = node.parent
    if parent is not None and parent.type == "template_declaration":
        parent = parent.parent
    if parent is not None and parent.type == "field_declaration_list":
        cls_node = parent.parent
        if cls_node is not None and cls_node.type in ("class_specifier", "struct_specifier"):
            cn = cls_node.child_by_field_name("name")
            if cn is not None:
                class_name = _strip_ns(_text(pf, cn))
                in_class = True
    # the qualifiers: masked keywords just before the node, and the text from the node to the name
    start = node.start_byte
    data = pf.data
    while start > 0 and data[start - 1 : start] in (b" ", b"\t", b"\n", b"\r"):
        start -= 1
    lead = orig[start : node.start_byte].decode("utf-8", errors="replace")
    # of the blanked text before the node, only a run of device qualifiers right before it belongs to it
    m = _lead_re(device_macros).search(lead)
    start = node.start_byte - len(lead[m.start() :].encode()) if m and m.group(0).strip() else node.start_byte
    head = orig[start : fdecl.start_byte].decode("utf-8", errors="replace")
    head_marks = head + " " + orig[name_node.end_byte : fdecl.end_byte].decode("utf-8", errors="replace")
    words = set(re.findall(r"[A-Za-z_]\w*", head))
    macro_mark = bool(words & device_macros)
    is_global = bool(_GLOBAL_RE.search(head)) or any(
        m in device_macros and _macro_has(orig, m, _GLOBAL_RE) for m in words)
    is_aicore = bool(_AICORE_RE.search(head_marks)) or any(
        m in device_macros and _macro_has(orig, m, _AICORE_RE) for m in words)
    has_mark = bool(_DEVICE_MARK_RE.search(head_marks)) or macro_mark
    typ = node.child_by_field_name("type")
    ret = _text(pf, typ)
    d = node.child_by_field_name("declarator")
    if d is not None and d.type in ("pointer_declarator", "reference_declarator"):
        ret += "*" if d.type == "pointer_declarator" else "&"
    extern_c = bool(_EXTERN_C_RE.search(head))
    anc = node.parent
    while anc is not None and not extern_c:
        if anc.type == "linkage_specification":
            val = anc.child_by_field_name("value")
            extern_c = val is not None and _text(pf, val).strip('"') == "C"
        anc = anc.parent
    is_template = node.parent is not None and node.parent.type == "template_declaration"
    params_node = fdecl.child_by_field_name("parameters")
    params = [p for p in params_node.named_children] if params_node is not None else []
    return Function(
        node=node, name=name, name_node=name_node, class_name=class_name, qualifiers=head,
        body=node.child_by_field_name("body"), return_type=ret.strip(), is_template=is_template,
        is_constexpr="constexpr" in words, extern_c=extern_c, has_device_mark=has_mark or is_global or is_aicore,
        is_aicore=is_aicore, is_global=is_global, in_class_body=in_class, start_byte=start, params=params,
    )


@lru_cache(maxsize=64)
def _lead_re(device_macros: frozenset[str]) -> re.Pattern[str]:
    words = sorted(set(DEVICE_KEYWORDS) | set(device_macros) | {"CATLASS_DEVICE", "CATLASS_HOST_DEVICE",
                                                                  "CATLASS_GLOBAL", "CATLASS_HOST"})
    token = (r"(?:\b(?:" + "|".join(re.escape(w) for w in words) + r")\b"
             r"|\b(?:__mix__|__launch_bounds__)\s*\([^()]*\)|\[\s*aicore\s*\]"
             r"|\[\s*\[\s*(?:aicore|vector|cube)\s*\]\s*\])")
    return re.compile(rf"(?:{token}\s*)+$")


def _macro_has(orig: bytes, name: str, pattern: re.Pattern[str]) -> bool:
    for m in _DEFINE_RE.finditer(orig):
        if m.group(1).decode() == name:
            return bool(pattern.search(m.group(2).decode("utf-8", errors="replace")))
    return False


# ------------------------------------------------------------------------------------------------- constants


def _file_constants(pf: ParsedFile, orig: bytes, nodes: list[Node]) -> dict[str, int]:
    """Names with one constant value in the file: ``#define N 8``, namespace/class ``constexpr``/``const``."""
    values: dict[str, set[int | None]] = {}
    pending: list[tuple[str, Node]] = []
    for m in _DEFINE_RE.finditer(orig):
        name = m.group(1).decode()
        body = m.group(2).decode("utf-8", errors="replace")
        body = re.sub(r"//.*|/\*.*?\*/", "", body).strip()
        values.setdefault(name, set()).add(_literal_int(body))
        if _literal_int(body) is None and body:
            values[name].discard(None)
            pending.append((name, _expr_text_node(body)))  # type: ignore[arg-type]
    for n in nodes:
        if n.type in ("declaration", "field_declaration") and _is_const_decl(pf, n) and not _inside_function(n):
            for name, value in _init_values(n):
                values.setdefault(_text(pf, name), set())
                pending.append((_text(pf, name), value))
    out: dict[str, int] = {k: next(iter(v)) for k, v in values.items() if len(v) == 1 and None not in v}
    # resolve expressions in a few rounds (constants defined from other constants)
    for _ in range(3):
        progressed = False
        for name, value in pending:
            if value is None:
                continue
            v = const_eval(value, pf, env=out) if isinstance(value, Node) else _eval_expr_text(value, out)
            if v is None:
                continue
            vals = values.setdefault(name, set())
            if v not in vals:
                vals.add(v)
                progressed = True
        out = {k: next(iter(v)) for k, v in values.items() if len(v) == 1 and None not in v}
        if not progressed:
            break
    return out


def _literal_int(text: str) -> int | None:
    text = text.strip().strip("()").strip()
    m = re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)[uUlL]*", text)
    if not m:
        return None
    return int(m.group(1), 0)


def _expr_text_node(text: str) -> str:
    return text


_ARITH_RE = re.compile(r"[\w\s()+\-*/%<>&|^~?:.]+")


def _eval_expr_text(text: str, env: dict[str, int]) -> int | None:
    """Evaluate a ``#define`` body: parse it as an expression and use `const_eval`."""
    if not text or len(text) > 200 or not _ARITH_RE.fullmatch(text):
        return None
    pf = _parse_expr(text)
    decl = pf.root.named_children[0] if pf.root.named_children else None
    if decl is None:
        return None
    init = next((c for c in walk(decl) if c.type == "init_declarator"), None)
    value = init.child_by_field_name("value") if init is not None else None
    return const_eval(value, pf, env=env) if value is not None else None


@lru_cache(maxsize=512)
def _parse_expr(text: str) -> ParsedFile:
    return parse(f"auto __v = {text};")


def _is_const_decl(pf: ParsedFile, decl: Node) -> bool:
    for ch in decl.children:
        if ch.type == "type_qualifier" and _text(pf, ch) in ("const", "constexpr"):
            return True
        if ch.type in ("storage_class_specifier",) and _text(pf, ch) == "constexpr":
            return True
    return False


def _inside_function(node: Node) -> bool:
    p = node.parent
    while p is not None:
        if p.type in ("function_definition", "lambda_expression"):
            return True
        p = p.parent
    return False


def _init_values(decl: Node) -> Iterator[tuple[Node, Node]]:
    for d in decl.children_by_field_name("declarator"):
        if d.type == "init_declarator":
            name = d.child_by_field_name("declarator")
            value = d.child_by_field_name("value")
            if name is not None and value is not None and name.type in ("identifier", "field_identifier"):
                if value.type == "initializer_list" and value.named_child_count == 1:
                    value = value.named_children[0]
                yield name, value
    # `static constexpr int N = 8;` in a class: field_declaration with default_value
    dv = decl.child_by_field_name("default_value")
    if dv is not None:
        for d in decl.children_by_field_name("declarator"):
            if d.type == "field_identifier":
                yield d, dv


def _local_constants(pf: ParsedFile, fn: Function, outer: dict[str, int]) -> dict[str, int]:
    if fn.body is None:
        return {}
    values: dict[str, set[int | None]] = {}
    env = dict(outer)
    for n in walk(fn.body):
        if n.type == "declaration" and _is_const_decl(pf, n):
            for name, value in _init_values(n):
                values.setdefault(_text(pf, name), set()).add(const_eval(value, pf, env=env))
    return {k: next(iter(v)) for k, v in values.items() if len(v) == 1 and None not in v}  # type: ignore[misc]


# ------------------------------------------------------------------------------------------------- bodies


def _local_buffers(model: KernelModel, fn: Function) -> list[Buffer]:
    out = []
    aliases = _aliases(model.pf)
    assert fn.body is not None
    for n in walk(fn.body):
        if n.type != "declaration":
            continue
        typ = n.child_by_field_name("type")
        if typ is None:
            continue
        info = _buffer_from_type(_text(model.pf, typ), aliases)
        if info is None:
            continue
        kind, src, dst, depth_text = info
        for name_n, decl_n, is_array in _declarators(n):
            if decl_n.type == "reference_declarator" or "&" in _text(model.pf, decl_n)[:2]:
                continue  # a reference to a queue declared elsewhere
            out.append(Buffer(_text(model.pf, name_n), kind, src, dst, _eval_text(depth_text, model.constants),
                              _template_arg_node(typ, 2 if kind == "TQueBind" else 1), _fn_owner(fn), decl_n,
                              is_array))
    return out


_CONDITIONAL = frozenset({"if_statement", "switch_statement", "for_statement", "for_range_loop", "while_statement",
                          "do_statement", "conditional_expression", "case_statement", "lambda_expression"})


def is_conditional(node: Node, stop: Node) -> bool:
    """Whether `node` sits inside a branch or loop below `stop` (its function body)."""
    p = node.parent
    while p is not None and p != stop:
        if p.type in _CONDITIONAL:
            return True
        p = p.parent
    return False


def receiver_base(pf: ParsedFile, node: Node | None) -> str | None:
    """The object's name in ``q``, ``this->q``, ``q[i]``, ``this->q[1]``; None for anything else."""
    while node is not None:
        if node.type in ("identifier", "field_identifier"):
            return pf.node_text(node)
        if node.type == "field_expression":
            arg = node.child_by_field_name("argument")
            if arg is not None and arg.type == "this":
                node = node.child_by_field_name("field")
                continue
            return None
        if node.type == "subscript_expression":
            node = node.child_by_field_name("argument")
            continue
        if node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
            continue
        return None
    return None


def call_parts(pf: ParsedFile, call: Node) -> tuple[str, Node | None, Node | None, list[Node]]:
    """(method or function name, name node, receiver node or None, argument nodes) of a call_expression."""
    fn = call.child_by_field_name("function")
    args_node = call.child_by_field_name("arguments")
    args = [a for a in args_node.named_children if a.type != "comment"] if args_node is not None else []
    receiver = None
    if fn is not None and fn.type == "field_expression":
        receiver = fn.child_by_field_name("argument")
        fn = fn.child_by_field_name("field")
    while fn is not None and fn.type in ("dependent_name", "qualified_identifier", "template_function",
                                         "template_method"):
        if fn.type == "dependent_name":
            fn = fn.named_children[0] if fn.named_children else None
        else:
            fn = fn.child_by_field_name("name")
    if fn is None:
        return "", None, receiver, args
    return pf.node_text(fn), fn, receiver, args


def _tensor_target(pf: ParsedFile, call: Node) -> tuple[str | None, Node | None, bool]:
    """The variable a call's result is stored in: (name, node, stored elsewhere)."""
    p = call.parent
    while p is not None and p.type in ("parenthesized_expression", "cast_expression"):
        p = p.parent
    if p is None:
        return None, None, True
    if p.type == "init_declarator":
        d = p.child_by_field_name("declarator")
        if d is not None and d.type == "identifier":
            return pf.node_text(d), d, False
    if p.type == "assignment_expression":
        left = p.child_by_field_name("left")
        if left is not None and left.type == "identifier":
            return pf.node_text(left), left, False
        return None, None, True
    if p.type == "expression_statement":
        return None, None, False  # result dropped
    return None, None, True


def _scan_calls(model: KernelModel, fn: Function) -> None:
    pf = model.pf
    assert fn.body is not None
    for n in walk(fn.body):
        if n.type != "call_expression":
            continue
        # calls in a nested local function are scanned with that function
        name, name_node, receiver, args = call_parts(pf, n)
        if name_node is None or receiver is None:
            continue
        if name == "InitBuffer" and args:
            target = receiver_base(pf, args[0])
            buf = model.buffer_for(fn, target) if target else None
            if len(args) >= 3:
                num_node, len_node = args[1], args[2]
            elif len(args) == 2:
                num_node, len_node = None, args[1]
            else:
                continue
            num = 1 if num_node is None else model.eval(num_node, fn)
            model.init_buffers.append(InitBuffer(
                node=n, function=fn, pipe=pf.node_text(receiver), target=target or pf.node_text(args[0]),
                buffer=buf, num=num, length=model.eval(len_node, fn), num_node=num_node, len_node=len_node,
                conditional=is_conditional(n, fn.body)))
        elif name in QUEUE_OPS:
            qname = receiver_base(pf, receiver)
            if qname is None:
                continue
            buf = model.buffer_for(fn, qname)
            tensor: str | None = None
            tnode: Node | None = None
            escaped = False
            if name in ("AllocTensor", "DeQue"):
                tensor, tnode, escaped = _tensor_target(pf, n)
            elif args:
                if args[0].type == "identifier":
                    tensor, tnode = pf.node_text(args[0]), args[0]
                else:
                    escaped = True
            model.queue_ops.append(QueueOp(name, n, name_node, fn, qname, buf, len(args), tensor, tnode, escaped))


def identifier_uses(pf: ParsedFile, root: Node, name: str) -> list[Node]:
    """The identifier nodes spelled `name` under `root`."""
    raw = name.encode()
    return [n for n in walk(root) if n.type == "identifier" and pf.data[n.start_byte : n.end_byte] == raw]


def tensor_info(model: KernelModel, fn: Function, expr: Node) -> tuple[str, str] | None:
    """(``LocalTensor`` or ``GlobalTensor``, element type) of a tensor expression (``x``, ``xGm[off]``,
    ``this->x``) when its declaration in `fn` (local or parameter) or in `fn`'s class says so, else None."""
    pf = model.pf
    name = receiver_base(pf, expr)
    if name is None:
        return None
    found: set[tuple[str, str]] = set()
    for p in fn.params:
        t = _declared_tensor(pf, p, name)
        if t:
            found.add(t)
    if fn.body is not None:
        for n in walk(fn.body):
            if n.type == "declaration":
                t = _declared_tensor(pf, n, name)
                if t:
                    found.add(t)
    if not found and fn.class_name in model.classes:
        cls = model.classes[fn.class_name]  # type: ignore[index]
        if name in cls.fields:
            base, args = _split_template_args(cls.fields[name])
            if base in ("LocalTensor", "GlobalTensor") and args:
                return base, args[0]
            return None
    return next(iter(found)) if len(found) == 1 else None


def element_type_of(model: KernelModel, fn: Function, expr: Node) -> str | None:
    info = tensor_info(model, fn, expr)
    return info[1] if info is not None else None


def _declared_tensor(pf: ParsedFile, decl: Node, name: str) -> tuple[str, str] | None:
    typ = decl.child_by_field_name("type")
    if typ is None:
        return None
    for name_n, d, _arr in _declarators(decl):
        if pf.node_text(name_n) != name:
            continue
        base, args = _split_template_args(pf.node_text(typ))
        if base in ("LocalTensor", "GlobalTensor"):
            return (base, args[0]) if args else None
        if pf.node_text(typ) == "auto" and d.type == "init_declarator":
            value = d.child_by_field_name("value")
            if value is not None and value.type == "call_expression":
                cname, cnode, _r, _a = call_parts(pf, value)
                if cname in ("AllocTensor", "DeQue", "Get", "GetWithOffset") and cnode is not None:
                    targs = cnode.parent.child_by_field_name("arguments") if cnode.parent is not None else None
                    if targs is not None and targs.type == "template_argument_list" and targs.named_children:
                        return "LocalTensor", pf.node_text(targs.named_children[0]).strip()
        return None
    return None


def type_size(type_text: str | None) -> int | None:
    if type_text is None:
        return None
    return SCALAR_SIZES.get(_strip_ns(type_text.replace("const ", "")))


# ------------------------------------------------------------------------------------------------- evaluation
# (kept here until the syntax layer's `const_eval` lands; then this section goes)

_BINOPS = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: int(a / b) if b else None, "%": lambda a, b: (abs(a) % abs(b)) * (1 if a >= 0 else -1) if b
    else None, "<<": lambda a, b: a << b if 0 <= b < 64 else None, ">>": lambda a, b: a >> b if 0 <= b < 64 else None,
    "&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
    "<": lambda a, b: int(a < b), ">": lambda a, b: int(a > b), "<=": lambda a, b: int(a <= b),
    ">=": lambda a, b: int(a >= b), "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b),
    "&&": lambda a, b: int(bool(a and b)), "||": lambda a, b: int(bool(a or b)),
}


def const_eval(node: Node | None, pf: ParsedFile, env: dict[str, int] | None = None) -> int | None:
    """The integer value of a constant expression (literals, named constants in `env`, sizeof of scalar types,
    arithmetic, casts, ``?:``), or None."""
    env = env or {}
    if node is None:
        return None
    t = node.type
    if t == "number_literal":
        return _literal_int(pf.node_text(node))
    if t in ("identifier", "field_identifier"):
        return env.get(pf.node_text(node))
    if t == "qualified_identifier":
        return env.get(pf.node_text(node).replace(" ", ""))
    if t in ("parenthesized_expression", "condition_clause") and node.named_child_count == 1:
        return const_eval(node.named_children[0], pf, env)
    if t == "true":
        return 1
    if t == "false":
        return 0
    if t == "binary_expression":
        op = node.child_by_field_name("operator")
        a = const_eval(node.child_by_field_name("left"), pf, env)
        if a is None or op is None:
            return None
        b = const_eval(node.child_by_field_name("right"), pf, env)
        f = _BINOPS.get(pf.node_text(op))
        return f(a, b) if f is not None and b is not None else None
    if t == "unary_expression":
        op = node.child_by_field_name("operator")
        v = const_eval(node.child_by_field_name("argument"), pf, env)
        if v is None or op is None:
            return None
        return {"-": -v, "+": v, "~": ~v, "!": int(not v)}.get(pf.node_text(op))
    if t == "conditional_expression":
        c = const_eval(node.child_by_field_name("condition"), pf, env)
        if c is None:
            return None
        return const_eval(node.child_by_field_name("consequence" if c else "alternative"), pf, env)
    if t == "sizeof_expression":
        typ = node.child_by_field_name("type")
        if typ is not None:
            return type_size(pf.node_text(typ))
        value = node.child_by_field_name("value")
        if value is not None:
            return type_size(pf.node_text(value).strip("() "))
        return None
    if t == "cast_expression":
        return const_eval(node.child_by_field_name("value"), pf, env)
    if t == "call_expression":
        fn = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if fn is not None and args is not None and args.named_child_count == 1 and \
                pf.node_text(fn).replace(" ", "").startswith("static_cast<"):
            return const_eval(args.named_children[0], pf, env)
        return None
    return None
