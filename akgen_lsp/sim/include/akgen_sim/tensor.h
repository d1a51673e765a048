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
inline const char* mem_name(Mem m) {
    switch (m) {
        case Mem::L1: return "L1";
        case Mem::L0A: return "L0A";
        case Mem::L0B: return "L0B";
        case Mem::L0C: return "L0C";
        case Mem::BT: return "BT";
        default: return "UB";
    }
}

// The physical memory of a position in the current block: where the launcher mapped it and its hardware size (the
// launcher maps arena_bytes() of it; only the first `bytes` exist on the NPU).
struct PhysMem { const uint8_t* base; uint64_t bytes; Mem mem; };
inline PhysMem phys_mem(TPosition p) {
    akgen_sim::BlockCtx& c = akgen_sim::ctx();
    const akgen_sim::Config& k = akgen_sim::cfg();
    Mem m = mem_of(p);
    switch (m) {
        case Mem::L1: return {c.l1, k.l1_bytes, m};
        case Mem::L0A: return {c.l0a, k.l0a_bytes, m};
        case Mem::L0B: return {c.l0b, k.l0b_bytes, m};
        case Mem::L0C: return {c.l0c, k.l0c_bytes, m};
        case Mem::BT: return {c.bt, sizeof(c.bt), m};
        default: return {c.ub, k.ub_bytes, m};
    }
}

