"""What the task files say about the kernel's call: the op_host ``OpDef`` and the task's ``validation/pybind.cpp``.

CANN's custom-op build derives the kernel's parameters from the OpDef: one ``GM_ADDR`` per ``Input`` then per
``Output`` (in declaration order), then ``workspace`` and ``tiling``; and it defines, for every input and output
``<name>``, ``DTYPE_<NAME>`` (the C type of the dtype picked for the call) and ``ORIG_DTYPE_<NAME>`` (its ge name,
``DT_FLOAT16``), with ``_REF`` appended for an output that has an input's name (asc-devkit
cmake/asc/fwk_modules/util/ascendc_impl_build.py). The pick is
one column of the OpDef's ``DataType({...})`` lists: the column whose input dtypes are the call's dtypes, which also
fixes the outputs' dtypes (`dtype_defines`).

NPUKernelBench's ``pybind.cpp`` is the ground truth of how the task's Python values reach the op:
``custom_pybind_fun(at::Tensor &a, ..., double alpha)`` says which ``get_inputs`` values are tensors and which are
attributes (a 1-element tensor passed for a ``double`` is an attribute), ``EXEC_NPU_CMD(aclnnX, a, b, c, alpha,
beta)`` gives the order of the op's arguments, and a tensor parameter that is also returned (``return c;``) is
written in place (an in/out tensor; `parse_pybind`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from akgen_lsp.ascendc.commas import split_top_level
from akgen_lsp.ascendc.ge_dtypes import GE_DTYPES, GE_NAMES

_PARAM = re.compile(r"this\s*->\s*(Input|Output)\s*\(\s*\"(\w+)\"\s*\)")
_DTYPES = re.compile(r"\.\s*DataType\s*\(\s*\{([^}]*)\}")
# `.DataType(xDtype)` naming a list the file defines: `std::vector<ge::DataType> xDtype = {ge::DT_FLOAT16, ...};`
_DTYPES_NAMED = re.compile(r"\.\s*DataType\s*\(\s*(\w+)\s*\)")
_DTYPE_LIST = re.compile(r"\b(\w+)\s*(?:=\s*)?\{((?:\s*(?:ge::)?DT_\w+\s*,?)+)\}")
_PTYPE = re.compile(r"\.\s*ParamType\s*\(\s*(\w+)\s*\)")
_ATTR = re.compile(r"this\s*->\s*Attr\s*\(\s*\"(\w+)\"\s*\)")


@dataclass(frozen=True)
class OpParam:
    name: str
    dtypes: tuple[str, ...]  # numpy-style names, one per OpDef column ("" where the ge name is unknown)
    param_type: str = "REQUIRED"


@dataclass(frozen=True)
class OpDef:
    inputs: tuple[OpParam, ...]
    outputs: tuple[OpParam, ...]
    attrs: tuple[
        str, ...
    ] = ()  # the ``this->Attr("name")`` names in declaration order (aclnn passes them so)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.inputs + self.outputs]


def parse_opdef(text: str) -> OpDef | None:
    """The Inputs and Outputs of the first OpDef class in `text` (comments ignored); None when there is none."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.DOTALL)
    code = code.replace("\\\n", " ")  # a list defined by a macro over several lines (`#define X_LIST \`)
    matches = list(_PARAM.finditer(code))
    if not matches:
        return None
    ins: list[OpParam] = []
    outs: list[OpParam] = []
    named = {n.group(1): n.group(2) for n in _DTYPE_LIST.finditer(code)}
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(code)
        chain = code[m.end() : end].split(";", 1)[0]
        dm = _DTYPES.search(chain)
        listed = dm.group(1) if dm else None
        if listed is None and (nm := _DTYPES_NAMED.search(chain)) and nm.group(1) in named:
            listed = named[nm.group(1)]
        dtypes = (
            tuple(GE_DTYPES.get(d.strip().split("::")[-1], "") for d in listed.split(",") if d.strip())
            if listed is not None
            else ()
        )
        pm = _PTYPE.search(chain)
        param = OpParam(m.group(2), dtypes, pm.group(1) if pm else "REQUIRED")
        (ins if m.group(1) == "Input" else outs).append(param)
    return OpDef(tuple(ins), tuple(outs), tuple(_ATTR.findall(code)))


