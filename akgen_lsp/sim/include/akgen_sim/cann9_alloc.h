// akgen sim: kernel-side APIs of CANN 9 that the single-source examples use: InitSocState, the Hardware enum and
// LocalMemAllocator (static UB allocation without TPipe/TQue).
//
// LocalMemAllocator<Hardware::UB> hands out consecutive pieces of the core's UB from its start (a bump pointer, as
// in CANN: head_ advances by sizeof(T) * tileSize per Alloc, no alignment added, nothing freed). Each piece is a
// buffer slot of the block, so the usual operand checks apply (32-byte alignment of UB addresses, bounds); an Alloc
// past the end of UB fails at the caller's line.
#pragma once

#include "cann9_misc.h"
#include "cann9_sync.h"
#include "pipe.h"

namespace AscendC {

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

constexpr TPosition GetDefaultPosition(Hardware hard) {
    switch (hard) {
        case Hardware::UB: return TPosition::VECCALC;
        case Hardware::L1: return TPosition::A1;
        case Hardware::L0A: return TPosition::A2;
        case Hardware::L0B: return TPosition::B2;
        case Hardware::L0C: return TPosition::CO1;
        case Hardware::BIAS: return TPosition::C2;
        default: return TPosition::MAX;
    }
}

constexpr Hardware GetPhyType(TPosition pos) {
    switch (pos) {
        case TPosition::GM: return Hardware::GM;
        case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM: return Hardware::L1;
        case TPosition::A2: return Hardware::L0A;
        case TPosition::B2: return Hardware::L0B;
        case TPosition::CO1: return Hardware::L0C;
        case TPosition::C2: return Hardware::BIAS;
        default: return Hardware::UB;
    }
}

// Resets the state a kernel may not assume (vector mask in normal mode and all ones, no atomic mode).
inline void InitSocState() {
    akgen_sim::BlockCtx& c = akgen_sim::ctx();
    c.mask_counter = false;
    c.mask_hi = ~0ull;
    c.mask_lo = ~0ull;
    c.atomic = 0;
}

namespace detail {
// A tensor of tileSize elements at byte offset `addr` of the memory of `pos` (UB, L1, L0A/B/C, bias table): a buffer
// slot of the block, so the operand checks apply; past the end of that memory fails at the caller's line.
template <class T>
inline LocalTensor<T> fixed_tensor(TPosition pos, uint32_t addr, uint32_t tileSize, const char* api,
                                   const akgen_sim::loc_t& loc) {
    akgen_sim::touch(api, loc);
    akgen_sim::BlockCtx& c = akgen_sim::ctx();
    const akgen_sim::Config& k = akgen_sim::cfg();
    uint64_t limit = k.ub_bytes;
    uint8_t* base = c.ub;
    switch (mem_of(pos)) {
        case Mem::L1: limit = k.l1_bytes; base = c.l1; break;
        case Mem::L0A: limit = k.l0a_bytes; base = c.l0a; break;
        case Mem::L0B: limit = k.l0b_bytes; base = c.l0b; break;
        case Mem::L0C: limit = k.l0c_bytes; base = c.l0c; break;
        case Mem::BT: limit = sizeof(c.bt); base = c.bt; break;
        default: break;
    }
    uint64_t bytes = static_cast<uint64_t>(tileSize) * sizeof(T);
    if (static_cast<uint64_t>(addr) + bytes > limit) {
        // as in TPipe::InitBuffer (pipe.h): a CPU-debug check; npu mode places the tensor past the end (inside the
        // launcher's arena_bytes() mapping) and bounds every access by the physical size
        auto msg = akgen_sim::fmt("%s: %llu bytes at address %u exceed the %llu bytes of %s", api,
                                  static_cast<unsigned long long>(bytes), addr, static_cast<unsigned long long>(limit),
                                  mem_name(mem_of(pos)));
        uint64_t mapped = mem_of(pos) == Mem::BT ? limit : akgen_sim::arena_bytes(limit);
        if (akgen_sim::npu_checks() && static_cast<uint64_t>(addr) + bytes > mapped) {
            akgen_sim::fail("SIM-UB-LIMIT", akgen_sim::fmt("%s; the simulator cannot place a tensor this far past the "
                                                           "end of %s", msg.s, mem_name(mem_of(pos))),
                            loc, "memory", api);
        }
        auto npu_msg = akgen_sim::fmt("%s; on the NPU the part past %llu bytes does not exist, and an access to it "
                                      "fails", msg.s, static_cast<unsigned long long>(limit));
        akgen_sim::cpu_debug_check("SIM-UB-LIMIT", akgen_sim::npu_checks() ? npu_msg : msg, loc, "memory", api);
    }
    akgen_sim::Slot* s = &akgen_sim::new_slot(c);
    s->base = base + addr;
    s->bytes = static_cast<uint32_t>(bytes);
    s->pos = pos;
    s->state = akgen_sim::SlotState::TBUF;
    s->owner = "LocalTensor";
    s->alloc_loc = loc;
    if (mem_of(pos) == Mem::UB && addr + bytes > c.ub_used) c.ub_used = addr + bytes;
    return LocalTensor<T>(reinterpret_cast<T*>(s->base), tileSize, s, pos);
}
}  // namespace detail

template <typename T>
LocalTensor<T>::LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, akgen_sim::loc_t loc)
    : LocalTensor(detail::fixed_tensor<T>(pos, addr, tileSize, "LocalTensor", loc)) {}

