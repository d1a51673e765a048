"""A workspace task's reference (an ``akgen.toml`` ``[[task]]`` ``reference``, a PyTorch expression such as
``x + y``, ``x.sum(dim=-1)`` or ``torch.exp(x.float()).half()``) evaluated with NumPy, so that the plain install
(no torch) checks a kernel on save.

The expression is evaluated over `T`, a NumPy array with a torch dtype name, and a ``torch`` stand-in that has the
common element-wise functions, reductions, reshapes and matmul. Results follow torch's dtype rules for what is here:
an operation on two float16 tensors is computed in float32 and rounded to float16 (as torch's CPU kernels do), a
Python number does not widen a tensor, float16 with float32 gives float32, and ``.half()`` / ``.float()`` /
``.bfloat16()`` / ``.to(dtype)`` round to nearest even. Anything else raises `Unsupported`, naming what the
expression used, so the caller can use the real torch when it is installed or say exactly what to install.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from akgen_lsp.bench import npref


class Unsupported(Exception):
    """The expression uses something the NumPy evaluator does not have; the message names it."""


_FLOATS = ("float16", "bfloat16", "float32", "float64")
_INTS = ("bool", "uint8", "int8", "int16", "int32", "int64")
_ORDER = {name: i for i, name in enumerate(_INTS + _FLOATS)}


def _result_dtype(a: str, b: str) -> str:
    """torch's promotion between two tensors' dtypes (float16 with bfloat16 is float32)."""
    if {a, b} == {"float16", "bfloat16"}:
        return "float32"
    return a if _ORDER[a] >= _ORDER[b] else b


def _scalar_dtype(tensor: str, value: Any) -> str:
    """The dtype of tensor <op> Python number: the tensor's, unless an integer tensor meets a float (float32)."""
    if isinstance(value, float) and tensor in _INTS:
        return "float32"
    return tensor


def _store(values: np.ndarray, dtype: str) -> np.ndarray:
    """`values` rounded to `dtype` and held in a NumPy dtype that computes exactly what it holds (bfloat16 as the
    float32 of its rounded value)."""
    if dtype == "bfloat16":
        return npref.bf16_bits_to_f32(npref.f32_to_bf16_bits(np.asarray(values, dtype=np.float32)))
    if dtype == "bool":
        return np.asarray(values).astype(np.bool_)
    with np.errstate(over="ignore", invalid="ignore"):  # a value beyond float16 is inf, as torch rounds it
        return np.asarray(values).astype(dtype)


def _compute(dtype: str) -> Any:
    """The NumPy dtype a result of `dtype` is computed in before its rounding (torch computes half types in float)."""
    return np.float32 if dtype in ("float16", "bfloat16") else None


