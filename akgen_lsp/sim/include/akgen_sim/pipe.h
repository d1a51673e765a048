// akgen sim: TPipe, TQueBind / TQue, TBuf — the buffer protocol of the real API, with its checks.
#pragma once

#include "tensor.h"

namespace akgen_sim {
// A local tensor of an element type the arch profile lists as unsupported (bfloat16_t on Ascend310P) fails where it
// is allocated (launcher.cpp).
void check_arch_dtype(const char* dtype, const loc_t& loc);
template <typename T>
inline void check_arch_type(const loc_t& loc) {
    if constexpr (std::is_same_v<T, bfloat16_t>) check_arch_dtype("bfloat16_t", loc);
}
}  // namespace akgen_sim

namespace AscendC {


class TPipe;
inline TPipe*& current_pipe() { static thread_local TPipe* p = nullptr; return p; }

using TBufHandle = uint8_t*;  // a queue buffer's handle (kernel_tensor_base.h)

// The queue / buffer base shared by TQueBind and TBuf: the slots InitBuffer gave it.
struct TQueBase {
    static constexpr int kMaxSlots = 64;
    akgen_sim::Slot* slots_[kMaxSlots] = {};
    int num_ = 0;
    TPosition pos_ = TPosition::VECCALC;
    // What a user's TBufPool (EXTERN_IMPL_BUFPOOL) calls to give the queue its buffers: the first, then each at
    // byte `addr` of the pool's memory (defined in bufpool.h).
    void InitStartBufHandle(uint8_t* handle, uint8_t num, uint32_t len);
    template <class P> void InitBufHandle(P* pool, uint32_t index, uint8_t* handle, uint32_t addr, uint32_t len);
};

template <TPosition src, TPosition dst, int32_t depth, auto... mask> class TQueBind : public TQueBase {
public:
    static constexpr TPosition kPos = (src == TPosition::GM) ? dst : src;
    akgen_sim::Slot* fifo_[kMaxSlots] = {};
    int head_ = 0, count_ = 0, next_ = 0;

    TQueBind() { pos_ = kPos; }

    template <typename T> LocalTensor<T> AllocTensor(AKGEN_LOC) {
        static_assert(depth != 0, "must use AllocTensor<LocalTensor&> api while tque's depth is zero");
        LocalTensor<T> t;
        alloc_into(t, loc);
        return t;
    }
    template <typename T> void AllocTensor(LocalTensor<T>& t, AKGEN_LOC) { alloc_into(t, loc); }

    template <typename T> bool EnQue(const LocalTensor<T>& t, AKGEN_LOC) {
        akgen_sim::touch("EnQue", loc);
        t.check_live("EnQue", "enqueued", loc, true);
        akgen_sim::Slot* s = t.slot_;
        if (!owns(s)) {
            akgen_sim::fail("SIM-QUE-FOREIGN", "EnQue: the tensor was not allocated from this queue (ErrorBuffer1: "
                                               "buffer not from this queue's InitBuffer)", loc, "memory", "EnQue");
        }
        int limit = depth == 0 ? num_ : depth;
        if (count_ >= limit) {
            akgen_sim::fail("SIM-QUE-DEPTH",
                            akgen_sim::fmt("EnQue beyond the queue depth: %d tensors are already queued and the depth "
                                           "is %d (DeQue one first, or give the TQue a larger depth)", count_, limit),
                            loc, "memory", "EnQue");
        }
        if (s->state == akgen_sim::SlotState::ENQUEUED) {
            akgen_sim::fail("SIM-QUE-TWICE", "EnQue: this tensor is already in the queue", loc, "memory", "EnQue");
        }
        s->state = akgen_sim::SlotState::ENQUEUED;
        fifo_[(head_ + count_) % kMaxSlots] = s;
        ++count_;
        akgen_sim::charge_scalar();
        return true;
    }
    template <typename T> LocalTensor<T> DeQue(AKGEN_LOC) {
        akgen_sim::touch("DeQue", loc);
        if (count_ == 0) {
            akgen_sim::fail("SIM-QUE-EMPTY",
                            "DeQue from an empty queue: no tensor was EnQue'd (on the NPU this waits forever)", loc,
                            "memory", "DeQue");
        }
        akgen_sim::Slot* s = fifo_[head_];
        head_ = (head_ + 1) % kMaxSlots;
        --count_;
        s->state = akgen_sim::SlotState::DEQUEUED;
        akgen_sim::charge_scalar();
        return LocalTensor<T>(reinterpret_cast<T*>(s->base), s->bytes / static_cast<uint32_t>(sizeof(T)), s, pos_);
    }
    template <typename T> void DeQue(LocalTensor<T>& t, AKGEN_LOC) { t = DeQue<T>(loc); }
    // The untyped forms (kernel_tpipe.h): DeQue() hands back the buffer handle; the user-position forms of a
    // TQueBind (EnQue/DeQue<srcUserPos, dstUserPos, T>) queue the same way as the plain ones.
    TBufHandle DeQue(AKGEN_LOC) { return reinterpret_cast<TBufHandle>(DeQue<uint8_t>(loc).addr_); }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T> bool EnQue(const LocalTensor<T>& t, AKGEN_LOC) {
        return EnQue<T>(t, loc);
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T> LocalTensor<T> DeQue(AKGEN_LOC) {
        return DeQue<T>(loc);
    }

    template <typename T> void FreeTensor(LocalTensor<T>& t, AKGEN_LOC) {
        akgen_sim::touch("FreeTensor", loc);
        akgen_sim::Slot* s = t.slot_;
        if (s == nullptr) {
            akgen_sim::fail("SIM-QUE-FOREIGN", "FreeTensor: the tensor was not allocated from this queue "
                                               "(ErrorBuffer1)", loc, "memory", "FreeTensor");
        }
        // CANN checks the owner only with ASCENDC_DEBUG_ASSERT (TQueBind::FreeBuffer): on the NPU the tensor's own
        // buffer is marked free, whichever queue FreeTensor was called on.
        if (!owns(s)) {
            akgen_sim::cpu_debug_check("SIM-QUE-FOREIGN", "FreeTensor: the tensor was not allocated from this queue "
                                                          "(ErrorBuffer1)", loc, "memory", "FreeTensor");
        }
        if (s->gen != t.gen_ || s->state == akgen_sim::SlotState::FREE) {
            akgen_sim::fail("SIM-QUE-DOUBLE-FREE", "FreeTensor: the tensor was already freed (ErrorFree: double free)",
                            loc, "memory", "FreeTensor");
        }
        if (s->state == akgen_sim::SlotState::ENQUEUED) {
            akgen_sim::fail("SIM-QUE-FREE-QUEUED", "FreeTensor: the tensor is still in the queue (DeQue it first)",
                            loc, "memory", "FreeTensor");
        }
        s->state = akgen_sim::SlotState::FREE;
        ++s->gen;
        --akgen_sim::ctx().live_per_pos[static_cast<int>(s->pos)];
        akgen_sim::charge_scalar();
    }

    int32_t GetTensorCountInQue() const { return count_; }
    bool HasTensorInQue() const { return count_ > 0; }
    bool VacantInQue() const { return count_ < (depth == 0 ? num_ : depth); }
    bool HasIdleBuffer() const {
        for (int i = 0; i < num_; ++i) {
            if (slots_[i]->state == akgen_sim::SlotState::FREE) return true;
        }
        return false;
    }
    void FreeAllEvent() {}

private:
    bool owns(const akgen_sim::Slot* s) const {
        for (int i = 0; i < num_; ++i) {
            if (slots_[i] == s) return true;
        }
        return false;
    }
    template <typename T> void alloc_into(LocalTensor<T>& t, const akgen_sim::loc_t& loc) {
        akgen_sim::touch("AllocTensor", loc);
        akgen_sim::check_arch_type<T>(loc);
        if (num_ == 0) {
            akgen_sim::fail("SIM-QUE-NOINIT", "AllocTensor: the queue has no buffers (call pipe.InitBuffer on it "
                                              "first)", loc, "scope", "AllocTensor");
        }
        for (int k = 0; k < num_; ++k) {
            int i = (next_ + k) % num_;
            akgen_sim::Slot* s = slots_[i];
            if (s->state == akgen_sim::SlotState::FREE) {
                int& live = akgen_sim::ctx().live_per_pos[static_cast<int>(pos_)];
                if (live >= akgen_sim::cfg().buffers_per_position) {
                    akgen_sim::fail("SIM-QUE-LIVE",
                                    akgen_sim::fmt("current id is %d, max buffer number in same queue position is %d",
                                                   live + 1, akgen_sim::cfg().buffers_per_position),
                                    loc, "memory", "AllocTensor");
                }
                ++live;
                s->state = akgen_sim::SlotState::ALLOCATED;
                s->alloc_loc = loc;
                next_ = (i + 1) % num_;
                t = LocalTensor<T>(reinterpret_cast<T*>(s->base), s->bytes / static_cast<uint32_t>(sizeof(T)), s, pos_);
                akgen_sim::charge_scalar();
                return;
            }
        }
        akgen_sim::fail("SIM-QUE-ALLOC",
                        akgen_sim::fmt("AllocTensor with no free buffer: all %d buffers of this queue are in use (free "
                                       "one with FreeTensor first; on the NPU this hangs)", num_),
                        loc, "memory", "AllocTensor");
    }
};

template <TPosition pos, int32_t depth, auto... mask> class TQue : public TQueBind<pos, pos, depth, mask...> {};
// A queue into the TSCM part of L1 (CANN's kernel_tpipe.h: TQueBind<pos, TPosition::TSCM, depth, mask>)
template <TPosition pos, int32_t depth = 1, auto mask = 0> using TSCM = TQueBind<pos, TPosition::TSCM, depth, mask>;

template <TPosition pos = TPosition::VECCALC> class TBuf : public TQueBase {
public:
    TBuf() { pos_ = pos; }
    template <typename T> LocalTensor<T> Get(AKGEN_LOC) {
        if (!check("Get", loc)) return LocalTensor<T>();
        akgen_sim::check_arch_type<T>(loc);
        akgen_sim::Slot* s = slots_[0];
        return LocalTensor<T>(reinterpret_cast<T*>(s->base), s->bytes / static_cast<uint32_t>(sizeof(T)), s, pos_);
    }
    template <typename T> LocalTensor<T> Get(uint32_t len, AKGEN_LOC) {
        if (!check("Get", loc)) return LocalTensor<T>();
        akgen_sim::check_arch_type<T>(loc);
        akgen_sim::Slot* s = slots_[0];
        // CANN's TBuf::Get(len) asserts these only in CPU debug (kernel_tbuf_impl.h, ASCENDC_CPU_DEBUG); the NPU
        // build hands out the tensor at the buffer's start with len elements whatever len is. So npu mode warns and
        // does the same: a later op that touches more than the tensor holds warns (SIM-UB-SIZE), and one that
        // touches past the physical memory fails (SIM-UB-OOB).
        if (static_cast<uint64_t>(len) * sizeof(T) > s->bytes) {
            akgen_sim::cpu_debug_check("SIM-TBUF-SIZE",
                                       akgen_sim::fmt("TBuf::Get: len is %u elements (%llu bytes), exceeds the limit "
                                                      "%u bytes of this buffer", len,
                                                      static_cast<unsigned long long>(len * sizeof(T)), s->bytes),
                                       loc, "memory", "Get");
        }
        // a length off the 32-byte grid is accepted by the NPU itself, so it only warns in both modes
        if (len == 0) {
            akgen_sim::cpu_debug_check("SIM-TBUF-LEN", "TBuf::Get: buffer length is 0, which should be larger than 0 "
                                                       "(the tensor holds no element; pass the element count, or call "
                                                       "Get() for the whole buffer)", loc, "memory", "Get");
        }
        if (static_cast<uint64_t>(len) * sizeof(T) % 32 != 0) {
            akgen_sim::warn("SIM-TBUF-LEN", akgen_sim::fmt("TBuf::Get: buffer length is %u, which should be times of "
                                                           "32 Bytes (%llu bytes)", len,
                                                           static_cast<unsigned long long>(len * sizeof(T))),
                            loc, "memory", "Get");
        }
        return LocalTensor<T>(reinterpret_cast<T*>(s->base), len, s, pos_);
    }
    template <typename T> LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, AKGEN_LOC) {
        if (!check("GetWithOffset", loc)) return LocalTensor<T>();
        akgen_sim::Slot* s = slots_[0];
        if (bufOffset % 32 != 0) {
            akgen_sim::fail("SIM-UB-ALIGN", akgen_sim::fmt("Failed to check bufOffset alignment in GetWithOffset, "
                                                           "current offset is %u, which should be 32 byte aligned.",
                                                           bufOffset), loc, "memory", "GetWithOffset");
        }
        if (bufOffset + static_cast<uint64_t>(size) * sizeof(T) > s->bytes) {
            akgen_sim::cpu_debug_check("SIM-TBUF-SIZE",
                                       akgen_sim::fmt("TBuf::GetWithOffset: offset %u + %llu bytes exceeds the limit "
                                                      "%u bytes of this buffer", bufOffset,
                                                      static_cast<unsigned long long>(size * sizeof(T)), s->bytes),
                                       loc, "memory", "GetWithOffset");
        }
        return LocalTensor<T>(reinterpret_cast<T*>(s->base + bufOffset), size, s, pos_);
    }

    // A user's TBufPool (EXTERN_IMPL_BUFPOOL) gives the TBuf its buffer at byte `addr` (bufpool.h).
    template <class P> void InitBufHandle(P* pool, uint32_t index, uint8_t* handle, uint32_t addr, uint32_t len);

    // TBuf has no queue: FreeTensor on its tensors is accepted and does nothing (as on the NPU).
    template <typename T> void FreeTensor(LocalTensor<T>&) {}
    // AllocTensor, inherited from TQueBind in CANN (kernel_tpipe.h), hands out the TBuf's whole buffer, as Get does.
    template <typename T> LocalTensor<T> AllocTensor(AKGEN_LOC) { return Get<T>(loc); }

private:
    // A TBuf that InitBuffer never gave memory: on the NPU, Get reads the TBuf's uninitialised buffer descriptor and
    // hands back a tensor at no defined address, and nothing fails until that tensor is used. So Get warns (once per
    // TBuf) and returns a tensor without a buffer; any use of it fails with SIM-TENSOR-UNINIT at the using line.
    bool check(const char* api, const akgen_sim::loc_t& loc) {
        akgen_sim::touch(api, loc);
        if (num_ != 0) return true;
        if (!warned_noinit_) {
            warned_noinit_ = true;
            akgen_sim::warn("SIM-TBUF-NOINIT", "TBuf::Get: the buffer has no memory (call pipe.InitBuffer(buf, bytes) "
                                               "first); the tensor it returns has no buffer, and using it fails",
                            loc, "scope", api);
        }
        return false;
    }
    bool warned_noinit_ = false;
};

class TPipe {
public:
    TPipe(AKGEN_LOC) {
        akgen_sim::touch("TPipe", loc);
        akgen_sim::BlockCtx& c = akgen_sim::ctx();
        if (c.pipes_alive > 0) {
            akgen_sim::fail("SIM-TPIPE-TWICE", "TPipe has already been constructed: a kernel may hold one TPipe at a "
                                               "time", loc, "scope", "TPipe");
        }
        ++c.pipes_alive;
        alive_ = true;
        current_pipe() = this;
        reset_pool();
    }
    ~TPipe() { Destroy(); }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    template <class Q> bool InitBuffer(Q& que, uint8_t num, uint32_t len, AKGEN_LOC) {
        akgen_sim::touch("InitBuffer", loc);
        if (num == 0) {
            akgen_sim::fail("SIM-INITBUF", "InitBuffer: the buffer number must be at least 1", loc, "api_mismatch",
                            "InitBuffer");
        }
        if (que.num_ + num > TQueBase::kMaxSlots) {
            akgen_sim::fail("SIM-INITBUF", akgen_sim::fmt("current total buffer num is %d, exceeds the limit %d",
                                                          que.num_ + num, TQueBase::kMaxSlots), loc, "memory",
                            "InitBuffer");
        }
        uint32_t aligned = (len + 31u) / 32u * 32u;
        for (int i = 0; i < num; ++i) que.slots_[que.num_ + i] = take(que.pos_, aligned, num, loc);
        que.num_ += num;
        return true;
    }
    template <TPosition pos> bool InitBuffer(TBuf<pos>& buf, uint32_t len, AKGEN_LOC) {
        akgen_sim::touch("InitBuffer", loc);
        uint32_t aligned = (len + 31u) / 32u * 32u;
        buf.slots_[0] = take(pos, aligned, 1, loc);
        buf.slots_[0]->state = akgen_sim::SlotState::TBUF;
        buf.num_ = 1;
        return true;
    }
    template <HardEvent evt> int8_t AllocEventID() { return static_cast<int8_t>(next_event_++ % 6); }
    template <HardEvent evt> void ReleaseEventID(int8_t) {}
    int8_t FetchEventID(HardEvent) { return 0; }
    template <HardEvent evt> int8_t FetchEventID() { return 0; }
    // CANN's TPipe::Reset: the buffer pool starts again at address 0 (ResetPool), as for a new TPipe.
    void Reset() { reset_pool(); }
    void Destroy() {
        if (alive_) {
            alive_ = false;
            --akgen_sim::ctx().pipes_alive;
            if (current_pipe() == this) current_pipe() = nullptr;
        }
    }
    void Init() {}

private:
    // A TPipe hands out each memory from address 0 (CANN's TPipe() -> Init() -> ResetPool()): a kernel that destroys
    // one TPipe and builds another (Catlass's Resource does) reuses the same addresses; tensors of the old pipe alias
    // the new buffers, as on the NPU.
    static void reset_pool() {
        akgen_sim::BlockCtx& c = akgen_sim::ctx();
        c.ub_used = c.l1_used = c.l0a_used = c.l0b_used = c.l0c_used = c.bt_used = 0;
    }
    akgen_sim::Slot* take(TPosition pos, uint32_t len, int num, const akgen_sim::loc_t& loc) {
        return slot_at(pos, reserve(pos, len, num, loc), len);
    }

public:
    // A buffer's slot at byte `offset` of the memory of `pos` (InitBuffer, and the buffers of a TBufPool).
    static akgen_sim::Slot* slot_at(TPosition pos, uint64_t offset, uint32_t len) {
        akgen_sim::BlockCtx& c = akgen_sim::ctx();
        uint8_t* base = c.ub;
        switch (detail::mem_of(pos)) {
            case detail::Mem::L1: base = c.l1; break;
            case detail::Mem::L0A: base = c.l0a; break;
            case detail::Mem::L0B: base = c.l0b; break;
            case detail::Mem::L0C: base = c.l0c; break;
            case detail::Mem::BT: base = c.bt; break;
            default: break;
        }
        akgen_sim::Slot* s = &akgen_sim::new_slot(c);
        s->base = base + offset;
        s->bytes = len;
        s->pos = pos;
        return s;
    }
    // TBufPool (bufpool.h): a pool of `len` bytes of the pipe's memory; `share` a pool whose bytes it reuses.
    template <class P> bool InitBufPool(P& pool, uint32_t len, AKGEN_LOC) {
        akgen_sim::touch("InitBufPool", loc);
        const uint32_t aligned = (len + 31u) / 32u * 32u;
        pool.tBufPoolImpl.init(static_cast<uint32_t>(reserve(P::poolPos, aligned, 1, loc)), aligned);
        return true;
    }
    template <class P, class S> bool InitBufPool(P& pool, uint32_t len, S& share, AKGEN_LOC) {
        akgen_sim::touch("InitBufPool", loc);
        pool.tBufPoolImpl.share(share.tBufPoolImpl, (len + 31u) / 32u * 32u, "InitBufPool", loc);
        return true;
    }

private:
    // Bytes of the memory of `pos` for `num` buffers of `len` (the pipe's bump pointer): their offset.
    uint64_t reserve(TPosition pos, uint32_t len, int num, const akgen_sim::loc_t& loc) {
        akgen_sim::BlockCtx& c = akgen_sim::ctx();
        const akgen_sim::Config& k = akgen_sim::cfg();
        detail::Mem m = detail::mem_of(pos);
        uint64_t* used = &c.ub_used;
        uint64_t limit = k.ub_bytes;
        switch (m) {
            case detail::Mem::L1: used = &c.l1_used; limit = k.l1_bytes; break;
            case detail::Mem::L0A: used = &c.l0a_used; limit = k.l0a_bytes; break;
            case detail::Mem::L0B: used = &c.l0b_used; limit = k.l0b_bytes; break;
            case detail::Mem::L0C: used = &c.l0c_used; limit = k.l0c_bytes; break;
            case detail::Mem::BT: used = &c.bt_used; limit = sizeof(c.bt); break;
            default: break;
        }
        if (*used + len > limit) {
            // CANN's CPU debug asserts this in InitBuffer; the NPU hands the buffer out at its offset past the end of
            // the memory, and only an access there goes wrong. npu mode does the same (the launcher maps
            // arena_bytes() of each memory, so the address exists) and every access is bounded by the physical size.
            // The bias table is a fixed array: it never goes past its end.
            auto msg = akgen_sim::fmt("buffer size is %llu, exceeds the limit %llu (%s: %llu bytes already given to "
                                      "earlier InitBuffer calls; this one asks %d x %u bytes)",
                                      static_cast<unsigned long long>(*used + len),
                                      static_cast<unsigned long long>(limit), detail::mem_name(m),
                                      static_cast<unsigned long long>(*used), num, len);
            uint64_t mapped = m == detail::Mem::BT ? limit : akgen_sim::arena_bytes(limit);
            if (akgen_sim::npu_checks() && *used + len > mapped) {
                akgen_sim::fail("SIM-UB-LIMIT", akgen_sim::fmt("%s; the simulator cannot place a buffer this far past "
                                                               "the end of %s", msg.s, detail::mem_name(m)),
                                loc, "memory", "InitBuffer");
            }
            auto npu_msg = akgen_sim::fmt("%s; on the NPU the part past %llu bytes does not exist, and an access to "
                                          "it fails", msg.s, static_cast<unsigned long long>(limit));
            akgen_sim::cpu_debug_check("SIM-UB-LIMIT", akgen_sim::npu_checks() ? npu_msg : msg, loc, "memory",
                                       "InitBuffer");
        }
        const uint64_t at = *used;
        *used += len;
        return at;
    }
    bool alive_ = false;
    int next_event_ = 0;
};

inline TPipe* GetTPipePtr() { return current_pipe(); }

}  // namespace AscendC
