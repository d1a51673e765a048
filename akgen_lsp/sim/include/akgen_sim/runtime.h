// akgen sim runtime: the per-block context every API call works in.
//
// - configuration from the run spec (memory sizes, cost tables) in `cfg()`;
// - the current block (`ctx()`): block index/count, the UB arena of its core, buffer slots, per-pipe timelines for
//   the cost model, trace events, the location of the last API call (for crash reports);
// - findings: `report(...)` writes one JSON line to the events file at once (so a crash loses nothing) and
//   `fail(...)` also ends the block (throws BlockAbort, caught by the launcher).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <source_location>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <unistd.h>

#include "types.h"

namespace akgen_sim {

using loc_t = std::source_location;
#define AKGEN_LOC ::std::source_location loc = ::std::source_location::current()

// ---------------------------------------------------------------------------------------------- pipes
enum Pipe : int { P_S = 0, P_V, P_MTE1, P_MTE2, P_MTE3, P_M, P_FIX, P_COUNT };
inline const char* pipe_name(int p) {
    static const char* names[] = {"S", "V", "MTE1", "MTE2", "MTE3", "M", "FIX"};
    return (p >= 0 && p < P_COUNT) ? names[p] : "?";
}
inline int pipe_of(pipe_t p) {
    switch (p) {
        case PIPE_S: return P_S;
        case PIPE_V: return P_V;
        case PIPE_M: return P_M;
        case PIPE_MTE1: return P_MTE1;
        case PIPE_MTE2: return P_MTE2;
        case PIPE_MTE3: return P_MTE3;
        case PIPE_FIX: return P_FIX;
        default: return -1;
    }
}

// ---------------------------------------------------------------------------------------------- configuration
struct OpCost { double startup = 4.0; double slope = 2.0; };  // cycles, cycles per repeat

// Which checks end a block: the NPU's own rules (NPU, the default), or also every software assert of CANN's CPU-debug
// library (CPU_DEBUG: CANN CPU-debug parity). See cpu_debug_check below and docs/sim.md "Check modes".
enum class CheckMode : uint8_t { NPU, CPU_DEBUG };

struct Config {
    CheckMode checks = CheckMode::NPU;
    uint64_t ub_bytes = 196608, l1_bytes = 524288, l0a_bytes = 65536, l0b_bytes = 65536, l0c_bytes = 131072;
    int buffers_per_position = 8;
    int buffers_per_pipe = 64;
    double clock_ghz = 1.85;
    // DMA bandwidths per core in GiB/s and the fixed latency of one transfer in cycles.
    double bw_gm_ub = 101, bw_gm_l1 = 135, bw_ub_gm = 188, bw_ub_ub = 1024, bw_l0c_gm = 70, bw_l1_l0a = 441,
           bw_l1_l0b = 220, bw_ub_l1 = 188;
    double dma_latency_cycles = 500;
    double issue_cycles = 2;  // scalar cycles to issue one API call
    // The GM side of a DMA (launcher/charge.inc charge_gm_dma; cost.py writes them from the arch profile, 0 turns a
    // term off): cores of each kind, HBM peak (GB/s) and the share of it streaming reaches, the L2 (bytes, GB/s,
    // line), the fixed cycles of one DMA instruction, the extra bytes of a burst whose GM address is not 32-byte
    // aligned, one core's own ceiling for HBM reads and for GM writes (GB/s), the fixed cycles of a burst that
    // bypasses the L2, and the same-address serialisation.
    int aiv_cores = 48, aic_cores = 24;
    double hbm_gbps = 0, hbm_efficiency = 1, l2_bytes = 0, l2_gbps = 0, l2_line_bytes = 512;
    double dma_instr_cycles = 0, unaligned_burst_bytes = 0, core_hbm_read_gbps = 0, core_write_gbps = 0;
    double uncached_burst_cycles = 0;  // a burst that bypasses the L2 is its own HBM request
    bool same_address = false;
    int ub_bank_groups = 0;  // UB bank groups of a two-source vector op's reads (charge.inc bank_factor); 0: off
    OpCost default_vec{4.0, 2.0};
    size_t max_trace_events = 20000;
    // the compute-sanitizer-style checks (initcheck of UB and GM, racecheck of GM writes, outputs never written)
    bool sanitize = true;
    char arch[64] = "Ascend910B2";  // the arch profile's name