class T:
    """A tensor: `a` holds the values (bfloat16 as float32 of the rounded values), `dtype` is torch's dtype name."""

    __slots__ = ("a", "dtype")

    def __init__(self, a: Any, dtype: str | None = None) -> None:
        arr = np.asarray(a)
        self.dtype = dtype or _dtype_of(arr)
        self.a = arr

    # -- conversions -------------------------------------------------------------------------------------------
    def to(self, dtype: Any = None, *args: Any, **kw: Any) -> T:
        dtype = kw.get("dtype", dtype)
        if isinstance(dtype, (str, _Dtype)):
            name = str(dtype)
            return T(_store(self.a, name), name)
        return self  # a device

    def float(self) -> T:
        return self.to("float32")

    def half(self) -> T:
        return self.to("float16")

    def bfloat16(self) -> T:
        return self.to("bfloat16")

    def double(self) -> T:
        return self.to("float64")

    def int(self) -> T:
        return T(np.trunc(self.a).astype(np.int32), "int32") if self.dtype in _FLOATS else self.to("int32")

    def long(self) -> T:
        return T(np.trunc(self.a).astype(np.int64), "int64") if self.dtype in _FLOATS else self.to("int64")

    def bool(self) -> T:
        return self.to("bool")

    def contiguous(self) -> T:
        return self

    def clone(self) -> T:
        return T(self.a.copy(), self.dtype)

    def cpu(self) -> T:
        return self

    def detach(self) -> T:
        return self

    # -- shape ---------------------------------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.a.shape)

    def size(self, dim: int | None = None) -> Any:
        return self.shape if dim is None else self.shape[dim]

    def dim(self) -> int:
        return self.a.ndim

    def numel(self) -> int:
        return int(self.a.size)

    def view(self, *shape: Any) -> T:
        return T(self.a.reshape(_shape_args(shape)), self.dtype)

    reshape = view

    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> T:
        s = list(self.shape)
        end = end_dim % len(s) if s else 0
        return T(self.a.reshape([*s[:start_dim], -1, *s[end + 1 :]]) if s else self.a.reshape(1), self.dtype)

    def unsqueeze(self, dim: int) -> T:
        return T(np.expand_dims(self.a, dim), self.dtype)

    def squeeze(self, dim: int | None = None) -> T:
        if dim is None:
            return T(np.squeeze(self.a), self.dtype)
        return T(np.squeeze(self.a, dim) if self.a.shape[dim] == 1 else self.a, self.dtype)

    def transpose(self, d0: int, d1: int) -> T:
        return T(np.swapaxes(self.a, d0, d1), self.dtype)

    def permute(self, *dims: Any) -> T:
        return T(np.transpose(self.a, _shape_args(dims)), self.dtype)

    def t(self) -> T:
        return T(self.a.T, self.dtype)

    @property
    def T(self) -> T:
        return T(self.a.T, self.dtype)

    def expand(self, *shape: Any) -> T:
        want = [o if n == -1 else n for n, o in zip(_shape_args(shape), (1,) * 8 + self.shape, strict=False)]
        return T(np.broadcast_to(self.a, want), self.dtype)

    def __getitem__(self, key: Any) -> T:
        key = (
            tuple(k.a if isinstance(k, T) else k for k in key)
            if isinstance(key, tuple)
            else (key.a if isinstance(key, T) else key)
        )
        return T(self.a[key], self.dtype)

    def __len__(self) -> int:
        return len(self.a)

    # -- arithmetic ----------------------------------------------------------------------------------------------
    def _binary(
        self, other: Any, fn: Callable[[Any, Any], Any], *, reverse: bool = False, out: str | None = None
    ) -> T:
        if isinstance(other, T):
            dtype = _result_dtype(self.dtype, other.dtype)
            b: Any = other.a
        elif isinstance(other, (bool, int, float)):
            dtype = _scalar_dtype(self.dtype, other)
            b = other
        else:
            raise Unsupported(f"an operand of type {type(other).__name__}")
        work = _compute(dtype)
        x = self.a.astype(work) if work else self.a
        y = b.astype(work) if work and isinstance(b, np.ndarray) else b
        with np.errstate(all="ignore"):
            values = fn(y, x) if reverse else fn(x, y)
        if out == "bool":
            return T(np.asarray(values, dtype=np.bool_), "bool")
        return T(_store(values, out or dtype), out or dtype)

    def __add__(self, o: Any) -> T:
        return self._binary(o, np.add)

    def __radd__(self, o: Any) -> T:
        return self._binary(o, np.add, reverse=True)

    def __sub__(self, o: Any) -> T:
        return self._binary(o, np.subtract)

    def __rsub__(self, o: Any) -> T:
        return self._binary(o, np.subtract, reverse=True)

    def __mul__(self, o: Any) -> T:
        return self._binary(o, np.multiply)

    def __rmul__(self, o: Any) -> T:
        return self._binary(o, np.multiply, reverse=True)

    def __truediv__(self, o: Any) -> T:
        return self._true_div(o, reverse=False)

    def __rtruediv__(self, o: Any) -> T:
        return self._true_div(o, reverse=True)

    def _true_div(self, o: Any, *, reverse: bool) -> T:
        me = self if self.dtype in _FLOATS else self.float()
        return me._binary(o, np.divide, reverse=reverse)

    def __pow__(self, o: Any) -> T:
        return self._binary(o, np.power)

    def __rpow__(self, o: Any) -> T:
        return self._binary(o, np.power, reverse=True)

    def __neg__(self) -> T:
        return T(-self.a, self.dtype)

    def __abs__(self) -> T:
        return self.abs()

    def __matmul__(self, o: Any) -> T:
        return matmul(self, o)

    def __lt__(self, o: Any) -> T:  # type: ignore[override]
        return self._binary(o, np.less, out="bool")

    def __le__(self, o: Any) -> T:  # type: ignore[override]
        return self._binary(o, np.less_equal, out="bool")

    def __gt__(self, o: Any) -> T:  # type: ignore[override]
        return self._binary(o, np.greater, out="bool")

    def __ge__(self, o: Any) -> T:  # type: ignore[override]
        return self._binary(o, np.greater_equal, out="bool")

    def __eq__(self, o: Any) -> T:  # type: ignore[override]
        return self._binary(o, np.equal, out="bool")

    def __ne__(self, o: Any) -> T:  # type: ignore[override]
        return self._binary(o, np.not_equal, out="bool")

    def __and__(self, o: Any) -> T:
        return self._binary(o, np.logical_and if self.dtype == "bool" else np.bitwise_and)

    def __or__(self, o: Any) -> T:
        return self._binary(o, np.logical_or if self.dtype == "bool" else np.bitwise_or)

    def __invert__(self) -> T:
        return T(~self.a, self.dtype)

    __hash__ = None  # type: ignore[assignment]

    # -- element-wise methods (the torch function of the same name) ----------------------------------------------
    def __getattr__(self, name: str) -> Any:
        fn = _UNARY.get(name) or _METHODS.get(name)
        if fn is None:
            raise Unsupported(f"the tensor method .{name}()")
        return lambda *a, **k: fn(self, *a, **k)


