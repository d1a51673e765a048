// akgen sim: the tiling macros of custom-op projects (op_host/*_tiling.h) and the kernel-side accessors.
//
// BEGIN_TILING_DATA_DEF(Name) ... END_TILING_DATA_DEF make a plain struct with set_x/get_x, SaveToBuffer and
// GetDataSize (host side) that the kernel reads back with GET_TILING_DATA. Which struct GET_TILING_DATA reads is
// akgen_tiling_struct_t, declared by the glue from the manifest (or the header's REGISTER_TILING_DATA_CLASS).
//
// SetDataPtr(p), as CANN's TilingDef::SetDataPtr: from then on the struct's data lives in the buffer at p (a
// TilingFunc binds its tiling data to context->GetRawTilingData()->GetData() and only calls SetDataSize afterwards,
// no SaveToBuffer). CANN keeps the fields in that buffer itself; our struct keeps them inline (the kernel reads the
// same plain layout), so a bound struct writes each set_x through to the buffer at the field's offset and copies
// itself whole into the buffer when it is destroyed (which also carries assignments of whole nested structs, such as
// MatmulApiTiling::GetTiling's). The buffer's earlier bytes are not read back, as in CANN where the new buffer's
// contents simply become the fields' values: SetDataPtr first loads the struct from the buffer.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "runtime.h"

namespace akgen_sim {
// The structs bound by SetDataPtr: [start, start + size) -> the buffer.
struct TilingBinding {
    const void* start;
    size_t size;
    void* buf;
};
// The live bindings: a plain array grown with realloc, not a std::vector: these functions are inline (host code that
// includes the tiling headers links no runtime of ours), and an inline function using a std:: container makes every
// kernel compile instantiate its templates again (see launcher/runtime.inc).
struct TilingBindings {
    TilingBinding* items = nullptr;
    size_t n = 0, cap = 0;
    TilingBinding* begin() { return items; }
    TilingBinding* end() { return items + n; }
    size_t size() const { return n; }
    bool empty() const { return n == 0; }
    TilingBinding& operator[](size_t i) { return items[i]; }
    void push_back(const TilingBinding& b) {
        if (n == cap) {
            size_t grown = cap ? 2 * cap : 16;
            auto* p = static_cast<TilingBinding*>(std::realloc(items, grown * sizeof(TilingBinding)));
            if (p == nullptr) std::abort();  // out of memory
            items = p;
            cap = grown;
        }
        items[n++] = b;
    }
    void erase_at(size_t i) {
        std::memmove(items + i, items + i + 1, (n - i - 1) * sizeof(TilingBinding));
        --n;
    }
};
inline TilingBindings& tiling_bindings() {
    static TilingBindings b;
    return b;
}
inline void tiling_bind(void* self, size_t size, void* buf) {
    auto& b = tiling_bindings();
    for (auto& e : b) {
        if (e.start == self) {
            e = {self, size, buf};
            if (buf) std::memcpy(self, buf, size);
            return;
        }
    }
    if (buf == nullptr) return;
    std::memcpy(self, buf, size);
    b.push_back({self, size, buf});
}
// A set_x of the struct at `self`: the field's bytes into the buffer of the bound struct that contains it (a nested
// struct writes through its outer one's binding).
inline void tiling_write_through(const void* field, size_t n) {
    auto& b = tiling_bindings();
    if (b.empty()) return;
    auto f = reinterpret_cast<uintptr_t>(field);
    for (auto& e : b) {
        auto s = reinterpret_cast<uintptr_t>(e.start);
        if (f >= s && f + n <= s + e.size) std::memcpy(static_cast<uint8_t*>(e.buf) + (f - s), field, n);
    }
}
// The struct at `self` ends: a bound struct leaves its final bytes in its buffer and is unbound.
inline void tiling_unbind(const void* self, size_t size) {
    auto& b = tiling_bindings();
    for (size_t i = 0; i < b.size(); ++i) {
        if (b[i].start == self) {
            if (b[i].buf) std::memcpy(b[i].buf, self, size < b[i].size ? size : b[i].size);
            b.erase_at(i);
            return;
        }
    }
}
}  // namespace akgen_sim

#define BEGIN_TILING_DATA_DEF(name)                                                                                    \
    struct name {                                                                                                      \
        ~name() { ::akgen_sim::tiling_unbind(this, sizeof(*this)); }                                                   \
        void SetDataPtr(void* p) { ::akgen_sim::tiling_bind(this, sizeof(*this), p); }
#define TILING_DATA_FIELD_DEF(type, field)                                                                             \
    type field = 0;                                                                                                    \
    void set_##field(type v) { field = v; ::akgen_sim::tiling_write_through(&field, sizeof(field)); }                 \
    type get_##field() const { return field; }
#define TILING_DATA_FIELD_DEF_ARR(type, num, field)                                                                    \
    type field[num] = {};                                                                                              \
    void set_##field(const type* v) {                                                                                  \
        std::memcpy(field, v, sizeof(field));                                                                          \
        ::akgen_sim::tiling_write_through(field, sizeof(field));                                                       \
    }                                                                                                                  \
    const type* get_##field() const { return field; }                                                                  \
    type* get_##field() { return field; }
#define TILING_DATA_FIELD_DEF_STRUCT(stype, field)                                                                     \
    stype field{};                                                                                                     \
    stype& get_##field() { return field; }                                                                             \
    void set_##field(const stype& v) { field = v; ::akgen_sim::tiling_write_through(&field, sizeof(field)); }
