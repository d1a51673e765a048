// akgen sim: TBufPool (kernel_tpipe.h), a pool of a TPipe's memory that queues and TBufs take their buffers from and
// that hands the same bytes out again after Reset: pipe.InitBufPool(pool, len) takes len bytes of the pipe's memory,
// pipe.InitBufPool(pool, len, other) (or other.InitBufPool(pool, len, shared)) reuses the bytes of another pool,
// pool.InitBufPool(child, len) cuts a child pool from a pool; pool.InitBuffer(que, num, len) / InitBuffer(tbuf, len)
// place buffers in it from its start (32-byte aligned), Reset() starts again at its start. A user's own pool class
// written with EXTERN_IMPL_BUFPOOL(Class, POSITION, N) gets the same members and calls the queues'
// InitStartBufHandle / InitBufHandle itself. Buffers past the pool's end are reported as CANN's CPU debug asserts
// (SIM-BUFPOOL-SIZE; the NPU places them there, so npu mode warns).
#pragma once

#include "pipe.h"

namespace AscendC {

// The pool's bookkeeping (TBufPoolImpl of kernel_tpipe.h): where it starts in its memory, how far its buffers reach.
template <uint32_t bufIDSize = 4> struct TBufPoolImpl {
    uint32_t startAddr_ = 0, maxAddr_ = 0, maxLen_ = 0;
    uint8_t curBufSize_ = 0;
    bool isReset_ = false;
    TBufHandle buf_[bufIDSize > 0 ? bufIDSize : 1] = {};
    void init(uint32_t start, uint32_t len) {
        startAddr_ = maxAddr_ = start;
        maxLen_ = len;
        curBufSize_ = 0;
        isReset_ = true;
    }
    template <class O> void share(const O& other, uint32_t len, const char* api, const akgen_sim::loc_t& loc) {
        if (len > other.maxLen_) {
            akgen_sim::cpu_debug_check("SIM-BUFPOOL-SIZE",
                                       akgen_sim::fmt("%s: the pool asks %u bytes but the pool it shares has %u", api,
                                                      len, other.maxLen_), loc, "memory", api);
        }
        init(other.startAddr_, len);
    }
    // `num` buffers of `len` bytes from the pool's next free byte: their first address.
    uint32_t take(uint32_t num, uint32_t len, const char* api, const akgen_sim::loc_t& loc) {
        const uint32_t at = maxAddr_;
        if (static_cast<uint64_t>(at) + static_cast<uint64_t>(num) * len > static_cast<uint64_t>(startAddr_) + maxLen_) {
            akgen_sim::cpu_debug_check("SIM-BUFPOOL-SIZE",
                                       akgen_sim::fmt("%s: %u x %u bytes do not fit in the TBufPool (%u bytes, %u of "
                                                      "them already given; Reset() hands them out again)", api, num,
                                                      len, maxLen_, at - startAddr_), loc, "memory", api);
        }
        maxAddr_ = at + num * len;
        return at;
    }
};

template <TPosition pos, uint32_t bufIDSize = 4> class TBufPool {
public:
    static constexpr TPosition poolPos = pos;
    static constexpr bool isTbufPool = true;

    template <class Q> bool InitBuffer(Q& que, uint8_t num, uint32_t len, AKGEN_LOC) {
        akgen_sim::touch("InitBuffer", loc);
        if (num == 0 || que.num_ + num > TQueBase::kMaxSlots) {
            akgen_sim::fail("SIM-INITBUF", akgen_sim::fmt("InitBuffer: the buffer number %d must be in [1, %d]", num,
                                                          TQueBase::kMaxSlots - que.num_), loc, "api_mismatch",
                            "InitBuffer");
        }
        const uint32_t aligned = (len + 31u) / 32u * 32u;
        const uint32_t at = tBufPoolImpl.take(num, aligned, "TBufPool::InitBuffer", loc);
        for (int i = 0; i < num; ++i) que.slots_[que.num_ + i] = TPipe::slot_at(que.pos_, at + i * aligned, aligned);
        que.num_ += num;
        tBufPoolImpl.curBufSize_ = static_cast<uint8_t>(tBufPoolImpl.curBufSize_ + num);
        return true;
    }
    template <TPosition bufPos> bool InitBuffer(TBuf<bufPos>& buf, uint32_t len, AKGEN_LOC) {
        akgen_sim::touch("InitBuffer", loc);
        const uint32_t aligned = (len + 31u) / 32u * 32u;
        buf.slots_[0] = TPipe::slot_at(bufPos, tBufPoolImpl.take(1, aligned, "TBufPool::InitBuffer", loc), aligned);
        buf.slots_[0]->state = akgen_sim::SlotState::TBUF;
        buf.num_ = 1;
        tBufPoolImpl.curBufSize_ = static_cast<uint8_t>(tBufPoolImpl.curBufSize_ + 1);
        return true;
    }
    // A child pool of `len` bytes cut from this pool; with `share`, one that reuses the bytes of that pool.
    template <class P> bool InitBufPool(P& pool, uint32_t len, AKGEN_LOC) {
        akgen_sim::touch("InitBufPool", loc);
        const uint32_t aligned = (len + 31u) / 32u * 32u;
        pool.tBufPoolImpl.init(tBufPoolImpl.take(1, aligned, "TBufPool::InitBufPool", loc), aligned);
        return true;
    }
    template <class P, class S> bool InitBufPool(P& pool, uint32_t len, S& share, AKGEN_LOC) {
        akgen_sim::touch("InitBufPool", loc);
        pool.tBufPoolImpl.share(share.tBufPoolImpl, (len + 31u) / 32u * 32u, "TBufPool::InitBufPool", loc);
        return true;
    }
    void Reset() {
        tBufPoolImpl.maxAddr_ = tBufPoolImpl.startAddr_;
        tBufPoolImpl.curBufSize_ = 0;
    }

    TBufPoolImpl<bufIDSize> tBufPoolImpl;
};

// The queue's buffers start again (CANN sets the queue's first handle, count and length here).
inline void TQueBase::InitStartBufHandle(uint8_t*, uint8_t, uint32_t) { num_ = 0; }

template <class P> void TQueBase::InitBufHandle(P*, uint32_t, uint8_t*, uint32_t addr, uint32_t len) {
    if (num_ >= kMaxSlots) return;
    slots_[num_++] = TPipe::slot_at(pos_, addr, len);
}

template <TPosition pos>
template <class P> void TBuf<pos>::InitBufHandle(P*, uint32_t, uint8_t*, uint32_t addr, uint32_t len) {
    slots_[0] = TPipe::slot_at(pos_, addr, len);
    slots_[0]->state = akgen_sim::SlotState::TBUF;
    num_ = 1;
}

}  // namespace AscendC

