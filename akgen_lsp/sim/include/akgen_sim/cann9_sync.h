// akgen sim: inter-block synchronisation through GM that CANN's vector examples use: IBSet / IBWait,
// InitDetermineComputeWorkspace / WaitPreBlock / NotifyNextBlock, and the Mutex API (which A2/A3 compile to nothing).
//
// Blocks are fibers that run until they end (launcher.cpp). A wait whose condition is not met yet lets the other
// blocks run (akgen_sim::yield_block, provided by the program runtime of `akgen sim run-program`) and checks again;
// when no block can make progress any more (every block waits or has ended) the wait fails with
// SIM-SYNC-DEADLOCK at its line, which on the NPU is a hang until the timeout. Outside programs there is no yield:
// a wait can then only see what blocks with a lower index did before it.
#pragma once

#include <map>
#include <utility>

#include "program.h"
#include "tensor.h"

namespace akgen_sim {

// Spins until `ready()`; each miss lets the other blocks run. Fails after `limit` misses in a row.
template <typename F> inline void spin_until(F&& ready, const char* api, const char* what, const loc_t& loc) {
    constexpr uint64_t limit = 200000;
    for (uint64_t n = 0; !ready(); ++n) {
        if (n >= limit || !yield_block()) {
            fail("SIM-SYNC-DEADLOCK",
                 fmt("%s waits for %s, which no block sets: every other block has ended or waits too (on the NPU "
                     "this core hangs until the timeout)", api, what),
                 loc, "sync", api);
        }
    }
    ++ctx().epoch;  // racecheck: ordered after the block whose signal it waited for
}

// WaitPreBlock / NotifyNextBlock turns, per workspace: how many sections (wait ... notify) have completed in all.
// Kept in launcher/runtime.inc (std::maps there, so kernel compiles do not instantiate them): the sections completed
// per workspace, and per (workspace, block) the rounds that block completed.
int64_t& determine_turns(const void* workspace);
int64_t& determine_rounds(const void* workspace, int64_t block);

}  // namespace akgen_sim

namespace AscendC {

// IBSet / IBWait: the flag of (blockIdx, eventID) is the int32 at byte (eventID * cores + blockIdx) * 32 of
// gmWorkspace (CANN's size rule: cores*32 B*eventID_max + blockIdx_max*32 B + 32 B). IBSet writes 1 there; IBWait
// reads it until it is 1. The workspace must start zeroed.
template <bool isAIVOnly = true>
inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                  int32_t eventID, AKGEN_LOC) {
    akgen_sim::touch("IBSet", loc);
    ubWorkspace.check_live("IBSet", "ubWorkspace", loc);
    uint64_t idx = static_cast<uint64_t>(eventID * akgen_sim::ctx().num + blockIdx) * 8;
    gmWorkspace.SetValue(idx, 1, loc);
}

template <bool isAIVOnly = true>
inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                   int32_t eventID, AKGEN_LOC) {
    akgen_sim::touch("IBWait", loc);
    ubWorkspace.check_live("IBWait", "ubWorkspace", loc);
    uint64_t idx = static_cast<uint64_t>(eventID * akgen_sim::ctx().num + blockIdx) * 8;
    akgen_sim::spin_until([&] { return gmWorkspace.GetValue(idx, loc) == 1; }, "IBWait",
                          akgen_sim::fmt("the IBSet of block %d, event %d", blockIdx, eventID), loc);
}

// Blocks take turns in index order, round after round: block b enters its r-th section once r * blocks + b sections
// have completed. The workspace must hold GetBlockNum() * 32 bytes (checked); the turn counter itself is kept by the
// simulator per workspace address.
inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace,
                                          AKGEN_LOC) {
    akgen_sim::touch("InitDetermineComputeWorkspace", loc);
    ubWorkspace.check_live("InitDetermineComputeWorkspace", "ubWorkspace", loc);
    gmWorkspace.check_access(0, static_cast<uint64_t>(akgen_sim::ctx().num) * 8, false,
                             "InitDetermineComputeWorkspace", loc);
    akgen_sim::determine_turns(gmWorkspace.GetPhyAddr());
}

inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace, AKGEN_LOC) {
    akgen_sim::touch("WaitPreBlock", loc);
    ubWorkspace.check_live("WaitPreBlock", "ubWorkspace", loc);
    const void* key = gmWorkspace.GetPhyAddr();
    akgen_sim::BlockCtx& c = akgen_sim::ctx();
    int64_t round = akgen_sim::determine_rounds(key, c.idx);
    int64_t want = round * c.num + c.idx;
    akgen_sim::spin_until([&] { return akgen_sim::determine_turns(key) >= want; }, "WaitPreBlock",
                          "the NotifyNextBlock of the previous block", loc);
}

inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace, AKGEN_LOC) {
    akgen_sim::touch("NotifyNextBlock", loc);
    ubWorkspace.check_live("NotifyNextBlock", "ubWorkspace", loc);
    const void* key = gmWorkspace.GetPhyAddr();
    akgen_sim::BlockCtx& c = akgen_sim::ctx();
    ++akgen_sim::determine_rounds(key, c.idx);
    ++akgen_sim::determine_turns(key);
}

// GroupBarrier: arriveSize blocks Arrive, waitSize blocks Wait until all of them have arrived, round after round.
// The counters are int32 in the workspace (GetWorkspaceLen() bytes, zeroed by the host): arrivals at byte 0, passed
// waits at byte 64.
enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };
template <PipeMode mode> class GroupBarrier {
public:
    GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn, AKGEN_LOC)
        : arriveSize_(arriveSizeIn), waitSize_(waitSizeIn) {
        akgen_sim::touch("GroupBarrier", loc);
        gm_.SetGlobalBuffer(reinterpret_cast<int32_t*>(groupWorkspace), GetWorkspaceLen() / sizeof(int32_t), loc);
    }
    void Arrive(uint32_t arriveIndex, AKGEN_LOC) {
        akgen_sim::touch("GroupBarrier::Arrive", loc);
        if (arriveIndex >= arriveSize_) {
            akgen_sim::fail("SIM-GROUPBARRIER", akgen_sim::fmt("GroupBarrier::Arrive(%u): the index must be below "
                                                               "arriveSize %u", arriveIndex, arriveSize_),
                            loc, "sync", "GroupBarrier::Arrive");
        }
        bump(0, "GroupBarrier::Arrive", loc);
    }
    void Wait(uint32_t waitIndex, AKGEN_LOC) {
        akgen_sim::touch("GroupBarrier::Wait", loc);
        if (waitIndex >= waitSize_) {
            akgen_sim::fail("SIM-GROUPBARRIER", akgen_sim::fmt("GroupBarrier::Wait(%u): the index must be below "
                                                               "waitSize %u", waitIndex, waitSize_),
                            loc, "sync", "GroupBarrier::Wait");
        }
        int64_t need = static_cast<int64_t>(arriveSize_) * (round_ + 1);
        akgen_sim::spin_until([&] { return gm_.GetValue(0, loc) >= need; }, "GroupBarrier::Wait",
                              akgen_sim::fmt("the Arrive of %u blocks", arriveSize_), loc);
        ++round_;
        bump(16, "GroupBarrier::Wait", loc);
    }
    uint64_t GetWorkspaceLen() const { return 128; }

private:
    // an atomic increment of a counter (the hardware's atomic add: not a plain write that could race)
    void bump(uint64_t idx, const char* api, const akgen_sim::loc_t& loc) {
        gm_.check_access(idx, 1, false, api, loc);
        akgen_sim::charge_scalar(10);
        gm_.GetPhyAddr()[idx] += 1;
    }
    GlobalTensor<int32_t> gm_;
    uint32_t arriveSize_, waitSize_;
    int64_t round_ = 0;
};

// The Mutex API: on A2/A3 (dav-2201) CANN compiles Lock/Unlock to nothing and AllocMutexID returns 0.
using MutexID = uint8_t;
class Mutex {
public:
    template <pipe_t pipe> static void Lock(MutexID) {}
    template <pipe_t pipe> static void Unlock(MutexID) {}
};
inline MutexID AllocMutexID() { return 0; }
inline void ReleaseMutexID(MutexID) {}

}  // namespace AscendC
