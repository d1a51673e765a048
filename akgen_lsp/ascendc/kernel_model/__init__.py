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

`kernel_model(ctx)` builds it once per parse and keeps it in ``pf.memo``; `build_model(pf, catalog)` builds one.

The modules: `values` (the records and `KernelModel`), `qualifiers` (device qualifiers from the user's text),
`regions` (CPU-only code and preprocessor branches), `bodies` (InitBuffer calls, queue operations, tensor types) and
`build` (the model of one file).
"""

from __future__ import annotations

from akgen_lsp.ascendc.kernel_model.bodies import (
    identifier_uses,
    is_conditional,
    receiver_base,
    tensor_info,
    type_size,
)
from akgen_lsp.ascendc.kernel_model.build import build_model, kernel_model
from akgen_lsp.ascendc.kernel_model.values import (
    POSITION_MEMORY,
    POSITIONS,
    QUEUE_OPS,
    TENSOR_CLASSES,
    UB_POSITIONS,
    Binding,
    Buffer,
    Function,
    InitBuffer,
    KernelClass,
    KernelModel,
    QueueOp,
)

__all__ = [
    "POSITIONS",
    "POSITION_MEMORY",
    "QUEUE_OPS",
    "TENSOR_CLASSES",
    "UB_POSITIONS",
    "Binding",
    "Buffer",
    "Function",
    "InitBuffer",
    "KernelClass",
    "KernelModel",
    "QueueOp",
    "build_model",
    "identifier_uses",
    "is_conditional",
    "kernel_model",
    "receiver_base",
    "tensor_info",
    "type_size",
]
