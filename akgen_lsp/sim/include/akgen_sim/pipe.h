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

// A queue's state and its work, which do not depend on the element type (TQueBind's typed calls wrap them). The work
// is defined once, in the launcher (launcher/queue.inc), so that a kernel compiles only the thin wrappers.
struct TQueCore : TQueBase {
    akgen_sim::Slot* fifo_[kMaxSlots] = {};
    int head_ = 0, count_ = 0, next_ = 0;

    akgen_sim::Slot* alloc_slot(const akgen_sim::loc_t& loc);  // AllocTensor: a free buffer, now allocated
    void enque_slot(akgen_sim::Slot* s, int limit, const akgen_sim::loc_t& loc);  // EnQue at most `limit` deep
    akgen_sim::Slot* deque_slot(const akgen_sim::loc_t& loc);
    void free_slot(akgen_sim::Slot* s, uint32_t gen, const akgen_sim::loc_t& loc);
    bool owns(const akgen_sim::Slot* s) const;
    bool has_idle_buffer() const;
};

template <TPosition src, TPosition dst, int32_t depth, auto... mask> class TQueBind : public TQueCore {
public:
    static constexpr TPosition kPos = (src == TPosition::GM) ? dst : src;

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
        enque_slot(t.slot_, depth == 0 ? num_ : depth, loc);
        return true;
    }
    template <typename T> LocalTensor<T> DeQue(AKGEN_LOC) {
        akgen_sim::Slot* s = deque_slot(loc);
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

    template <typename T> void FreeTensor(LocalTensor<T>& t, AKGEN_LOC) { free_slot(t.slot_, t.gen_, loc); }

    int32_t GetTensorCountInQue() const { return count_; }
    bool HasTensorInQue() const { return count_ > 0; }
    bool VacantInQue() const { return count_ < (depth == 0 ? num_ : depth); }
    bool HasIdleBuffer() const { return has_idle_buffer(); }
    void FreeAllEvent() {}

private:
    template <typename T> void alloc_into(LocalTensor<T>& t, const akgen_sim::loc_t& loc) {
        akgen_sim::touch("AllocTensor", loc);
        akgen_sim::check_arch_type<T>(loc);
        akgen_sim::Slot* s = alloc_slot(loc);
        t = LocalTensor<T>(reinterpret_cast<T*>(s->base), s->bytes / static_cast<uint32_t>(sizeof(T)), s, pos_);
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
    TPipe(AKGEN_LOC) { construct(loc); }
    ~TPipe() { Destroy(); }
    TPipe(const TPipe&) = delete;
    // CANN's TPipe is assignable (`pipe_ = *pipeIn;` in a kernel class): the copy hands out the same memories. Here
    // every TPipe of a block allocates from the block's one pool, so the assigned pipe continues where the other is.
    TPipe& operator=(const TPipe& other) {
        next_event_ = other.next_event_;
        return *this;
    }

    template <class Q> bool InitBuffer(Q& que, uint8_t num, uint32_t len, AKGEN_LOC) {
        return init_buffer(que, num, len, loc);
    }
    template <TPosition pos> bool InitBuffer(TBuf<pos>& buf, uint32_t len, AKGEN_LOC) {
        return init_tbuf(buf, pos, len, loc);
    }
    template <HardEvent evt> int8_t AllocEventID() { return static_cast<int8_t>(next_event_++ % 6); }
    template <HardEvent evt> void ReleaseEventID(int8_t) {}
    int8_t FetchEventID(HardEvent) { return 0; }
    template <HardEvent evt> int8_t FetchEventID() { return 0; }
    // CANN's TPipe::Reset: the buffer pool starts again at address 0 (ResetPool), as for a new TPipe.
    void Reset() { reset_pool(); }
    void Destroy();
    void Init() {}

private:
    // A TPipe hands out each memory from address 0 (CANN's TPipe() -> Init() -> ResetPool()): a kernel that destroys
    // one TPipe and builds another (Catlass's Resource does) reuses the same addresses; tensors of the old pipe alias
    // the new buffers, as on the NPU.
    static void reset_pool();
    akgen_sim::Slot* take(TPosition pos, uint32_t len, int num, const akgen_sim::loc_t& loc);
    // The typed InitBuffer calls' work (launcher/queue.inc): a queue's `num` buffers, a TBuf's one.
    bool init_buffer(TQueBase& que, uint8_t num, uint32_t len, const akgen_sim::loc_t& loc);
    bool init_tbuf(TQueBase& buf, TPosition pos, uint32_t len, const akgen_sim::loc_t& loc);
    void construct(const akgen_sim::loc_t& loc);

public:
    // A buffer's slot at byte `offset` of the memory of `pos` (InitBuffer, and the buffers of a TBufPool).
    static akgen_sim::Slot* slot_at(TPosition pos, uint64_t offset, uint32_t len);
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
    uint64_t reserve(TPosition pos, uint32_t len, int num, const akgen_sim::loc_t& loc);
    bool alive_ = false;
    int next_event_ = 0;
};

inline TPipe* GetTPipePtr() { return current_pipe(); }

}  // namespace AscendC
