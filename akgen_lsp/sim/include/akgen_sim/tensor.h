// akgen sim: GlobalTensor (GM) and LocalTensor (UB / L1 / L0) handles, with the checks every API shares.
#pragma once

#include "runtime.h"
#include "shape_info.h"

namespace akgen_sim {
// A LocalTensor of int4b_t (or a ReinterpretCast to one): its elements are half bytes, which the tensors here do not
// address; stop at the API call that made it rather than compute on the wrong bytes.
[[noreturn]] inline void int4_unsupported(const loc_t& loc, const char* api) {
    fail("SIM-UNSUPPORTED", "a tensor of int4b_t (two 4-bit elements per byte) is not emulated yet; the simulator "
                            "runs the int8_t / half / float forms of the APIs", loc, "api_mismatch", api);
}

// The type-independent work of the tensors' checks, compiled once in the launcher (launcher/api_core.inc): a kernel
// compiles only the typed calls. check_live: the tensor has a live buffer (slot, generation); gm_check_access: a GM
// access [begin, end) of a GlobalTensor (its region, its element count `size`, 0 if not given); check_local_bytes:
// a LocalTensor operand at `a` holding `have` bytes, of which an op touches `bytes`.
void check_live(const Slot* slot, uint32_t gen, const char* api, const char* role, const loc_t& loc, bool queue_op);
void gm_check_access(const uint8_t* begin, const uint8_t* end, bool null_base, int region, uint64_t size,
                     uint64_t offset, uint64_t count, bool write, const char* api, const loc_t& loc);
void check_local_bytes(const uint8_t* a, AscendC::TPosition pos, uint64_t have, const char* role, const char* api,
                       uint64_t bytes, const loc_t& loc, bool need_ub);
}  // namespace akgen_sim

namespace AscendC {

template <typename T> class LocalTensor;
template <typename T> class GlobalTensor;

inline bool is_ub_position(TPosition p) {
    return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC;
}

namespace detail {
enum class Mem { UB, L1, L0A, L0B, L0C, BT };
inline Mem mem_of(TPosition p) {
    switch (p) {
        case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM: return Mem::L1;
        case TPosition::A2: return Mem::L0A;
        case TPosition::B2: return Mem::L0B;
        case TPosition::CO1: return Mem::L0C;
        case TPosition::C2: return Mem::BT;
        default: return Mem::UB;
    }
}
const char* mem_name(Mem m);  // launcher/api_core.inc

// The physical memory of a position in the current block: where the launcher mapped it and its hardware size (the
// launcher maps arena_bytes() of it; only the first `bytes` exist on the NPU).
struct PhysMem { const uint8_t* base; uint64_t bytes; Mem mem; };
PhysMem phys_mem(TPosition p);  // launcher/api_core.inc

// An access to bytes [a, a + bytes) of the memory of `pos` reaches past the end of that memory on the hardware (an
// address the NPU does not have): the block ends with SIM-UB-OOB (UB) or SIM-MEM-OOB (L1, L0A/B/C, bias table).
// An address below the memory's start is left to the caller's own checks.
void check_phys(const void* a, uint64_t bytes, TPosition pos, const char* role, const char* api,
                const akgen_sim::loc_t& loc);  // launcher/api_core.inc
}  // namespace detail

template <typename T> class LocalTensor {
public:
    using PrimType = T;
    T* addr_ = nullptr;
    uint32_t size_ = 0;  // elements visible through this handle
    akgen_sim::Slot* slot_ = nullptr;
    uint32_t gen_ = 0;
    TPosition pos_ = TPosition::VECCALC;

    LocalTensor() = default;
    LocalTensor(T* addr, uint32_t size, akgen_sim::Slot* slot, TPosition pos)
        : addr_(addr), size_(size), slot_(slot), gen_(slot ? slot->gen : 0), pos_(pos) {
        // made by AllocTensor / Get, the last API call
        if constexpr (std::is_same_v<T, int4b_t>) {
            akgen_sim::int4_unsupported(akgen_sim::ctx().last, akgen_sim::ctx().last_api);
        }
    }
    // CANN 9: a tensor of tileSize elements at byte address addr of the position's memory (akgen_sim/cann9_alloc.h)
    LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, AKGEN_LOC);