def _dtype_of(arr: np.ndarray) -> str:
    if isinstance(arr, npref.Bf16):
        raise Unsupported("a raw bfloat16 array (use T.of)")
    name = str(arr.dtype)
    if name not in _ORDER:
        raise Unsupported(f"the dtype {name}")
    return name


def of(x: Any) -> T:
    """A task input (numpy array; bfloat16 as `npref.Bf16` bits) as a tensor."""
    if isinstance(x, npref.Bf16):
        return T(npref.bf16_bits_to_f32(np.asarray(x).view(np.uint16)), "bfloat16")
    return T(np.asarray(x))


def result(x: Any) -> Any:
    """A value of the expression as the reference's output: arrays (bfloat16 as `npref.Bf16`), lists kept."""
    if isinstance(x, (list, tuple)):
        return type(x)(result(e) for e in x)
    if isinstance(x, T):
        return npref.cast(x.a, "bfloat16") if x.dtype == "bfloat16" else np.ascontiguousarray(x.a)
    if isinstance(x, (bool, int, float)):
        raise Unsupported("a result that is a number, not a tensor")
    raise Unsupported(f"a result of type {type(x).__name__}")


def _shape_args(shape: Sequence[Any]) -> tuple[int, ...]:
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        return tuple(int(s) for s in shape[0])
    return tuple(int(s) for s in shape)


def _as_t(x: Any) -> T:
    if isinstance(x, T):
        return x
    if isinstance(x, (bool, int, float)):
        return T(np.asarray(x, dtype=np.float32 if isinstance(x, float) else np.int64))
    raise Unsupported(f"an argument of type {type(x).__name__}")


def _unary(fn: Callable[[np.ndarray], np.ndarray], *, floats: bool = True) -> Callable[..., T]:
    def apply(x: Any, *args: Any, **kw: Any) -> T:
        if args or kw:
            raise Unsupported(f"arguments to {fn.__name__}")
        t = _as_t(x)
        dtype = t.dtype if (t.dtype in _FLOATS or not floats) else "float32"
        work = _compute(dtype)
        with np.errstate(all="ignore"):
            values = fn(
                t.a.astype(work) if work else (t.a.astype(np.float32) if floats and t.dtype in _INTS else t.a)
            )
        return T(_store(values, dtype), dtype)

    return apply


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-a))


def _erf(a: np.ndarray) -> np.ndarray:
    return np.vectorize(math.erf, otypes=[a.dtype])(a)


def _gelu(x: Any, approximate: str = "none") -> T:
    t = _as_t(x)
    work = t.a.astype(np.float32) if t.dtype in ("float16", "bfloat16") else t.a
    with np.errstate(all="ignore"):
        if approximate == "tanh":
            v = 0.5 * work * (1 + np.tanh(math.sqrt(2 / math.pi) * (work + 0.044715 * work**3)))
        else:
            v = 0.5 * work * (1 + _erf(work / math.sqrt(2)))
    return T(_store(v, t.dtype), t.dtype)


