// akgen sim: PipeBarrier, SetFlag/WaitFlag, TQueSync, SyncAll, cross-core flags; plus block index/count.
//
// Cost model: SetFlag<SRC_DST>(id) records when the SRC pipe's work issued so far ends; WaitFlag makes the DST pipe
// wait for it. Checks: event id in 0..7, SetFlag twice without WaitFlag (ErrorSync2), WaitFlag with no SetFlag (hangs
// on the NPU), and flags still set at kernel end (reported by the launcher).
#pragma once

#include "pipe.h"
#include "tiling.h"

namespace akgen_sim {

struct EventPipes { int src, dst; };
inline EventPipes event_pipes(AscendC::HardEvent e) {
    using H = AscendC::HardEvent;
    switch (e) {
        case H::MTE2_MTE1: return {P_MTE2, P_MTE1};
        case H::MTE1_MTE2: return {P_MTE1, P_MTE2};
        case H::MTE1_M: return {P_MTE1, P_M};
        case H::M_MTE1: return {P_M, P_MTE1};
        case H::MTE2_V: return {P_MTE2, P_V};
        case H::V_MTE2: return {P_V, P_MTE2};
        case H::MTE3_V: return {P_MTE3, P_V};
        case H::V_MTE3: return {P_V, P_MTE3};
        case H::M_V: return {P_M, P_V};
        case H::V_M: return {P_V, P_M};
        case H::V_V: return {P_V, P_V};
        case H::MTE3_MTE1: return {P_MTE3, P_MTE1};
        case H::MTE1_MTE3: return {P_MTE1, P_MTE3};
        case H::MTE1_V: return {P_MTE1, P_V};
        case H::MTE2_M: return {P_MTE2, P_M};
        case H::M_MTE2: return {P_M, P_MTE2};
        case H::V_MTE1: return {P_V, P_MTE1};
        case H::M_FIX: return {P_M, P_FIX};
        case H::FIX_M: return {P_FIX, P_M};
        case H::MTE3_MTE2: return {P_MTE3, P_MTE2};
        case H::MTE2_MTE3: return {P_MTE2, P_MTE3};
        case H::S_V: return {P_S, P_V};
        case H::V_S: return {P_V, P_S};
        case H::S_MTE2: return {P_S, P_MTE2};
        case H::MTE2_S: return {P_MTE2, P_S};
        case H::S_MTE3: return {P_S, P_MTE3};
        case H::MTE3_S: return {P_MTE3, P_S};
        case H::MTE2_FIX: return {P_MTE2, P_FIX};
        case H::FIX_MTE2: return {P_FIX, P_MTE2};
        case H::FIX_S: return {P_FIX, P_S};
        case H::M_S: return {P_M, P_S};
        case H::FIX_MTE3: return {P_FIX, P_MTE3};
        case H::MTE1_FIX: return {P_MTE1, P_FIX};
        case H::FIX_MTE1: return {P_FIX, P_MTE1};
        case H::FIX_FIX: return {P_FIX, P_FIX};
        default: return {P_S, P_S};
    }
}

inline void check_event_id(int32_t id, const char* api, const loc_t& loc) {
    if (id < 0 || id > 7) {
        fail("SIM-EVENT-ID", fmt("%s: event id %d is out of range [0, 7]", api, id), loc, "api_mismatch", api);
    }
}

inline void set_flag(AscendC::HardEvent e, int32_t id, const loc_t& loc) {
    touch("SetFlag", loc);
    check_event_id(id, "SetFlag", loc);
    BlockCtx& c = ctx();
    int k = static_cast<int>(e);
    if (c.flag_pending[k][id] > 0) {
        warn("SIM-SYNC-DOUBLE-SET", fmt("SetFlag twice on the same event and id %d without a WaitFlag in between "
                                        "(ErrorSync2: undefined on the NPU, it can hang)", id), loc, "sync", "SetFlag");
    }
    EventPipes p = event_pipes(e);
    c.now_s += cfg().issue_cycles;
    c.flag_time[k][id] = std::max(c.pipe_free[p.src], p.src == P_S ? c.now_s : 0.0);
    c.flag_pending[k][id] += 1;
    c.flag_loc[k][id] = loc;
}

inline void wait_flag(AscendC::HardEvent e, int32_t id, const loc_t& loc) {
    touch("WaitFlag", loc);
    check_event_id(id, "WaitFlag", loc);
    BlockCtx& c = ctx();
    int k = static_cast<int>(e);
    if (c.flag_pending[k][id] <= 0) {
        fail("SIM-SYNC-WAIT-UNSET", fmt("WaitFlag on event id %d with no SetFlag before it (ErrorSync2: unpaired "
                                        "SetFlag/WaitFlag; on the NPU this waits forever)", id), loc, "sync",
             "WaitFlag");
    }
    c.flag_pending[k][id] -= 1;
    EventPipes p = event_pipes(e);
    double t = c.flag_time[k][id];
    if (p.dst == P_S) c.now_s = std::max(c.now_s, t);
    else c.pipe_free[p.dst] = std::max(c.pipe_free[p.dst], std::max(t, c.now_s));
}

inline void barrier_all() {
    BlockCtx& c = ctx();
    double t = c.now_s;
    for (double f : c.pipe_free) t = std::max(t, f);
    c.now_s = t;
    for (double& f : c.pipe_free) f = t;
}

}  // namespace akgen_sim