    // Sub-tensor from element `offset` (operator[] cannot carry a source location: checks use the last API call's).
    LocalTensor operator[](uint32_t offset) const {
        LocalTensor t = *this;
        t.addr_ = addr_ + offset;
        t.size_ = offset <= size_ ? size_ - offset : 0;
        return t;
    }
    uint32_t GetSize() const { return size_; }
    uint32_t GetLength() const { return size_ * static_cast<uint32_t>(sizeof(T)); }
    void SetSize(uint32_t size) { size_ = size; }
    // The shape high-level APIs read when their shape argument is {} (shape_info.h).
    ShapeInfo shapeInfo_{};
    void SetShapeInfo(const ShapeInfo& shapeInfo) { shapeInfo_ = shapeInfo; }
    ShapeInfo GetShapeInfo() const { return shapeInfo_; }
    TPosition GetPosition() const { return pos_; }
    uint64_t GetPhyAddr() const { return reinterpret_cast<uint64_t>(addr_); }
    uint64_t GetPhyAddr(uint32_t offset) const { return reinterpret_cast<uint64_t>(addr_ + offset); }
    void SetAddrWithOffset(LocalTensor<T>& src, uint32_t offset) { *this = src[offset]; }
    template <typename U> LocalTensor<U> ReinterpretCast(AKGEN_LOC) const {
        if constexpr (std::is_same_v<U, int4b_t>) akgen_sim::int4_unsupported(loc, "ReinterpretCast");
        LocalTensor<U> t;
        t.addr_ = reinterpret_cast<U*>(addr_);
        t.size_ = static_cast<uint32_t>(static_cast<uint64_t>(size_) * sizeof(T) / sizeof(U));
        t.slot_ = slot_;
        t.gen_ = gen_;
        t.pos_ = pos_;
        return t;
    }

    // Byte offset of this view from the start of its memory (UB for VECIN/VECOUT/VECCALC).
    uint64_t ub_offset() const {
        return static_cast<uint64_t>(reinterpret_cast<uint8_t*>(addr_) - akgen_sim::ctx().ub);
    }
    // Allocated, and not released by FreeTensor. A stale tensor (used after FreeTensor) fails in cpu-debug mode; in
    // npu mode it warns and the access goes on to whatever its buffer holds now (the NPU keeps no tensor state), unless
    // `queue_op`: queue protocol (EnQue of a freed tensor) always fails.
    void check_live(const char* api, const char* role, const akgen_sim::loc_t& loc, bool queue_op = false) const {
        akgen_sim::check_live(slot_, gen_, api, role, loc, queue_op);
    }
    // Element access (scalar unit): a scalar load or store of local memory costs the profile's
    // cost.scalar.get_value_cycles (the "ub_scalar" row; read once, the profile is loaded before any kernel runs).
    static double scalar_cycles() {
        static const double c = akgen_sim::cfg().op("ub_scalar").startup;
        return c;
    }
    T GetValue(uint32_t i, AKGEN_LOC) const {
        akgen_sim::touch("GetValue", loc);
        check_live("GetValue", "source", loc);
        detail::check_phys(addr_ + i, sizeof(T), pos_, "source", "GetValue", loc);
        if (i >= size_) {
            akgen_sim::cpu_debug_check("SIM-UB-OOB", akgen_sim::fmt("GetValue(%u) reads beyond the tensor, which "
                                                                    "holds %u elements (ErrorRead3: out of bounds)",
                                                                    i, size_), loc, "memory", "GetValue");
        }
        if (akgen_sim::cfg().sanitize) akgen_sim::ub_check_read(addr_ + i, sizeof(T), "source", "GetValue", loc);
        akgen_sim::charge_scalar(scalar_cycles());
        return addr_[i];
    }
    template <typename V> void SetValue(uint32_t i, V v, AKGEN_LOC) const {
        akgen_sim::touch("SetValue", loc);
        check_live("SetValue", "destination", loc);
        detail::check_phys(addr_ + i, sizeof(T), pos_, "destination", "SetValue", loc);
        if (i >= size_) {
            akgen_sim::cpu_debug_check("SIM-UB-OOB", akgen_sim::fmt("SetValue(%u) writes beyond the tensor, which "
                                                                    "holds %u elements (ErrorWrite3: out of bounds)",
                                                                    i, size_), loc, "memory", "SetValue");
        }
        if (akgen_sim::cfg().sanitize) akgen_sim::ub_will_write(addr_ + i, sizeof(T));
        akgen_sim::charge_scalar(scalar_cycles());
        addr_[i] = static_cast<T>(v);
    }
    T& operator()(uint32_t i) const { return addr_[i]; }

    // `dst = a + b` and friends: expression objects (vec_binary.h) assign themselves through their API.
    template <typename E, typename = decltype(E::is_tensor_expr)> LocalTensor& operator=(const E& e) {
        e.assign_to(*this);
        return *this;
    }
    LocalTensor& operator=(const LocalTensor&) = default;
    LocalTensor(const LocalTensor&) = default;
};