template <Hardware hard = Hardware::UB> class LocalMemAllocator {
    static_assert(hard != Hardware::GM && hard != Hardware::MAX, "illegal hardware position GM or MAX");

public:
    LocalMemAllocator() = default;
    uint32_t GetCurAddr() const { return head_; }

    template <TPosition pos, class T, uint32_t tileSize> LocalTensor<T> Alloc(AKGEN_LOC) {
        static_assert(GetPhyType(pos) == hard, "logic pos and hardware pos not matched.");
        return take<T>(pos, tileSize, loc);
    }
    template <TPosition pos, class T> LocalTensor<T> Alloc(uint32_t tileSize, AKGEN_LOC) {
        static_assert(GetPhyType(pos) == hard, "logic pos and hardware pos not matched.");
        return take<T>(pos, tileSize, loc);
    }
    template <class T, uint32_t tileSize> LocalTensor<T> Alloc(AKGEN_LOC) {
        return take<T>(GetDefaultPosition(hard), tileSize, loc);
    }
    template <class T> LocalTensor<T> Alloc(uint32_t tileSize, AKGEN_LOC) {
        return take<T>(GetDefaultPosition(hard), tileSize, loc);
    }

private:
    template <class T> LocalTensor<T> take(TPosition pos, uint32_t tileSize, const akgen_sim::loc_t& loc) {
        LocalTensor<T> t = detail::fixed_tensor<T>(pos, head_, tileSize, "LocalMemAllocator::Alloc", loc);
        head_ += static_cast<uint32_t>(static_cast<uint64_t>(tileSize) * sizeof(T));
        return t;
    }
    uint32_t head_ = 0;
};

}  // namespace AscendC

namespace akgen_sim {
// ascendc_assert(cond[, fmt, args...]): a failed assertion stops the block, reported at the caller's line.
inline void ascendc_assert_impl(bool ok, const char* text, const loc_t& loc = loc_t::current()) {
    if (!ok) fail("SIM-ASSERT", fmt("ascendc_assert(%s) failed", text), loc, "logic", "ascendc_assert");
}
}  // namespace akgen_sim
#ifndef ascendc_assert
#define ascendc_assert(cond, ...) ::akgen_sim::ascendc_assert_impl(static_cast<bool>(cond), #cond)
#endif