namespace AscendC {

template <HardEvent event> inline void SetFlag(int32_t eventID, AKGEN_LOC) { ::akgen_sim::set_flag(event, eventID, loc); }
template <HardEvent event> inline void WaitFlag(int32_t eventID, AKGEN_LOC) { ::akgen_sim::wait_flag(event, eventID, loc); }
inline void SetFlag(HardEvent event, int32_t eventID, AKGEN_LOC) { ::akgen_sim::set_flag(event, eventID, loc); }
inline void WaitFlag(HardEvent event, int32_t eventID, AKGEN_LOC) { ::akgen_sim::wait_flag(event, eventID, loc); }

template <pipe_t pipe> inline void PipeBarrier(AKGEN_LOC) {
    static_assert(pipe != PIPE_S, "PipeBarrier<PIPE_S> is not supported");
    ::akgen_sim::touch("PipeBarrier", loc);
    if constexpr (pipe == PIPE_ALL) ::akgen_sim::barrier_all();
}

// The hardware event between two pipes (the event SetFlag<HardEvent::SRC_DST> names); HardEvent::MAX when there is none.
constexpr HardEvent PipesEvent(pipe_t src, pipe_t dst) {
    constexpr struct { pipe_t s, d; HardEvent e; } table[] = {
        {PIPE_MTE2, PIPE_MTE1, HardEvent::MTE2_MTE1}, {PIPE_MTE1, PIPE_MTE2, HardEvent::MTE1_MTE2},
        {PIPE_MTE1, PIPE_M, HardEvent::MTE1_M}, {PIPE_M, PIPE_MTE1, HardEvent::M_MTE1},
        {PIPE_MTE2, PIPE_V, HardEvent::MTE2_V}, {PIPE_V, PIPE_MTE2, HardEvent::V_MTE2},
        {PIPE_MTE3, PIPE_V, HardEvent::MTE3_V}, {PIPE_V, PIPE_MTE3, HardEvent::V_MTE3},
        {PIPE_M, PIPE_V, HardEvent::M_V}, {PIPE_V, PIPE_M, HardEvent::V_M}, {PIPE_V, PIPE_V, HardEvent::V_V},
        {PIPE_MTE3, PIPE_MTE1, HardEvent::MTE3_MTE1}, {PIPE_MTE1, PIPE_MTE3, HardEvent::MTE1_MTE3},
        {PIPE_MTE1, PIPE_V, HardEvent::MTE1_V}, {PIPE_MTE2, PIPE_M, HardEvent::MTE2_M},
        {PIPE_M, PIPE_MTE2, HardEvent::M_MTE2}, {PIPE_V, PIPE_MTE1, HardEvent::V_MTE1},
        {PIPE_M, PIPE_FIX, HardEvent::M_FIX}, {PIPE_FIX, PIPE_M, HardEvent::FIX_M},
        {PIPE_MTE3, PIPE_MTE2, HardEvent::MTE3_MTE2}, {PIPE_MTE2, PIPE_MTE3, HardEvent::MTE2_MTE3},
        {PIPE_S, PIPE_V, HardEvent::S_V}, {PIPE_V, PIPE_S, HardEvent::V_S}, {PIPE_S, PIPE_MTE2, HardEvent::S_MTE2},
        {PIPE_MTE2, PIPE_S, HardEvent::MTE2_S}, {PIPE_S, PIPE_MTE3, HardEvent::S_MTE3},
        {PIPE_MTE3, PIPE_S, HardEvent::MTE3_S}, {PIPE_MTE2, PIPE_FIX, HardEvent::MTE2_FIX},
        {PIPE_FIX, PIPE_MTE2, HardEvent::FIX_MTE2}, {PIPE_FIX, PIPE_S, HardEvent::FIX_S},
        {PIPE_M, PIPE_S, HardEvent::M_S}, {PIPE_FIX, PIPE_MTE3, HardEvent::FIX_MTE3},
        {PIPE_MTE1, PIPE_FIX, HardEvent::MTE1_FIX}, {PIPE_FIX, PIPE_MTE1, HardEvent::FIX_MTE1},
        {PIPE_FIX, PIPE_FIX, HardEvent::FIX_FIX}};
    for (const auto& t : table) {
        if (t.s == src && t.d == dst) return t.e;
    }
    return HardEvent::MAX;
}

// TQueSync<src, dst>: SetFlag / WaitFlag of the event between two pipes, as the API pages declare it (pipe_t).
template <pipe_t src, pipe_t dst> class TQueSync {
public:
    static constexpr HardEvent kEvent = PipesEvent(src, dst);
    static_assert(kEvent != HardEvent::MAX, "TQueSync: there is no hardware event between these two pipes");
    void SetFlag(int32_t id, AKGEN_LOC) { ::akgen_sim::set_flag(kEvent, id, loc); }
    void WaitFlag(int32_t id, AKGEN_LOC) { ::akgen_sim::wait_flag(kEvent, id, loc); }
};

inline int64_t GetBlockIdx() { return ::akgen_sim::ctx().idx; }
inline int64_t GetBlockNum() { return ::akgen_sim::ctx().num; }
inline int64_t GetSubBlockIdx() { return ::akgen_sim::ctx().sub_idx; }
inline int64_t GetSubBlockNum() { return ::akgen_sim::ctx().sub_num; }
inline int64_t GetTaskRation() { return ::akgen_sim::ctx().sub_num; }
inline uint64_t GetSystemCycle() { return static_cast<uint64_t>(::akgen_sim::ctx().now_s); }

// A barrier across all blocks: the launcher runs blocks as fibers and resumes them once every block has arrived.
// A split (MIX) launch has two vector cores a block, so even one block's vector cores wait for each other
// (isAIVOnly: the cube cores do not take part).
template <bool isAIVOnly = true> inline void SyncAll(AKGEN_LOC) {
    ::akgen_sim::touch("SyncAll", loc);
    ::akgen_sim::barrier_all();
    const ::akgen_sim::BlockCtx& c = ::akgen_sim::ctx();
    if (c.num > 1 || c.core_type != 0) ::akgen_sim::sync_all_blocks(loc, isAIVOnly);
}
// The GM-workspace form of older CANN versions.
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                    const int32_t usedCores = 0, AKGEN_LOC) {
    (void)gmWorkspace;
    (void)ubWorkspace;
    (void)usedCores;
    SyncAll<isAIVOnly>(loc);
}
// Cross-core flags: real in split launches (one fiber per AIC and AIV, see launcher.cpp), no-ops in the single-pass
// model where one fiber plays every core of a block.
template <uint8_t modeId, pipe_t pipe> inline void CrossCoreSetFlag(uint16_t flagId, AKGEN_LOC) {
    ::akgen_sim::touch("CrossCoreSetFlag", loc);
    if (::akgen_sim::ctx().core_type != 0) ::akgen_sim::cross_core_set(modeId, flagId, loc);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S> inline void CrossCoreWaitFlag(uint16_t flagId, AKGEN_LOC) {
    ::akgen_sim::touch("CrossCoreWaitFlag", loc);
    if (::akgen_sim::ctx().core_type != 0) ::akgen_sim::cross_core_wait(modeId, flagId, loc);
    else if (modeId == 0) ::akgen_sim::sync_all_blocks(loc);  // mode 0 = every core of the type: a barrier of blocks
}

}  // namespace AscendC