#define END_TILING_DATA_DEF                                                                                            \
    void SaveToBuffer(void* buf, size_t cap) const { std::memcpy(buf, this, cap < sizeof(*this) ? cap : sizeof(*this)); } \
    size_t GetDataSize() const { return sizeof(*this); }                                                               \
    };  /* the semicolon is part of the macro, as in CANN: `END_TILING_DATA_DEF` alone ends the struct */
#define REGISTER_TILING_DATA_CLASS(op, cls)

namespace akgen_sim {
inline int64_t& tiling_key() { static int64_t k = 0; return k; }
inline int& task_type() { static int t = -1; return t; }  // -1: not declared (mix: both core types)
// The glue's entry of a build for one tiling key (sim/tiling_key.py): a run of another key stops here.
inline void check_build_key(int64_t build_key, const loc_t& loc = loc_t::current()) {
    if (tiling_key() != build_key)
        fail("SIM-TILING-KEY", fmt("this kernel tests its tiling key in `if constexpr`, so it is built once per key; "
             "this build is for key %lld, the run's key is %lld: build it with the run's key (the manifest's "
             "tiling_key or its TilingFunc's)", static_cast<long long>(build_key),
             static_cast<long long>(tiling_key())), loc, "manifest");
}
template <typename T> inline T tiling_from(const uint8_t* p) {
    T t;
    if (p) std::memcpy(static_cast<void*>(&t), p, sizeof(T));
    return t;
}
}  // namespace akgen_sim

// Which struct GET_TILING_DATA reads: the kernel's REGISTER_TILING_DEFAULT(Struct) where it has one, else the glue's
// `akgen_tiling_struct_t` (from the manifest or the op_host header; a type alias, not a macro: a macro defined on the
// command line and named in a header would make g++ refuse the precompiled header). Both are declarations of the
// function `akgen_tiling_default`, never called, only asked for its type: REGISTER_TILING_DEFAULT declares
// `Struct akgen_tiling_default(int)` where it stands (in the kernel's body, which hides every outer declaration, or
// at namespace scope, where the `int` overload beats the glue's `long` one), the glue declares
// `akgen_tiling_struct_t akgen_tiling_default(long)`, and this header the fallback `(...)`, whose type says that no
// struct is known.
namespace akgen_sim {
struct NoTilingStruct {};
template <typename T> inline T tiling_read(const uint8_t* p) {
    static_assert(!std::is_same_v<T, NoTilingStruct>,
                  "GET_TILING_DATA: no tiling struct is known: register it in the kernel (REGISTER_TILING_DEFAULT(S)), "
                  "use GET_TILING_DATA_WITH_STRUCT(S, var, tiling), or name it in the manifest (tiling.struct)");
    return tiling_from<T>(p);
}
}  // namespace akgen_sim
::akgen_sim::NoTilingStruct akgen_tiling_default(...);
#define REGISTER_TILING_DEFAULT(st) st akgen_tiling_default(int)
#define REGISTER_TILING_FOR_TILINGKEY(expr, st) static_assert(sizeof(st) > 0, "a tiling struct")
// A kernel UT's own tiling header (ops-nn's tests/ut/op_kernel/<op>_tiling_def.h, given to the kernel with -include)
// may define GET_TILING_DATA for its struct, as CANN's CPU-debug build lets it: that definition stands.
#ifndef GET_TILING_DATA
#define GET_TILING_DATA(var, tiling)                                                                                   \
    decltype(akgen_tiling_default(0)) var = ::akgen_sim::tiling_read<decltype(akgen_tiling_default(0))>(tiling)
#endif
#define GET_TILING_DATA_WITH_STRUCT(st, var, tiling) st var = ::akgen_sim::tiling_from<st>(tiling)
#define GET_TILING_DATA_MEMBER(st, member, var, tiling)                                                                \
    decltype(st::member) var;                                                                                          \
    std::memcpy(&var, (tiling) + offsetof(st, member), sizeof(var))
#define GET_TILING_DATA_PTR_WITH_STRUCT(st, var, tiling) const st* var = reinterpret_cast<const st*>(tiling)
// TILING_KEY_IS(k): CANN's CPU debug compares the launch's key at run time (`extern uint64_t g_tilingKey`), so the
// kernel is built once for all keys. Its NPU build compiles the kernel once per tiling key with -DTILING_KEY_VAR=<key>,
// which makes TILING_KEY_IS a constant expression (a kernel may dispatch with `if constexpr (TILING_KEY_IS(1))`). A
// sim build of such a kernel is one per key too (sim/tiling_key.py): TILING_KEY_VAR is that build's key, and the
// glue's entry stops a run whose key is another one (SIM-TILING-KEY) rather than run none of the branches.
#ifdef TILING_KEY_VAR
#define TILING_KEY_IS(k) (static_cast<uint64_t>(TILING_KEY_VAR) == static_cast<uint64_t>(k))
#else
#define TILING_KEY_IS(k) (::akgen_sim::tiling_key() == static_cast<int64_t>(k))
#endif
#define KERNEL_TASK_TYPE_DEFAULT(t) (::akgen_sim::task_type() = static_cast<int>(t))
#define KERNEL_TASK_TYPE(key, t) ((void)(key), ::akgen_sim::task_type() = static_cast<int>(t))

enum KernelMetaType : int {
    KERNEL_TYPE_AIV_ONLY = 0, KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIV_1_0, KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1, KERNEL_TYPE_MIX_AIC_1_2, KERNEL_TYPE_AICORE, KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE, KERNEL_TYPE_MIX_VECTOR_CORE
};