template <typename T> class GlobalTensor {
public:
    using PrimType = T;
    T* addr_ = nullptr;
    uint64_t size_ = 0;  // elements; 0 = not given
    int region_ = -1;
    int l2_mode_ = 1;  // SetL2CacheHint's CacheMode (0 CACHE_MODE_DISABLE: the cost model bypasses the L2)

    GlobalTensor() = default;
    void SetGlobalBuffer(T* buffer, uint64_t size, AKGEN_LOC) {
        akgen_sim::touch("SetGlobalBuffer", loc);
        addr_ = buffer;
        size_ = size;
        region_ = find_region(reinterpret_cast<uint8_t*>(buffer));
        if (region_ < 0 && buffer != nullptr) {
            akgen_sim::warn("SIM-GM-UNKNOWN",
                            "SetGlobalBuffer: the address is not inside any GM buffer passed to the kernel "
                            "(an argument, the workspace or GmAlloc); accesses through it cannot be checked",
                            loc, "memory", "SetGlobalBuffer");
        }
        akgen_sim::charge_scalar();
    }
    void SetGlobalBuffer(T* buffer, AKGEN_LOC) { SetGlobalBuffer(buffer, 0, loc); }
    GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor t = *this;
        t.addr_ = addr_ + offset;
        t.size_ = size_ == 0 ? 0 : (offset <= size_ ? size_ - offset : 0);
        return t;
    }
    uint64_t GetSize() const { return size_; }
    T* GetPhyAddr() const { return addr_; }
    T* GetPhyAddr(uint64_t offset) const { return addr_ + offset; }
    template <typename U> GlobalTensor<U> ReinterpretCast() const {
        GlobalTensor<U> t;
        t.addr_ = reinterpret_cast<U*>(addr_);
        t.size_ = size_ * sizeof(T) / sizeof(U);
        t.region_ = region_;
        t.l2_mode_ = l2_mode_;
        return t;
    }
    template <typename H> void SetL2CacheHint(H mode) { l2_mode_ = static_cast<int>(mode); }
    template <auto RW, typename H> void SetL2CacheHint(H mode) { l2_mode_ = static_cast<int>(mode); }
    T GetValue(uint64_t i, AKGEN_LOC) const {
        akgen_sim::touch("GetValue", loc);
        check_access(i, 1, false, "GetValue", loc);
        akgen_sim::charge_scalar(10);
        akgen_sim::ctx().gm_scalar_read += sizeof(T);
        return addr_[i];
    }
    template <typename V> void SetValue(uint64_t i, V v, AKGEN_LOC) const {
        akgen_sim::touch("SetValue", loc);
        check_access(i, 1, true, "SetValue", loc);
        akgen_sim::charge_scalar(10);
        akgen_sim::ctx().gm_scalar_write += sizeof(T);
        addr_[i] = static_cast<T>(v);
    }
    T& operator()(uint64_t i) const { return addr_[i]; }

    static int find_region(const uint8_t* p) {
        auto& rs = akgen_sim::gm_regions();
        for (size_t k = 0; k < rs.size(); ++k) {
            if (p >= rs[k].base && p < rs[k].base + rs[k].bytes) return static_cast<int>(k);
        }
        return -1;
    }

    // Elements [offset, offset+count) are read or written: inside the GM buffer? Records GM writes per block.
    void check_access(uint64_t offset, uint64_t count, bool write, const char* api, const akgen_sim::loc_t& loc) const {
        if (count == 0) return;
        akgen_sim::gm_check_access(reinterpret_cast<const uint8_t*>(addr_ + offset),
                                   reinterpret_cast<const uint8_t*>(addr_ + offset + count), addr_ == nullptr, region_,
                                   size_, offset, count, write, api, loc);
    }
};

}  // namespace AscendC

namespace akgen_sim {

// Shared checks for a LocalTensor operand of a vector/DMA API: allocated and alive, in the right memory, inside the
// physical memory for the `bytes` the op touches, 32-byte aligned (UB), and holding at least `bytes` (the last is a
// CPU-debug check: the NPU does not know tensor sizes, so npu mode only warns; see cpu_debug_check).
template <typename T>
inline void check_local(const AscendC::LocalTensor<T>& t, const char* role, const char* api, uint64_t bytes,
                        const loc_t& loc, bool need_ub = true) {
    t.check_live(api, role, loc);
    check_local_bytes(reinterpret_cast<const uint8_t*>(t.addr_), t.pos_, static_cast<uint64_t>(t.size_) * sizeof(T),
                      role, api, bytes, loc, need_ub);
}

// Data dependencies for the cost model: an op reading `src` and writing `dst` starts after both are ready.
inline double ready_for_write(const Slot* s) { return s ? std::max(s->write_end, s->read_end) : 0.0; }
inline double ready_for_read(const Slot* s) { return s ? s->write_end : 0.0; }
inline void wrote(Slot* s, double end) { if (s) s->write_end = std::max(s->write_end, end); }
inline void read_by(Slot* s, double end) { if (s) s->read_end = std::max(s->read_end, end); }

}  // namespace akgen_sim