    const OpCost& op(const char* name) const;  // launcher.cpp (charge.inc; the per-op table is kept there)
    double bytes_cycles(double bytes, double gibps) const {
        return bytes / (gibps * 1073741824.0) * clock_ghz * 1e9;
    }
};

// The configuration and the other runtime state with std:: containers live in the launcher (runtime.inc): an
// inline function here that touched them would make every kernel compile instantiate those containers' templates
// again (the precompiled header cannot hold instantiations), about half a second a compile.
Config& cfg();

// ---------------------------------------------------------------------------------------------- events out
inline int& events_fd() { static int fd = 2; return fd; }

inline void write_all(int fd, const char* p, size_t n) {
    while (n > 0) {
        ssize_t w = ::write(fd, p, n);
        if (w <= 0) return;
        p += w;
        n -= static_cast<size_t>(w);
    }
}

// One finding as a JSON line of the events file (launcher.cpp); `block` < 0 for a host-side finding, and
// `error_class` / `api` may be null.
void write_finding(const char* code, const char* severity, std::string_view msg, const loc_t& loc, int block,
                   const char* error_class, const char* api);

// A formatted message on the stack (no std::string at every check site keeps kernel compiles fast).
struct Msg {
    char s[768];
    operator const char*() const { return s; }
};
template <typename... A> inline Msg fmt(const char* f, A... a) {
    Msg m;
    std::snprintf(m.s, sizeof m.s, f, a...);
    return m;
}

// ---------------------------------------------------------------------------------------------- buffer slots
enum class SlotState : uint8_t { FREE, ALLOCATED, ENQUEUED, DEQUEUED, TBUF };

// One buffer of UB (or L1/L0): what InitBuffer hands out. Tensors keep a pointer to their slot and its generation.
struct Slot {
    uint8_t* base = nullptr;
    uint32_t bytes = 0;
    uint32_t gen = 0;           // bumped by FreeTensor: a tensor with an older generation is stale
    SlotState state = SlotState::FREE;
    AscendC::TPosition pos = AscendC::TPosition::VECCALC;
    double write_end = 0;       // cost model: when the last write to this buffer finishes (cycles)
    double read_end = 0;        // ... and the last read
    loc_t alloc_loc{};
    const char* owner = "";     // "TQue" / "TBuf"
};

struct TraceEvent { int pipe; double start; double dur; const char* name; uint32_t line; };

// A GM buffer: `logical` bytes of tensor data inside `bytes` of allocation (the NPU allocates in 512-byte steps, so
// reading a little past a tensor's end is harmless there; only past the allocation is out of bounds).
// `init` (initcheck): one byte per byte of the buffer, nonzero once something wrote it; null when all of it holds
// defined data (an input, host memory the program filled).
struct GmRegion { uint8_t* base; uint64_t bytes; const char* name; uint64_t logical = 0; uint8_t* init = nullptr; };
// A copy of `s` that lives as long as the process (a GM region's name; runtime.inc).
const char* keep_name(std::string_view s);
// A GM write of a block (racecheck): its byte range and the block's barrier epoch (SyncAll passed so far).
struct GmWrite { int region; uint64_t begin, end; loc_t loc; int epoch = 0; };

struct BlockAbort {};  // thrown by fail(): ends the current block

// ---------------------------------------------------------------------------------------------- block context
struct BlockCtx {
    int64_t idx = 0, num = 1;
    // split (mixed AIC/AIV) launches: the core this fiber plays, 1 AIC or 2 AIV (0: the single-pass model, one
    // fiber per block playing every core), its AI Core (group) and its vector sub-block
    int core_type = 0;
    int64_t group = 0;
    int sub_idx = 0, sub_num = 1;
    uint8_t* ub = nullptr;
    uint64_t ub_used = 0;      // bytes handed out by InitBuffer (bump allocation)
    uint64_t l1_used = 0, l0a_used = 0, l0b_used = 0, l0c_used = 0;
    uint8_t* l1 = nullptr;
    uint8_t* l0a = nullptr;
    uint8_t* l0b = nullptr;
    uint8_t* l0c = nullptr;
    // the bias table (TPosition::C2) of the cube core: 1 KB on A2/A3, apart from L1
    uint64_t bt_used = 0;
    alignas(64) uint8_t bt[1024] = {};
    std::deque<Slot> slots;
    int pipes_alive = 0;
    void* tpipe = nullptr;
    int live_per_pos[static_cast<int>(AscendC::TPosition::MAX) + 1] = {};