_UNARY: dict[str, Callable[..., T]] = {
    "exp": _unary(np.exp),
    "log": _unary(np.log),
    "sqrt": _unary(np.sqrt),
    "sin": _unary(np.sin),
    "cos": _unary(np.cos),
    "tanh": _unary(np.tanh),
    "sigmoid": _unary(_sigmoid),
    "erf": _unary(_erf),
    "rsqrt": _unary(lambda a: 1 / np.sqrt(a)),
    "reciprocal": _unary(lambda a: 1 / a),
    "exp2": _unary(np.exp2),
    "log2": _unary(np.log2),
    "log1p": _unary(np.log1p),
    "expm1": _unary(np.expm1),
    "abs": _unary(np.abs, floats=False),
    "neg": _unary(np.negative, floats=False),
    "relu": _unary(lambda a: np.maximum(a, 0).astype(a.dtype), floats=False),
    "square": _unary(np.square, floats=False),
    "sign": _unary(np.sign, floats=False),
    "floor": _unary(np.floor, floats=False),
    "ceil": _unary(np.ceil, floats=False),
    "round": _unary(np.rint, floats=False),
    "trunc": _unary(np.trunc, floats=False),
    "silu": _unary(lambda a: a * _sigmoid(a)),
}


def _dims(dim: Any) -> Any:
    return tuple(dim) if isinstance(dim, (list, tuple)) else dim


def _reduce(np_fn: Callable[..., np.ndarray], name: str) -> Callable[..., Any]:
    def apply(x: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None, axis: Any = None) -> T:
        t = _as_t(x)
        if dtype is not None:
            t = t.to(dtype)
        dim = axis if dim is None else dim
        out = t.dtype if t.dtype in _FLOATS else ("int64" if name == "sum" else t.dtype)
        if name == "mean" and t.dtype in _INTS:
            raise Unsupported("mean of an integer tensor")
        work = t.a.astype(np.float32) if t.dtype in ("float16", "bfloat16") else t.a
        with np.errstate(all="ignore"):
            values = np_fn(work, axis=_dims(dim), keepdims=keepdim)
        return T(_store(values, out), out)

    return apply


class _Values(T):
    """torch.max(x, dim)'s (values, indices): `.values` and `.indices` and unpacking."""

    __slots__ = ("indices",)

    def __init__(self, values: T, indices: np.ndarray) -> None:
        super().__init__(values.a, values.dtype)
        self.indices = T(indices, "int64")

    @property
    def values(self) -> T:
        return T(self.a, self.dtype)

    def __iter__(self) -> Any:
        return iter((self.values, self.indices))


def _extreme(which: str) -> Callable[..., Any]:
    np_fn = np.max if which == "max" else np.min
    arg = np.argmax if which == "max" else np.argmin

    def apply(x: Any, dim: Any = None, keepdim: bool = False, **kw: Any) -> Any:
        t = _as_t(x)
        if isinstance(dim, T):  # torch.max(a, b): the element-wise form
            return maximum(t, dim) if which == "max" else minimum(t, dim)
        if dim is None:
            return T(np_fn(t.a), t.dtype)
        vals = T(np_fn(t.a, axis=dim, keepdims=keepdim), t.dtype)
        idx = arg(t.a, axis=dim)
        return _Values(vals, np.expand_dims(idx, dim) if keepdim else idx)

    return apply


def _amax(which: str) -> Callable[..., T]:
    np_fn = np.max if which == "max" else np.min

    def apply(x: Any, dim: Any = None, keepdim: bool = False) -> T:
        t = _as_t(x)
        return T(np_fn(t.a, axis=_dims(dim), keepdims=keepdim), t.dtype)

    return apply


def matmul(a: Any, b: Any) -> T:
    x, y = _as_t(a), _as_t(b)
    dtype = _result_dtype(x.dtype, y.dtype)
    work = np.float32 if dtype in ("float16", "bfloat16") else None
    values = np.matmul(x.a.astype(work) if work else x.a, y.a.astype(work) if work else y.a)
    return T(_store(values, dtype), dtype)


def maximum(a: Any, b: Any) -> T:
    return _as_t(a)._binary(b, np.maximum)


def minimum(a: Any, b: Any) -> T:
    return _as_t(a)._binary(b, np.minimum)


def where(cond: Any, a: Any, b: Any) -> T:
    c, x = _as_t(cond), _as_t(a)
    y = _as_t(b) if isinstance(b, T) else b
    dtype = _result_dtype(x.dtype, y.dtype) if isinstance(y, T) else _scalar_dtype(x.dtype, y)
    return T(_store(np.where(c.a, x.a, y.a if isinstance(y, T) else y), dtype), dtype)