def opdef_for_host(host: Path | None) -> OpDef | None:
    """The OpDef of an op_host source, looked up in the file and its sibling sources (split hosts)."""
    if host is None:
        return None
    files = [host, *sorted(p for p in host.parent.glob("*.cpp") if p != host)]
    for f in files:
        try:
            od = parse_opdef(f.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        if od is not None:
            return od
    return None


def opdef_column(opdef: OpDef, bound: Mapping[str, str]) -> int | None:
    """The column of the OpDef's dtype table whose dtypes are the `bound` ones (parameter name -> dtype); the one
    matching the most bound parameters; None when no column agrees with all of them."""
    params = [*opdef.inputs, *opdef.outputs]
    width = max((len(p.dtypes) for p in params), default=0)
    column: int | None = None
    best = -1
    for j in range(width):
        score = 0
        ok = True
        for p in params:
            want = bound.get(p.name)
            if want is None or j >= len(p.dtypes):
                continue
            if p.dtypes[j] != want:
                ok = False
                break
            score += 1
        if ok and score > best:
            column, best = j, score
    if best <= 0 and width > 1:
        return None  # nothing bound to choose between several columns
    return column


def dtype_defines(opdef: OpDef, bound: Mapping[str, str], c_types: Mapping[str, str]) -> dict[str, str]:
    """``DTYPE_<NAME>`` / ``ORIG_DTYPE_<NAME>`` for every OpDef input and output. `bound` maps parameter names to the
    dtypes of the tensors the call passes; the column of the OpDef's dtype table that matches them gives the dtype of
    every other parameter (outputs included), as CANN's op selection does. Without a matching column, the bound
    dtypes are used as they are and unbound parameters get no define."""
    params = [*opdef.inputs, *opdef.outputs]
    column = opdef_column(opdef, bound)
    out: dict[str, str] = {}
    in_names = {p.name for p in opdef.inputs}
    for i, p in enumerate(params):
        dt = bound.get(p.name)
        if dt is None and column is not None and column < len(p.dtypes):
            dt = p.dtypes[column] or None
        ctype = c_types.get(dt) if dt else None
        if ctype and dt:
            # an output named like an input (a ref parameter, Eye's y) is <NAME>_REF, as the build script does
            name = p.name.upper() + ("_REF" if i >= len(opdef.inputs) and p.name in in_names else "")
            out[f"DTYPE_{name}"] = ctype
            out[f"ORIG_DTYPE_{name}"] = GE_NAMES.get(dt, ctype)
    return out


# ---------------------------------------------------------------------------------------------------- pybind.cpp

_FUN = re.compile(r"custom_pybind_(?:fun|api)\s*\(([^)]*)\)\s*\{", re.DOTALL)
# any function definition (`std::vector<at::Tensor> rms_norm(at::Tensor x, ...) {`): the one that calls the op
_ANY_FUN = re.compile(r"\b(\w+)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*(?:const\s*)?\{", re.DOTALL)
_NOT_FUNCTIONS = {
    "if",
    "for",
    "while",
    "switch",
    "catch",
    "return",
    "PYBIND11_MODULE",
    "TORCH_LIBRARY",
    "TORCH_LIBRARY_IMPL",
}
_EXEC = re.compile(r"EXEC_NPU_CMD\s*\(\s*\w+\s*,([^;]*)\)\s*;", re.DOTALL)
_RETURN = re.compile(r"\breturn\s+([^;]+);")
_LIKE = re.compile(r"\bat::Tensor\s+(\w+)\s*=\s*(?:at|torch)::empty_like\s*\(\s*(\w+)")
_LOCAL_TENSOR = re.compile(
    r"\b(?:at|torch)::Tensor\s+(\w+)\s*[=;]"
    r"|\bauto\s+(\w+)\s*=\s*(?:at|torch)::(?:empty|zeros|ones|full)\w*\s*\("
)
_OPTIONAL = re.compile(r"\b(\w+)\s*=\s*(\w+)\s*\.\s*has_value\s*\(\s*\)\s*\?\s*\2\s*\.\s*value\s*\(")
_CONVERT = re.compile(r"\b(\w+)\s*=\s*ConvertType\s*\(\s*(?:(?:at|c10)::IntArrayRef\s*\(\s*)?(\w+)\s*\)")
_CSTR = re.compile(r"\b(\w+)\s*=\s*(\w+)\s*\.\s*c_str\s*\(\s*\)")
_VECTOR = re.compile(r"\bstd::vector\s*<\s*(?:at|torch)::Tensor\s*>\s+(\w+)\s*(?:=\s*)?\{([^}]*)\}")
_PUSH_IF = re.compile(r"\bif\s*\(\s*(\w+)\s*\)\s*\{([^{}]*)\}")
# `if (flag) { result = {a, b}; } else { result = {c}; }`: the returned vector filled by a bool parameter
_ASSIGN_IF_ELSE = re.compile(
    r"\bif\s*\(\s*(!?)\s*(\w+)\s*\)\s*\{\s*(\w+)\s*=\s*\{([^{}]*)\}\s*;\s*\}"
    r"\s*else\s*\{\s*\3\s*=\s*\{([^{}]*)\}\s*;\s*\}"
)


@dataclass(frozen=True)
class PyParam:
    name: str
    is_tensor: bool
    is_list: bool = False


@dataclass(frozen=True)
class PybindCall:
    """``custom_pybind_fun``'s parameters (one per ``get_inputs`` value), the op's argument order and what comes
    back."""

    params: tuple[PyParam, ...]
    exec_args: tuple[str, ...]
    returned: tuple[str, ...]
    locals_: tuple[str, ...] = field(default_factory=tuple)
    likes: Mapping[str, str] = field(default_factory=dict)  # local -> the parameter it is empty_like of
    scalars: tuple[str, ...] = ()  # parameters handed to aclnn as scalars (the op gets them in its own dtype)
    arrays: tuple[
        str, ...
    ] = ()  # int-list parameters converted to an aclIntArray (an op input of their values)
    # outputs appended to the returned vector under a bool parameter (`if (returnZloss) result.push_back(z);`):
    # (parameter, output); the call returns them only when the parameter is true
    conditional: tuple[tuple[str, str], ...] = ()
    # optional inputs the task's own aclnn function fills when absent (`aclnn_optional_fills`), by parameter name
    fills: Mapping[str, OptionalFill] = field(default_factory=dict)
    # the returned vector assigned in an if/else on a bool parameter (AddLayerNorm's `additionalOut`: {xOut, yOut},
    # else {yOut}): (parameter, returned when true, returned when false); `returned` holds the longer list
    branches: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = ()

    def returned_for(self, flags: Mapping[str, object]) -> tuple[str, ...]:
        """What the call returns for these values of its parameters (by name): `returned`, or the if/else branch
        that the bool parameter picks (one whose value is unknown leaves `returned`)."""
        for name, when_true, when_false in self.branches:
            if name in flags and flags[name] is not None:
                return when_true if bool(flags[name]) else when_false
        return self.returned

    def position(self, name: str) -> int | None:
        return next((i for i, p in enumerate(self.params) if p.name == name), None)

    @property
    def inout(self) -> set[str]:
        """Tensor parameters the op writes in place: returned, or passed to the op with no local output."""
        tensor_params = {p.name for p in self.params if p.is_tensor and not p.is_list}
        out = {r for r in self.returned if r in tensor_params}
        return out

    def attr_args(self) -> list[str]:
        """The parameters the op gets as attributes, in the call's order (aclnn passes them in the OpDef's Attr
        order)."""
        return [
            a
            for a in self.exec_args
            if (pos := self.position(a)) is not None
            and not self.params[pos].is_tensor
            and a not in self.scalars
        ]

    def kernel_tensors(self) -> list[tuple[str, str, int | None]]:
        """The op's tensor arguments in order as (name, kind, get_inputs position): kind is ``in``, ``inout``
        or ``out`` (a local tensor the binding allocates)."""
        out: list[tuple[str, str, int | None]] = []
        inout = self.inout
        for a in self.exec_args:
            pos = self.position(a)
            if pos is not None:
                p = self.params[pos]
                if p.is_tensor:
                    out.append((a, "inout" if a in inout else "in", pos))
                elif a in self.arrays:
                    out.append((a, "array", pos))
            elif a in self.locals_:
                out.append((a, "out", None))
        return out


def scalar_inputs(call: PybindCall, opdef: OpDef | None) -> PybindCall:
    """`call` with its plain scalar parameters that the OpDef declares as Inputs (TopKV3's ``int64_t k``, the op's
    ``Input("k")``: a value-depend int32 tensor whose value the TilingFunc reads) handed to the op as inputs: they
    join `arrays`, so the binding makes each a 1-element tensor of the OpDef input's dtype at its place (the task's
    aclnn function converts the scalar to that tensor). A parameter is such an input when its name is an OpDef
    input's and no Attr's (case and underscores ignored); the call is returned as it is otherwise."""
    if opdef is None:
        return call

    def fold(n: str) -> str:
        return n.replace("_", "").lower()

    inputs = {fold(p.name) for p in opdef.inputs}
    attrs = {fold(a) for a in opdef.attrs}
    extra = [
        a
        for a in call.exec_args
        if (pos := call.position(a)) is not None
        and not call.params[pos].is_tensor
        and a not in call.scalars
        and a not in call.arrays
        and fold(a) in inputs
        and fold(a) not in attrs
    ]
    if not extra:
        return call
    return replace(call, arrays=tuple(sorted({*call.arrays, *extra})))


_SCALAR_OF_TENSOR = re.compile(
    r"\b(\w+)\s*=\s*ConvertTensorToAclScaler\s*\(\s*(\w+)"
    r"|\bScalar\s+(\w+)\s*\(\s*(\w+)\s*\.item\s*<"
)


def parse_pybind(text: str) -> PybindCall | None:
    """The call of a task's pybind.cpp; None when it does not have the usual shape (``custom_pybind_fun`` calling
    ``EXEC_NPU_CMD`` once) or passes tensor lists (handled elsewhere)."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.DOTALL)
    fm = _FUN.search(code)
    em = _EXEC.search(code)
    if em is None:
        return None
    if fm is None or fm.start() > em.start():
        # the binding function has the op's own name (rms_norm): the last definition before the op call
        fm = None
        for m in _ANY_FUN.finditer(code, 0, em.start()):
            if m.group(1) not in _NOT_FUNCTIONS:
                fm = m
        if fm is None:
            return None
        fm_params = fm.group(2)
    else:
        fm_params = fm.group(1)
    params: list[PyParam] = []
    for raw in _args(fm_params):
        raw = raw.split("=", 1)[0].strip()  # a default value (int64_t axis = -1)
        m = re.search(r"(\w+)\s*$", raw)
        if not m:
            return None
        decl = raw[: m.start()]
        is_list = "TensorList" in decl or ("vector" in decl and "Tensor" in decl)  # not std::vector<int64_t>
        params.append(PyParam(m.group(1), "Tensor" in decl and not is_list, is_list))
    if any(p.is_list for p in params):
        return None
    body = code[fm.end() :]
    # A tensor handed to the op as an aclnn scalar (`auto s = ConvertTensorToAclScaler(t)`, `c10::Scalar
    # s(t.item<float>())`) is still the op's input `t`: a value-depend OpDef input the kernel reads from GM.
    aliases = {m[0] or m[2]: m[1] or m[3] for m in _SCALAR_OF_TENSOR.findall(body)}
    # An optional tensor unwrapped for the call (`at::Tensor w = wOpt.has_value() ? wOpt.value() : at::Tensor()`)
    # is the parameter itself (None when the task passes none: an empty buffer, as aclnn's nullptr).
    scalar_of = set(aliases.values())
    optional = dict(_OPTIONAL.findall(body))
    aliases.update(optional)
    # an attribute converted for aclnn (`const char* r = reduction.c_str()`) is the parameter's value
    arrays = dict(_CONVERT.findall(body))  # aclIntArray* s = ConvertType(normalized_shape)
    converted = {**dict(_CSTR.findall(body)), **arrays, **aliases}
    exec_args = tuple(converted.get(a.strip(), a.strip()) for a in _args(em.group(1)) if a.strip())
    returned: list[str] = []
    vectors = {m[0]: m[1] for m in _VECTOR.findall(body)}  # std::vector<at::Tensor> result = {yOut, rstdOut};
    conditional: list[tuple[str, str]] = []
    for rm in _RETURN.finditer(body):
        expr = rm.group(1).strip()
        vec = expr if expr in vectors else None
        expr = vectors.get(expr, expr).strip().strip("{}")
        returned.extend(e.strip() for e in expr.split(",") if re.fullmatch(r"\s*\w+\s*", e))
        if vec is not None:
            push = re.compile(rf"\b{vec}\s*\.\s*(?:push|emplace)_back\s*\(\s*(\w+)\s*\)")
            for im in _PUSH_IF.finditer(body, 0, rm.start()):
                conditional.extend((im.group(1), n) for n in push.findall(im.group(2)))
        break
    branches: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
    if len(returned) == 1 and returned[0] not in vectors:
        for bm in _ASSIGN_IF_ELSE.finditer(body):
            if bm.group(3) != returned[0] or call_param(params, bm.group(2)) is None:
                continue
            yes, no = (
                tuple(e.strip() for e in g.split(",") if re.fullmatch(r"\s*\w+\s*", e))
                for g in (bm.group(4), bm.group(5))
            )
            branches.append((bm.group(2), no, yes) if bm.group(1) else (bm.group(2), yes, no))
        if branches:
            _, yes, no = branches[0]
            returned = list(yes if len(yes) >= len(no) else no)
    locals_ = tuple(a or b for a, b in _LOCAL_TENSOR.findall(body) if (a or b) not in optional)
    likes = dict(_LIKE.findall(body))
    return PybindCall(
        tuple(params),
        exec_args,
        tuple(returned),
        locals_,
        likes,
        tuple(sorted(scalar_of)),
        tuple(sorted(set(arrays.values()))),
        tuple(conditional),
        branches=tuple(branches),
    )


def call_param(params: Sequence[PyParam], name: str) -> PyParam | None:
    return next((p for p in params if p.name == name and not p.is_tensor), None)


def _args(text: str) -> list[str]:
    """The non-empty top-level parts of an argument or parameter list."""
    return [p for p in split_top_level(text) if p]


def pybind_for_task(validation: Path) -> PybindCall | None:
    p = validation / "pybind.cpp"
    if not p.is_file():
        return None
    try:
        return parse_pybind(p.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None


def map_params(kernel_params: Sequence[str], n_tensors: int) -> tuple[list[str], list[str]] | None:
    """Split the kernel parameters into the `n_tensors` tensor parameters and the tail (workspace, tiling)."""
    if len(kernel_params) < n_tensors or len(kernel_params) > n_tensors + 2:
        return None
    return list(kernel_params[:n_tensors]), list(kernel_params[n_tensors:])


# ------------------------------------------------------------------------------------------ the task's own aclnn API

_EXEC_API = re.compile(r"EXEC_NPU_CMD\s*\(\s*(\w+)\s*,")
_ELSE = re.compile(r"\}\s*else\s*\{")
_SCALAR = re.compile(r"AllocScalar\s*\(\s*([-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)f?\s*\)")
_FILL_SHAPE = re.compile(r"ConvertToTensor\s*\(\s*(\w+)\s*,\s*(?:op::)?DataType::DT_INT(?:64|32)\s*\)")
_DTYPE_OF = re.compile(r"\b(\w+)\s*->\s*GetDataType\s*\(\s*\)")


@dataclass(frozen=True)
class OptionalFill:
    """What the task's own aclnn function hands the kernel for an optional tensor the caller leaves out
    (aclnnLayerNorm: ``l0op::Fill`` of ones for the weight, zeros for the bias, shaped like ``normalizedShape``):
    `value`, the call argument whose int list is the shape, the arguments whose dtype it takes (first present)."""

    value: float
    shape_arg: str
    dtype_args: tuple[str, ...]


def exec_api(text: str) -> str | None:
    """The aclnn function a pybind.cpp calls (``EXEC_NPU_CMD(aclnnLayerNorm, ...)``)."""
    m = _EXEC_API.search(re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.DOTALL))
    return m.group(1) if m else None


def _block_end(code: str, open_brace: int) -> int:
    depth = 0
    for i in range(open_brace, len(code)):
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(code)


def aclnn_optional_fills(host_dir: Path | None, api: str | None, call: PybindCall) -> dict[str, OptionalFill]:
    """Optional inputs the task's own aclnn source (op_host/aclnn_*.cpp defining ``<api>GetWorkspaceSize``) replaces
    with a filled tensor when absent: ``if (w) {...} else {... AllocScalar(1) ... l0op::Fill(...)}``. Keyed by the
    pybind parameter passed at that argument; the shape and dtype arguments are pybind names too. {} when the op is
    called through the generated aclnn API (which passes nullptr)."""
    if host_dir is None or not api or not host_dir.is_dir():
        return {}
    head = re.compile(rf"\b{re.escape(api)}GetWorkspaceSize\s*\(([^)]*)\)\s*\{{")
    for f in sorted(host_dir.glob("*.cpp")):
        try:
            code = re.sub(
                r"//[^\n]*|/\*.*?\*/", "", f.read_text(encoding="utf-8", errors="replace"), flags=re.DOTALL
            )
        except OSError:
            continue
        m = head.search(code)
        if m is None:
            continue
        names = [
            re.search(r"(\w+)\s*$", a).group(1)
            for a in _args(m.group(1))  # type: ignore[union-attr]
            if re.search(r"(\w+)\s*$", a)
        ]
        to_call = {n: call.exec_args[k] for k, n in enumerate(names) if k < len(call.exec_args)}
        out: dict[str, OptionalFill] = {}
        for k, name in enumerate(names):
            if k >= len(call.exec_args):
                break
            im = re.search(rf"\bif\s*\(\s*{re.escape(name)}\s*(?:!=\s*nullptr\s*)?\)\s*\{{", code)
            if im is None:
                continue
            end = _block_end(code, im.end() - 1)
            em = _ELSE.match(code, end)
            if em is None:
                continue
            body = code[em.end() : _block_end(code, em.end() - 1)]
            sm, shm = _SCALAR.search(body), _FILL_SHAPE.search(body)
            if "Fill" not in body or sm is None or shm is None or shm.group(1) not in to_call:
                continue
            dtypes = []
            for d in _DTYPE_OF.findall(body):
                base = d if d in to_call else d.removesuffix("Contiguous")
                if base in to_call:
                    dtypes.append(to_call[base])
            out[call.exec_args[k]] = OptionalFill(float(sm.group(1)), to_call[shm.group(1)], tuple(dtypes))
        return out
    return {}