// Core-type tests (`if ASCEND_IS_AIV { ... }`): a simulated block plays the vector core, and also the cube core
// unless the kernel declared itself vector-only. Plain runtime conditions: both branches must compile anyway.
namespace akgen_sim {
inline bool core_is_aiv() { return ctx().core_type ? ctx().core_type == 2 : task_type() != KERNEL_TYPE_AIC_ONLY; }
inline bool core_is_aic() { return ctx().core_type ? ctx().core_type == 1 : task_type() != KERNEL_TYPE_AIV_ONLY; }
}  // namespace akgen_sim
#define ASCEND_IS_AIV (::akgen_sim::core_is_aiv())
#define ASCEND_IS_AIC (::akgen_sim::core_is_aic())
#define ASCEND_IS_NOT_AIV (!::akgen_sim::core_is_aiv())
#define ASCEND_IS_NOT_AIC (!::akgen_sim::core_is_aic())

// Kernels call these unqualified too (they are visible without `using namespace AscendC` on the NPU).
using AscendC::GetBlockIdx;
using AscendC::GetBlockNum;

// Builtins of the device dialect.
// CANN's CPU debug build declares them as variables (`extern int64_t block_idx;`), not macros, so a struct member or
// local named block_num stays legal. Here they are constants that read the running block when converted to int64_t.
namespace akgen_sim {
struct BlockIdxVar {
    operator int64_t() const { return ::AscendC::GetBlockIdx(); }
};
struct BlockNumVar {
    operator int64_t() const { return ::AscendC::GetBlockNum(); }
};
}  // namespace akgen_sim
inline constexpr akgen_sim::BlockIdxVar block_idx{};
inline constexpr akgen_sim::BlockNumVar block_num{};
inline int64_t get_block_idx() { return ::AscendC::GetBlockIdx(); }
inline int64_t get_block_num() { return ::AscendC::GetBlockNum(); }
inline int64_t get_subblockid() { return 0; }
inline void pipe_barrier(pipe_t p) {
    if (p == PIPE_ALL) ::akgen_sim::barrier_all();
}
inline void set_flag(pipe_t, pipe_t, event_t) {}
inline void wait_flag(pipe_t, pipe_t, event_t) {}
