"""ge::DataType, the dtype enum of CANN's graph engine (``DT_FLOAT16``, ``DT_FLOAT``, ...), against numpy's dtype
names: what a kernel's ``ORIG_DTYPE_<NAME>`` macro expands to (``-DORIG_DTYPE_X=DT_FLOAT16``), what an op
definition's ``.DataType({ge::DT_FLOAT16, ...})`` lists, and what the sim's host glue passes for a tensor. The one
table: the sim and the bench both read it."""

from __future__ import annotations

GE_DTYPES: dict[str, str] = {  # ge name -> numpy dtype name
    "DT_FLOAT16": "float16",
    "DT_FLOAT": "float32",
    "DT_BF16": "bfloat16",
    "DT_DOUBLE": "float64",
    "DT_INT8": "int8",
    "DT_UINT8": "uint8",
    "DT_INT16": "int16",
    "DT_UINT16": "uint16",
    "DT_INT32": "int32",
    "DT_UINT32": "uint32",
    "DT_INT64": "int64",
    "DT_UINT64": "uint64",
    "DT_BOOL": "bool",
    "DT_COMPLEX64": "complex64",
    "DT_COMPLEX128": "complex128",
}
GE_NAMES: dict[str, str] = {v: k for k, v in GE_DTYPES.items()}  # numpy dtype name -> ge name
