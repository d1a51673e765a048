// akgen sim: the tiling macros of custom-op projects (op_host/*_tiling.h) and the kernel-side accessors.
//
// BEGIN_TILING_DATA_DEF(Name) ... END_TILING_DATA_DEF make a plain struct with set_x/get_x, SaveToBuffer and
// GetDataSize (host side) that the kernel reads back with GET_TILING_DATA. Which struct GET_TILING_DATA reads is
// akgen_tiling_struct_t, declared by the glue from the manifest (or the header's REGISTER_TILING_DATA_CLASS).
#pragma once

#include <cstring>

#include "runtime.h"

#define BEGIN_TILING_DATA_DEF(name) struct name {
#define TILING_DATA_FIELD_DEF(type, field)                                                                             \
    type field = 0;                                                                                                    \
    void set_##field(type v) { field = v; }                                                                            \
    type get_##field() const { return field; }
#define TILING_DATA_FIELD_DEF_ARR(type, num, field)                                                                    \
    type field[num] = {};                                                                                              \
    void set_##field(const type* v) { std::memcpy(field, v, sizeof(field)); }                                         \
    const type* get_##field() const { return field; }                                                                  \
    type* get_##field() { return field; }
#define TILING_DATA_FIELD_DEF_STRUCT(stype, field)                                                                     \
    stype field{};                                                                                                     \
    stype& get_##field() { return field; }                                                                             \
    void set_##field(const stype& v) { field = v; }
#define END_TILING_DATA_DEF                                                                                            \
    void SaveToBuffer(void* buf, size_t cap) const { std::memcpy(buf, this, cap < sizeof(*this) ? cap : sizeof(*this)); } \
    size_t GetDataSize() const { return sizeof(*this); }                                                               \
    };  /* the semicolon is part of the macro, as in CANN: `END_TILING_DATA_DEF` alone ends the struct */
#define REGISTER_TILING_DATA_CLASS(op, cls)

namespace akgen_sim {
inline int64_t& tiling_key() { static int64_t k = 0; return k; }
inline int& task_type() { static int t = -1; return t; }  // -1: not declared (mix: both core types)
template <typename T> inline T tiling_from(const uint8_t* p) {
    T t;
    if (p) std::memcpy(static_cast<void*>(&t), p, sizeof(T));
    return t;
}
}  // namespace akgen_sim

// `akgen_tiling_struct_t` is declared by the generated glue (a type alias, not a macro: a macro defined on the command
// line and named in a header would make g++ refuse the precompiled header).
#define GET_TILING_DATA(var, tiling) akgen_tiling_struct_t var = ::akgen_sim::tiling_from<akgen_tiling_struct_t>(tiling)
#define GET_TILING_DATA_WITH_STRUCT(st, var, tiling) st var = ::akgen_sim::tiling_from<st>(tiling)
#define GET_TILING_DATA_MEMBER(st, member, var, tiling)                                                                \
    decltype(st::member) var;                                                                                          \
    std::memcpy(&var, (tiling) + offsetof(st, member), sizeof(var))
#define GET_TILING_DATA_PTR_WITH_STRUCT(st, var, tiling) const st* var = reinterpret_cast<const st*>(tiling)
#define TILING_KEY_IS(k) (::akgen_sim::tiling_key() == static_cast<int64_t>(k))
#define KERNEL_TASK_TYPE_DEFAULT(t) (::akgen_sim::task_type() = static_cast<int>(t))
#define KERNEL_TASK_TYPE(key, t) ((void)(key), ::akgen_sim::task_type() = static_cast<int>(t))

enum KernelMetaType : int {
    KERNEL_TYPE_AIV_ONLY = 0, KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIV_1_0, KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1, KERNEL_TYPE_MIX_AIC_1_2, KERNEL_TYPE_AICORE, KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE, KERNEL_TYPE_MIX_VECTOR_CORE
};