// A user's own pool class (kernel_tpipe.h's macro, A2/A3 form): the members TPipe and the queues use.
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                                                    \
public:                                                                                                           \
    static constexpr AscendC::TPosition poolPos = POSITION;                                                       \
    static constexpr int32_t bufIDSize = BUFID_SIZE;                                                              \
    static constexpr bool isTbufPool = true;                                                                      \
    void Reset() {                                                                                                \
        tBufPoolImpl.curBufSize_ = 0;                                                                             \
        tBufPoolImpl.maxAddr_ = tBufPoolImpl.startAddr_;                                                          \
    }                                                                                                             \
    void Init() { tBufPoolImpl.init(0, 0); }                                                                      \
    AscendC::TBufHandle GetBufHandle(uint8_t offset) {                                                            \
        return tBufPoolImpl.buf_[offset < BUFID_SIZE ? offset : 0];                                               \
    }                                                                                                             \
    void SetCurAddr(uint32_t curAddr) { tBufPoolImpl.maxAddr_ = curAddr; }                                        \
    uint32_t GetCurAddr() { return tBufPoolImpl.maxAddr_; }                                                       \
    void SetCurBufSize(uint8_t curBufSize) { tBufPoolImpl.curBufSize_ = curBufSize; }                             \
    uint8_t GetCurBufSize() { return tBufPoolImpl.curBufSize_; }                                                  \
    AscendC::TBufPoolImpl<BUFID_SIZE> tBufPoolImpl