def clamp(x: Any, min: Any = None, max: Any = None) -> T:
    t = _as_t(x)
    lo = -np.inf if min is None else (min.a if isinstance(min, T) else min)
    hi = np.inf if max is None else (max.a if isinstance(max, T) else max)
    return T(_store(np.clip(t.a, lo, hi), t.dtype), t.dtype)


def softmax(x: Any, dim: int = -1, dtype: Any = None) -> T:
    t = _as_t(x) if dtype is None else _as_t(x).to(dtype)
    work = t.a.astype(np.float32) if t.dtype in ("float16", "bfloat16") else t.a
    e = np.exp(work - work.max(axis=dim, keepdims=True))
    return T(_store(e / e.sum(axis=dim, keepdims=True), t.dtype), t.dtype)


def cumsum(x: Any, dim: int, dtype: Any = None) -> T:
    t = _as_t(x) if dtype is None else _as_t(x).to(dtype)
    work = t.a.astype(np.float32) if t.dtype in ("float16", "bfloat16") else t.a
    return T(_store(np.cumsum(work, axis=dim), t.dtype), t.dtype)


def _pow(x: Any, y: Any) -> T:
    return _as_t(x) ** y


def _cat(tensors: Sequence[Any], dim: int = 0) -> T:
    ts = [_as_t(t) for t in tensors]
    dtype = ts[0].dtype
    for t in ts[1:]:
        dtype = _result_dtype(dtype, t.dtype)
    return T(_store(np.concatenate([t.a for t in ts], axis=dim), dtype), dtype)


def _stack(tensors: Sequence[Any], dim: int = 0) -> T:
    ts = [_as_t(t) for t in tensors]
    return T(np.stack([t.a for t in ts], axis=dim), ts[0].dtype)


_METHODS: dict[str, Callable[..., Any]] = {
    "sum": _reduce(np.sum, "sum"),
    "mean": _reduce(np.mean, "mean"),
    "prod": _reduce(np.prod, "prod"),
    "max": _extreme("max"),
    "min": _extreme("min"),
    "amax": _amax("max"),
    "amin": _amax("min"),
    "maximum": maximum,
    "minimum": minimum,
    "clamp": clamp,
    "clip": clamp,
    "softmax": softmax,
    "cumsum": cumsum,
    "matmul": matmul,
    "mm": matmul,
    "pow": _pow,
    "add": lambda a, b, alpha=1: a + b * alpha if alpha != 1 else a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "gelu": _gelu,
}


class _Dtype(str):
    """torch.float16 and friends: compare and print as their names."""


class _Namespace:
    def __init__(self, name: str, members: dict[str, Any]) -> None:
        self._name = name
        self._members = members

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name not in self._members:
            raise Unsupported(f"{self._name}.{name}")
        return self._members[name]


def _functional() -> _Namespace:
    return _Namespace(
        "torch.nn.functional",
        {
            **_UNARY,
            "gelu": _gelu,
            "softmax": softmax,
            "leaky_relu": lambda x, negative_slope=0.01: where(
                _as_t(x) > 0, _as_t(x), _as_t(x) * negative_slope
            ),
        },
    )


def torch_namespace() -> _Namespace:
    """The ``torch`` an expression sees."""
    dtypes = {name: _Dtype(name) for name in _ORDER}
    dtypes.update(
        half=_Dtype("float16"),
        float=_Dtype("float32"),
        double=_Dtype("float64"),
        long=_Dtype("int64"),
        int=_Dtype("int32"),
    )
    fn = _functional()
    return _Namespace(
        "torch",
        {
            **_UNARY,
            **_METHODS,
            **dtypes,
            "where": where,
            "cat": _cat,
            "stack": _stack,
            "tensor": lambda v, dtype=None: (
                T(_store(np.asarray(v), str(dtype)), str(dtype)) if dtype else _as_t(v)
            ),
            "nn": _Namespace("torch.nn", {"functional": fn}),
        },
    )


def evaluate(expression: str, inputs: dict[str, Any], params: dict[str, Any]) -> Any:
    """The expression's value over `inputs` (numpy arrays, bfloat16 as Bf16) and `params` (numbers), as arrays.
    Raises Unsupported when it uses what is not here; a mistake in the expression itself raises as Python does."""
    env: dict[str, Any] = {"torch": torch_namespace(), "F": _functional(), **params}
    env.update({name: of(x) for name, x in inputs.items()})
    return result(eval(expression, {"__builtins__": {}}, env))