    // cost model
    double now_s = 0;                 // scalar issue clock
    double pipe_free[P_COUNT] = {};
    double busy[P_COUNT] = {};
    double done = 0;                  // when the last result (including DMA latency) is complete
    double flag_time[static_cast<int>(AscendC::HardEvent::MAX)][8] = {};
    int flag_pending[static_cast<int>(AscendC::HardEvent::MAX)][8] = {};
    loc_t flag_loc[static_cast<int>(AscendC::HardEvent::MAX)][8] = {};
    uint64_t gm_read = 0, gm_write = 0;
    // the cost model's GM side (charge_gm_dma): bytes that went to HBM (L2 misses, write-backs, unaligned bursts),
    // bytes served by the L2, and the GM bytes it modelled (the rest of gm_read + gm_write counts as HBM traffic)
    double gm_hbm = 0, gm_l2 = 0;
    uint64_t gm_modeled = 0;
    uint64_t gm_scalar_read = 0, gm_scalar_write = 0;  // GM bytes through GlobalTensor GetValue/SetValue
    // UB bank conflicts of vector ops (charge.inc vec_charge): the cycles they held UB, until when, that the next
    // MTE2 / MTE3 transfer running alongside waits
    double ub_stall_until = 0, ub_stall[2] = {};
    std::vector<TraceEvent> trace;
    size_t trace_dropped = 0;
    std::vector<GmWrite> gm_writes;
    int epoch = 0;  // SyncAll barriers (and cross-block waits) passed: GM writes in different epochs do not race
    // initcheck of UB: one byte per UB byte, nonzero once written; the destinations of the running API call are
    // marked when it is charged (after its sources were checked, so an in-place op reads its old bytes)
    uint8_t* ub_init = nullptr;
    struct Pending { const uint8_t* p; uint64_t n; } ub_pending[4] = {};
    int ub_pending_n = 0;

    // atomic mode of UB -> GM copies: 0 none, 1 add, 2 max, 3 min
    int atomic = 0;

    // vector mask state
    bool mask_counter = false;
    // special registers of the vector unit: CMPMASK (Compare / Select / SetCmpMask), MAX_MIN_CNT and ACC_VAL
    // (reductions; see vec_cmpsel.h, vec_reduce.h)
    uint8_t cmpmask[16] = {};
    uint64_t spr_maxmin = 0, spr_acc = 0;
    // PADDING register of GM -> UB DataCopyPad (SetPadValue): the value's bits, and whether it was set
    uint64_t pad_value = 0;
    bool pad_value_set = false;
    // FMATRIX registers of the cube's LoadData v2 (SetFmatrix: height, width, padding; left and right) and its
    // padding value (SetLoadDataPaddingValue: the value's bits); see cube_load3d.h
    uint16_t fmatrix_hw[2][2] = {};
    uint8_t fmatrix_pad[2][4] = {};
    uint64_t load3d_pad = 0;
    uint64_t mask_hi = ~0ull, mask_lo = ~0ull;

    loc_t last{};
    const char* last_api = "";
    int findings = 0;
    int errors = 0;
    struct SeenMap* seen = nullptr;  // finding dedup: code@file:line -> count (findings.inc owns it)

