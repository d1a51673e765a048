// akgen sim: the simulator templates most kernels instantiate (the count forms of DataCopy, Add/Sub/Mul/Div,
// Exp/Ln/Abs/Sqrt/Relu and Adds/Muls/Maxs/Mins, their checks and charges, GlobalTensor, the typed calls of the
// VECIN/VECOUT queues) for half and float, compiled once into the launcher object (launcher/common_inst.cpp) and only
// declared here (`extern template`) for the kernel's translation unit, which the generated glue includes this header
// into: the kernel's compile no longer generates their code. Inline bodies stay visible, so what the compiler inlines
// and every diagnostic stay the same; this header is not part of the precompiled header (other builds do not link
// the launcher object).
#pragma once

#include "../kernel_operator.h"

#ifdef AKGEN_SIM_INSTANTIATE
#define AKGEN_SIM_INST template
#else
#define AKGEN_SIM_INST extern template
#endif

#define AKGEN_SIM_COMMON_BINARY(T, OP)                                                                                 \
    namespace akgen_sim {                                                                                              \
    AKGEN_SIM_INST void binary_count_op<VecOp::OP, T>(const char*, const char*, const LocalTensor<T>&,                 \
                                                      const LocalTensor<T>&, const LocalTensor<T>&, int64_t,           \
                                                      const loc_t&);                                                   \
    }

#define AKGEN_SIM_COMMON_UNARY(T, OP)                                                                                  \
    namespace akgen_sim {                                                                                              \
    AKGEN_SIM_INST void unary_count_op<VecOp::OP, T>(const char*, const char*, const LocalTensor<T>&,                  \
                                                     const LocalTensor<T>&, int64_t, const loc_t&);                    \
    }

#define AKGEN_SIM_COMMON_SCALAR(T, OP)                                                                                 \
    namespace akgen_sim {                                                                                              \
    AKGEN_SIM_INST void scalar_count_op<VecOp::OP, T>(const char*, const char*, const LocalTensor<T>&,                 \
                                                      const LocalTensor<T>&, calc_t<T>, int64_t, const loc_t&);        \
    }

#define AKGEN_SIM_COMMON_QUE(T, P, D)                                                                                  \
    namespace AscendC {                                                                                                \
    AKGEN_SIM_INST LocalTensor<T> TQueBind<TPosition::P, TPosition::P, D>::AllocTensor<T>(std::source_location);      \
    AKGEN_SIM_INST bool TQueBind<TPosition::P, TPosition::P, D>::EnQue<T>(const LocalTensor<T>&,                     \
                                                                          std::source_location);                       \
    AKGEN_SIM_INST LocalTensor<T> TQueBind<TPosition::P, TPosition::P, D>::DeQue<T>(std::source_location);            \
    AKGEN_SIM_INST void TQueBind<TPosition::P, TPosition::P, D>::alloc_into<T>(LocalTensor<T>&,                       \
                                                                               const akgen_sim::loc_t&);               \
    }

#define AKGEN_SIM_COMMON(T)                                                                                            \
    namespace AscendC {                                                                                                \
    AKGEN_SIM_INST class GlobalTensor<T>;                                                                              \
    AKGEN_SIM_INST void DataCopy<T>(const LocalTensor<T>&, const GlobalTensor<T>&, const uint32_t,                     \
                                    std::source_location);                                                             \
    AKGEN_SIM_INST void DataCopy<T>(const GlobalTensor<T>&, const LocalTensor<T>&, const uint32_t,                     \
                                    std::source_location);                                                             \
    namespace detail {                                                                                                 \
    AKGEN_SIM_INST void dma_in<T>(const LocalTensor<T>&, const GlobalTensor<T>&, uint64_t, uint64_t, uint64_t,         \
                                  const char*, const akgen_sim::loc_t&);                                               \
    AKGEN_SIM_INST void dma_out<T>(const LocalTensor<T>&, const GlobalTensor<T>&, uint64_t, uint64_t, uint64_t,        \
                                   const char*, const akgen_sim::loc_t&);                                              \
    AKGEN_SIM_INST void gm_store<T>(T*, const T*, uint64_t);                                                           \
    AKGEN_SIM_INST uint64_t rounded_bytes<T>(uint32_t, const akgen_sim::loc_t&);                                       \
    }                                                                                                                  \
    }                                                                                                                  \
    namespace akgen_sim {                                                                                              \
    AKGEN_SIM_INST void check_local<T>(const AscendC::LocalTensor<T>&, const char*, const char*, uint64_t,             \
                                       const loc_t&, bool);                                                            \
    AKGEN_SIM_INST void check_count<T>(int64_t, const char*, const loc_t&);                                            \
    AKGEN_SIM_INST bool binary_count_checks<T>(const char*, const LocalTensor<T>&, const LocalTensor<T>&,              \
                                               const LocalTensor<T>&, int64_t, const loc_t&);                          \
    AKGEN_SIM_INST bool unary_count_checks<T, T>(const char*, const LocalTensor<T>&, const LocalTensor<T>&, int64_t,   \
                                                 const loc_t&, bool);                                                  \
    }                                                                                                                  \
    AKGEN_SIM_COMMON_BINARY(T, Add)                                                                                    \
    AKGEN_SIM_COMMON_BINARY(T, Sub)                                                                                    \
    AKGEN_SIM_COMMON_BINARY(T, Mul)                                                                                    \
    AKGEN_SIM_COMMON_BINARY(T, Div)                                                                                    \
    AKGEN_SIM_COMMON_UNARY(T, Exp)                                                                                     \
    AKGEN_SIM_COMMON_UNARY(T, Ln)                                                                                      \
    AKGEN_SIM_COMMON_UNARY(T, Abs)                                                                                     \
    AKGEN_SIM_COMMON_UNARY(T, Sqrt)                                                                                    \
    AKGEN_SIM_COMMON_UNARY(T, Relu)                                                                                    \
    AKGEN_SIM_COMMON_SCALAR(T, Adds)                                                                                   \
    AKGEN_SIM_COMMON_SCALAR(T, Muls)                                                                                   \
    AKGEN_SIM_COMMON_SCALAR(T, Maxs)                                                                                   \
    AKGEN_SIM_COMMON_SCALAR(T, Mins)                                                                                   \
    AKGEN_SIM_COMMON_QUE(T, VECIN, 1)                                                                                  \
    AKGEN_SIM_COMMON_QUE(T, VECIN, 2)                                                                                  \
    AKGEN_SIM_COMMON_QUE(T, VECOUT, 1)                                                                                 \
    AKGEN_SIM_COMMON_QUE(T, VECOUT, 2)

AKGEN_SIM_COMMON(half)
AKGEN_SIM_COMMON(float)

#undef AKGEN_SIM_COMMON
#undef AKGEN_SIM_COMMON_BINARY
#undef AKGEN_SIM_COMMON_QUE
#undef AKGEN_SIM_COMMON_UNARY
#undef AKGEN_SIM_COMMON_SCALAR
#undef AKGEN_SIM_INST