// An access to bytes [a, a + bytes) of the memory of `pos` reaches past the end of that memory on the hardware (an
// address the NPU does not have): the block ends with SIM-UB-OOB (UB) or SIM-MEM-OOB (L1, L0A/B/C, bias table).
// An address below the memory's start is left to the caller's own checks.
inline void check_phys(const void* a, uint64_t bytes, TPosition pos, const char* role, const char* api,
                       const akgen_sim::loc_t& loc) {
    PhysMem pm = phys_mem(pos);
    const uint8_t* p = static_cast<const uint8_t*>(a);
    if (pm.base == nullptr || p < pm.base) return;
    uint64_t off = static_cast<uint64_t>(p - pm.base);
    if (off + bytes <= pm.bytes) return;
    if (pm.mem == Mem::UB) {
        akgen_sim::fail("SIM-UB-OOB", akgen_sim::fmt("%s: the ub address out of bounds (%s tensor at UB offset %llu, "
                                                     "%llu bytes; UB has %llu bytes)", api, role,
                                                     static_cast<unsigned long long>(off),
                                                     static_cast<unsigned long long>(bytes),
                                                     static_cast<unsigned long long>(pm.bytes)),
                        loc, "memory", api);
    }
    akgen_sim::fail("SIM-MEM-OOB", akgen_sim::fmt("%s: the %s address out of bounds (%s tensor at %s offset %llu, %llu "
                                                  "bytes; %s has %llu bytes)", api, mem_name(pm.mem), role,
                                                  mem_name(pm.mem), static_cast<unsigned long long>(off),
                                                  static_cast<unsigned long long>(bytes), mem_name(pm.mem),
                                                  static_cast<unsigned long long>(pm.bytes)),
                    loc, "memory", api);
}
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
        if (slot_ == nullptr) {
            akgen_sim::fail("SIM-TENSOR-UNINIT",
                            akgen_sim::fmt("%s: the %s tensor was never allocated (no AllocTensor, DeQue or TBuf::Get "
                                           "gave it a buffer)", api, role),
                            loc, "scope", api);
        }
        if (slot_->gen != gen_) {
            auto msg = akgen_sim::fmt("%s: the %s tensor is used after FreeTensor released its buffer (ErrorRead1: "
                                      "read of freed memory)", api, role);
            if (queue_op) akgen_sim::fail("SIM-TENSOR-FREED", msg, loc, "memory", api);
            akgen_sim::cpu_debug_check("SIM-TENSOR-FREED", msg, loc, "memory", api);
        }
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
        const uint8_t* begin = reinterpret_cast<const uint8_t*>(addr_ + offset);
        const uint8_t* end = reinterpret_cast<const uint8_t*>(addr_ + offset + count);
        if (region_ < 0) {
            if (addr_ == nullptr) {
                akgen_sim::fail("SIM-GM-NULL", akgen_sim::fmt("%s: the GlobalTensor has no buffer (call "
                                                              "SetGlobalBuffer first)", api), loc, "scope", api);
            }
            return;
        }
        const akgen_sim::GmRegion& r = akgen_sim::gm_regions()[static_cast<size_t>(region_)];
        if (begin < r.base || end > r.base + r.bytes) {
            long long lo = static_cast<long long>(begin - r.base);
            long long hi = static_cast<long long>(end - r.base);
            akgen_sim::fail(write ? "SIM-GM-OOB-WRITE" : "SIM-GM-OOB-READ",
                            akgen_sim::fmt("%s %s bytes [%lld, %lld) of GM buffer '%s', which has %llu bytes "
                                           "(%s: out of bounds)", api, write ? "writes" : "reads", lo, hi,
                                           r.name, static_cast<unsigned long long>(r.bytes),
                                           write ? "ErrorWrite3" : "ErrorRead3"),
                            loc, "memory", api);
        }
        if (r.logical < r.bytes && end > r.base + r.logical) {
            akgen_sim::warn(write ? "SIM-GM-PAD-WRITE" : "SIM-GM-PAD-READ",
                            akgen_sim::fmt("%s %s bytes [%lld, %lld) of GM tensor '%s', which has %llu bytes: past its "
                                           "end but inside the allocation's padding (the NPU allocates in 512-byte "
                                           "steps); the data there is not part of the tensor", api,
                                           write ? "writes" : "reads", static_cast<long long>(begin - r.base),
                                           static_cast<long long>(end - r.base), r.name,
                                           static_cast<unsigned long long>(r.logical)),
                            loc, "memory", api);
        }
        if (size_ != 0 && offset + count > size_) {
            akgen_sim::warn("SIM-GM-RANGE",
                            akgen_sim::fmt("%s %s elements [%llu, %llu) of a GlobalTensor set up with %llu elements: "
                                           "it stays inside GM buffer '%s' but past what SetGlobalBuffer gave this block",
                                           api, write ? "writes" : "reads", static_cast<unsigned long long>(offset),
                                           static_cast<unsigned long long>(offset + count),
                                           static_cast<unsigned long long>(size_), r.name),
                            loc, "memory", api);
        }
        const uint64_t b = static_cast<uint64_t>(begin - r.base), e = static_cast<uint64_t>(end - r.base);
        if (akgen_sim::cfg().sanitize) {  // initcheck
            if (write) akgen_sim::gm_wrote(region_, b, e);
            else if (r.init != nullptr) akgen_sim::gm_check_read(region_, b, e, api, loc);
        }
        if (write && akgen_sim::ctx().atomic == 0) akgen_sim::record_gm_write(region_, b, e, loc);  // racecheck
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
    if (need_ub && !AscendC::is_ub_position(t.pos_)) {
        fail("SIM-POSITION", fmt("%s: the %s tensor is not in UB (its position is not VECIN, VECOUT or VECCALC)", api,
                                 role), loc, "api_mismatch", api);
    }
    const uint8_t* a = reinterpret_cast<const uint8_t*>(t.addr_);
    if (need_ub) {
        BlockCtx& c = ctx();
        uint64_t off = static_cast<uint64_t>(a - c.ub);
        if (a < c.ub || off + bytes > cfg().ub_bytes) {
            fail("SIM-UB-OOB", fmt("%s: the ub address out of bounds (%s tensor at UB offset %lld, %llu bytes; UB has "
                                   "%llu bytes)", api, role, static_cast<long long>(a - c.ub),
                                   static_cast<unsigned long long>(bytes),
                                   static_cast<unsigned long long>(cfg().ub_bytes)), loc, "memory", api);
        }
        if (off % 32 != 0) {
            fail("SIM-UB-ALIGN", fmt("Failed to check %s tensor address alignment in %s, current tensor address is "
                                     "%llu, which should be 32 byte aligned.", role, api,
                                     static_cast<unsigned long long>(off)), loc, "memory", api);
        }
        // initcheck: a `src...` operand is read; any other operand may be written (dst, the adv APIs' outputs and
        // scratch), so it counts as written: no warning from an operand whose role the check cannot tell
        if (cfg().sanitize) {
            if (role[0] == 's' && role[1] == 'r' && role[2] == 'c') ub_check_read(a, bytes, role, api, loc);
            else ub_will_write(a, bytes);
        }
    } else {
        AscendC::detail::check_phys(a, bytes, t.pos_, role, api, loc);
    }
    uint64_t have = static_cast<uint64_t>(t.size_) * sizeof(T);
    if (bytes > have) {
        cpu_debug_check("SIM-UB-SIZE", fmt("Failed to check %s size in %s, tensor size needs to be at least %llu "
                                           "bytes, while current tensor size is only %llu bytes.", role, api,
                                           static_cast<unsigned long long>(bytes),
                                           static_cast<unsigned long long>(have)),
                        loc, "memory", api);
    }
}

// Data dependencies for the cost model: an op reading `src` and writing `dst` starts after both are ready.
inline double ready_for_write(const Slot* s) { return s ? std::max(s->write_end, s->read_end) : 0.0; }
inline double ready_for_read(const Slot* s) { return s ? s->write_end : 0.0; }
inline void wrote(Slot* s, double end) { if (s) s->write_end = std::max(s->write_end, end); }
inline void read_by(Slot* s, double end) { if (s) s->read_end = std::max(s->read_end, end); }

}  // namespace akgen_sim