    BlockCtx() = default;
    BlockCtx(const BlockCtx&) = delete;
    BlockCtx& operator=(const BlockCtx&) = delete;
    ~BlockCtx();  // findings.inc
};

inline BlockCtx*& ctx_ptr() { static thread_local BlockCtx* p = nullptr; return p; }
// An API called outside a kernel launch (e.g. from a host main before ICPU_RUN_KF) works in a scratch block.
BlockCtx& scratch_ctx();  // launcher.cpp (runtime.inc)
inline BlockCtx& ctx() {
    BlockCtx* p = ctx_ptr();
    return p ? *p : scratch_ctx();
}

std::vector<GmRegion>& gm_regions();  // launcher.cpp (runtime.inc)
// A new buffer slot of block `c` (InitBuffer, PopStackBuffer, a LocalTensor at an address), zero-initialised.
Slot& new_slot(BlockCtx& c);  // launcher.cpp (runtime.inc)

// initcheck (launcher/sanitizer.inc): the UB writes of the API call just made, applied (marking those bytes written)
// when it is charged or at the next API call.
void ub_commit_writes(BlockCtx& c);

// The last API call, for crash and timeout reports (read by the launcher's signal handler).
void touch(const char* api, const loc_t& loc);  // launcher/api_core.inc

// initcheck of UB and GM (launcher/sanitizer.inc): an operand's bytes about to be written (UB: applied when the call
// is charged) or read (a warning when some were never written); GM ranges are byte offsets in `region`.
void ub_will_write(const void* p, uint64_t bytes);
void ub_check_read(const void* p, uint64_t bytes, const char* role, const char* api, const loc_t& loc);
void gm_wrote(int region, uint64_t begin, uint64_t end);
void gm_check_read(int region, uint64_t begin, uint64_t end, const char* api, const loc_t& loc);
// racecheck (launcher/runtime.inc): a non-atomic GM write of the running block, merged with the last one when they touch.
void record_gm_write(int region, uint64_t begin, uint64_t end, const loc_t& loc);

// ---------------------------------------------------------------------------------------------- findings
enum class Sev { ERROR, WARNING, INFO };

// Defined out of line in the launcher (launcher.cpp), so the error paths cost no code in each kernel.
void report(const char* code, Sev sev, const char* msg, const loc_t& loc, const char* error_class = nullptr,
            const char* api = nullptr);

[[noreturn]] void fail(const char* code, const char* msg, const loc_t& loc, const char* error_class = "memory",
                       const char* api = nullptr);

// SyncAll across blocks (launcher.cpp): parks the calling block until all blocks arrived; false outside a launch.
// aiv_only (SyncAll<true>): the cube cores of a split launch do not take part.
bool sync_all_blocks(const loc_t& loc, bool aiv_only = false);
// Cross-core flags of split launches (launcher.cpp): CrossCoreSetFlag / CrossCoreWaitFlag with modeId 0 (all cores
// of the caller's type), 1 (the two AIV of an AI Core) or 2 (the AIC and its two AIV); a wait parks the fiber.
void cross_core_set(int mode, int flag, const loc_t& loc);
void cross_core_wait(int mode, int flag, const loc_t& loc);

inline void warn(const char* code, const char* msg, const loc_t& loc, const char* error_class = nullptr,
                 const char* api = nullptr) {
    report(code, Sev::WARNING, msg, loc, error_class, api);
}

// A check that only CANN's CPU-debug library makes (a software assert; the NPU itself does not check it): in
// cpu-debug mode it fails like `fail`; in npu mode it reports a warning with the same code at the same line, its
// message saying that the NPU goes on, and returns, so the caller carries on as the NPU would. Defined in
// launcher.cpp.
void cpu_debug_check(const char* code, const char* msg, const loc_t& loc, const char* error_class = "memory",
                     const char* api = nullptr);
inline bool npu_checks() { return cfg().checks == CheckMode::NPU; }

// How much of each local memory (UB, L1, L0A/B/C) the launcher maps per block: twice the physical size, so a buffer
// that InitBuffer hands out past the physical end in npu mode (SIM-UB-LIMIT) still has memory behind its address.
// No access reaches it: every operand access is bounded by the physical size (check_local, check_phys).
inline uint64_t arena_bytes(uint64_t physical) { return 2 * physical; }

// ---------------------------------------------------------------------------------------------- cost model
// Issue an operation on `pipe` costing `cycles`, not before `ready` (data dependencies). Returns its end time.
// Cost-model bookkeeping, defined out of line in launcher.cpp (keeps each kernel's compile small).
// charge: issue an op on `pipe` costing `cycles`, not before `ready`; `latency` delays when the result is ready
// without occupying the pipe (DMA transfers stream back to back). Returns when the result is ready.
double charge(int pipe, double cycles, double ready, const char* name, const loc_t& loc, double latency = 0);
// A scalar-only API call (mask setting, GetValue on GM, queue bookkeeping): advances the scalar clock.
void charge_scalar(double cycles = 1);
// Vector op cost from the profile: startup (when the pipe was idle) + slope x repeats.
double vec_cycles(const char* op, double repeats, double ready);
// The profile's cost row of `op` for an element kind (1: 16-bit float, 2: 32-bit float, 3: integer), such as
// "exp_b32", where the profile has one (the tables differ by width: fp32 Exp is 2 cycles a repeat, fp16 about 4);
// `op` itself otherwise. The returned name lives as long as the configuration.
const char* cost_key(const char* op, int kind);
template <typename T>
constexpr int cost_kind() { return std::is_integral_v<T> ? 3 : (sizeof(T) <= 2 ? 1 : 2); }
// DMA: the pipe is busy for bytes / bandwidth; the data is there `dma_latency_cycles` later.
double charge_dma(int pipe, double bytes, double gibps, double ready, const char* name, const loc_t& loc);
// A DMA between GM and a local memory, by its GM side: `bursts` runs of `burst` bytes `pitch` bytes apart from `gm`
// (the GlobalTensor's SetL2CacheHint in `l2_mode`: 0 bypasses the L2). Charges the instruction's fixed cost, the
// bursts' alignment, the L2 (this core's share of it) and HBM (this core's share of its bandwidth) and cores
// reading the same 512 bytes at once (launcher/charge.inc; docs/sim.md "Cost model").
struct GmShape {
    const void* gm = nullptr;
    uint64_t burst = 0, bursts = 1, pitch = 0;
    int l2_mode = 1;
    bool write = false, cube = false;  // a GM write; the cube core's MTE (GM -> L1, L0C/L1 -> GM)
};
double charge_gm_dma(int pipe, const GmShape& s, double gibps, double ready, const char* name, const loc_t& loc);
void cost_launch_begin();  // a new launch: the L2 shares and same-address records start empty

}  // namespace akgen_sim
