// akgen sim: the DT_* data-type numbers of the kernel side, as preprocessor macros (CANN's kernel_type.h has them),
// so that `#if ORIG_DTYPE_X == DT_FLOAT16` works: the custom-op build defines ORIG_DTYPE_<NAME> as the ge name of the
// tensor's dtype (-DORIG_DTYPE_X=DT_FLOAT16), and kernels select code paths with it in #if.
//
// The generated glue includes this after the op_host tiling header and before the kernel sources: host code in a
// tiling header may name ge::DT_FLOAT, which a macro of that name would break (graph.h guards its enum the same way).
#ifndef AKGEN_SIM_KERNEL_TYPE_H
#define AKGEN_SIM_KERNEL_TYPE_H

#define DT_FLOAT 0
#define DT_FLOAT16 1
#define DT_INT8 2
#define DT_INT32 3
#define DT_UINT8 4
#define DT_INT16 6
#define DT_UINT16 7
#define DT_UINT32 8
#define DT_INT64 9
#define DT_UINT64 10
#define DT_DOUBLE 11
#define DT_BOOL 12
#define DT_STRING 13
#define DT_COMPLEX64 16
#define DT_COMPLEX128 17
#define DT_BF16 27
#define DT_UNDEFINED 28
#define DT_INT4 29
#define DT_COMPLEX32 33

#endif
