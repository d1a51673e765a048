// akgen sim: the sort APIs of basic_api/kernel_operator_proposal_intf.h ("排序组合（ISASI）"), in the two layouts the
// hardware generations use:
//
// - A2/A3 (dav-c220, Ascend910B / 910_93): (score, index) pairs of 8 bytes. Sort32(dst, src0, src1, repeatTime) sorts
//   each group of 32 scores of src0 (half or float) with their uint32_t indices from src1, descending, into 32 pairs
//   (float: score in bytes [0, 4), index in [4, 8); half: score in [0, 2), [2, 4) reserved, index in [4, 8));
//   MrgSort(dst, MrgSortSrcList, MrgSort4Info) merges up to 4 sorted queues of pairs (elementLengths count pairs).
// - Atlas inference AI Core / Atlas training (dav-m200, our Ascend310P profile): Region Proposals of 8 elements
//   [x1, y1, x2, y2, score, label, reserved, reserved] (16 bytes of half, 32 of float). ProposalConcat /
//   ProposalExtract move element `modeNumber` (0..5) of 16 proposals per repeat from / to 16 contiguous elements;
//   RpSort16 sorts each group of 16 proposals by score, descending; MrgSort4(dst, MrgSortSrcList, MrgSort4Info)
//   merges up to 4 sorted proposal queues (elementLengths count proposals).
// Both: ties keep the earlier element first (score[i] == score[j], i > j: j first; across queues the lower queue
// first); validBit says which queues take part (3, 7, 15; CANN's CPU check logs 1 as an error and goes on, the
// hardware field is a 4-bit mask, so 1 copies the first queue: a warning here); ifExhaustedSuspension stops the merge as soon as one valid queue runs out, and
// GetMrgSortResult reads how many elements of each queue the last such merge consumed; repeatTimes repeats the merge
// on the next 4 queues only when the four queues have one length, lie back to back, suspension is off and validBit
// is 15 (as the docs say), otherwise one merge runs. A repeat count of 0 is a NOP.
// An API of the other generation fails with CANN's "<api> is not supported on current device." (its impl for that
// dav raises SIGABRT), with what to use instead. Checked (as CANN's CPU check does): operand liveness, UB position,
// start alignment (32 B; MrgSort's sources 8 B; MrgSort4's dst and sources 16 B (half) / 32 B (float)), sizes (no dst
// size with ifExhaustedSuspension: the records a merge writes past dst's end are written, with a warning, as the
// hardware overwrites whatever UB follows; past the end of UB fails), modeNumber and repeat ranges, queue lengths
// (<= 4095), dst overlapping a valid source of a merge (not supported by the hardware).
//
// The sort helpers of the same header (排序操作), written on the above as the library writes them per generation:
// - Concat(concat, src, tmp, repeatTime): A2/A3 `concat = src` (the scores are the sort's input as they are);
//   310P ProposalConcat(tmp, src, repeatTime, 4) and `concat = tmp`.
// - Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime): A2/A3 Sort32(dst, concat, index, repeatTime); 310P the
//   indices go into the proposals (half: low 16 bits to y1, high 16 bits to label; float: the uint32 bits to label),
//   then RpSort16(dst, concat, repeatTime). isFullSort then merges the sorted groups into one (the library's rounds of
//   4-way merges through tmp, which ends holding the result too): a stable descending sort of all repeatTime groups.
// - Extract(dstValue, dstIndex, sorted, repeatTime): A2/A3 the scores (32 per repeat) and the indices (32 per repeat
//   for float; for half the library's GatherMask runs 2 x repeatTime repeats, so 64 per repeat: the part past
//   dstIndex's 32 x repeatTime is written with a warning, as the NPU writes it); 310P ProposalExtract of the score, and
//   the index from y1/label (half) or label (float) when dstIndex is not empty.
// - MrgSort<T, isExhaustedSuspension>(dst, list, elementCountList, sortedNum, validBit, repeatTime): MrgSort (A2/A3)
//   or MrgSort4 (310P); sortedNum gets the consumed counts when isExhaustedSuspension.
// - GetSortLen<T>(n) / GetSortOffset<T>(n): the elements of T that n sorted records take: A2/A3 4 (half) / 2 (float)
//   per 8-byte pair; 310P 8 per proposal.
// Not emulated yet: TopK and the SortConfig Sort of Ascend 950.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "vec_engine.h"

namespace AscendC {

constexpr int32_t MRG_SORT_ELEMENT_LEN = 4;

struct MrgSort4Info {
    MrgSort4Info() {}
    MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN], const bool ifExhaustedSuspensionIn,
                 const uint16_t validBitIn, const uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn),
          repeatTimes(static_cast<uint8_t>(repeatTimesIn)) {
        for (int32_t i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = elementLengthsIn[i];
    }
    uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint8_t repeatTimes = 1;
};

template <typename T> struct MrgSortSrcList {
    MrgSortSrcList() {}
    MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                   const LocalTensor<T>& src4In)
        : src1(src1In[0]), src2(src2In[0]), src3(src3In[0]), src4(src4In[0]) {}
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};

}  // namespace AscendC

namespace akgen_sim {

// The Region Proposal generation: our Ascend310P profile (Atlas inference AI Core). Everything else we model is
// A2/A3 (dav-c220).
inline bool arch_has_proposals() { return std::strcmp(cfg().arch, "Ascend310P") == 0; }

inline void require_sort_arch(bool proposal_api, const char* api, const char* instead, const loc_t& loc) {
    if (proposal_api == arch_has_proposals()) return;
    fail("SIM-ARCH-API",
         fmt("%s is not supported on current device (%s; the CANN library aborts there). %s", api, cfg().arch,
             instead), loc, "api_mismatch", api);
}

constexpr const char* kUsePairs = "On A2/A3 sort (score, index) pairs with Sort32 and merge them with MrgSort; the "
                                  "Region Proposal APIs (ProposalConcat, ProposalExtract, RpSort16, MrgSort4) run on "
                                  "Atlas inference AI Core (--arch Ascend310P) and Atlas training only.";
constexpr const char* kUseProposals = "Sort32 and MrgSort run on A2/A3 (Ascend910B, 910_93); on Atlas inference AI "
                                      "Core use ProposalConcat + RpSort16 + MrgSort4 on Region Proposals.";

template <typename T> inline void sort_dtype_check() {
    static_assert(std::is_same_v<T, ::half> || std::is_same_v<T, float>,
                  "the sort APIs take half or float scores");
}

// Operand checks where the start alignment is not always 32 bytes.
template <typename T>
inline void check_sort_operand(const AscendC::LocalTensor<T>& t, const char* role, const char* api, uint64_t bytes,
                               uint32_t align, const loc_t& loc) {
    if (align == 32) {
        check_local(t, role, api, bytes, loc);
        return;
    }
    check_local(t, role, api, bytes, loc, false);
    if (!AscendC::is_ub_position(t.pos_)) {
        fail("SIM-POSITION", fmt("%s: the %s tensor is not in UB (its position is not VECIN, VECOUT or VECCALC)", api,
                                 role), loc, "api_mismatch", api);
    }
    BlockCtx& c = ctx();
    const uint8_t* a = reinterpret_cast<const uint8_t*>(t.addr_);
    uint64_t off = static_cast<uint64_t>(a - c.ub);
    if (a < c.ub || off + bytes > cfg().ub_bytes) {
        fail("SIM-UB-OOB", fmt("%s: the ub address out of bounds (%s tensor at UB offset %lld, %llu bytes; UB has %llu "
                               "bytes)", api, role, static_cast<long long>(a - c.ub),
                               static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(cfg().ub_bytes)),
             loc, "memory", api);
    }
    if (off % align != 0) {
        fail("SIM-UB-ALIGN", fmt("Failed to check %s tensor address alignment in %s, current tensor address is %llu, "
                                 "which should be %u byte aligned.", role, api, static_cast<unsigned long long>(off),
                                 align), loc, "memory", api);
    }
}

inline uint32_t check_sort_repeat(int64_t r, const char* api, const loc_t& loc) {
    return check_repeat(static_cast<long long>(r), api, loc);
}

// What ProposalConcat and ProposalExtract check first (310P only, repeat and modeNumber ranges); the repeat count.
template <typename T>
inline uint32_t proposal_move_checks(const char* api, int32_t repeatTime, int32_t modeNumber, const loc_t& loc) {
    sort_dtype_check<T>();
    touch(api, loc);
    require_sort_arch(true, api, kUsePairs, loc);
    uint32_t repeat = check_sort_repeat(repeatTime, api, loc);
    if (modeNumber < 0 || modeNumber > 5) {
        fail("SIM-PARAM", fmt("%s: modeNumber %d is out of range [0, 5] (0 x1, 1 y1, 2 x2, 3 y2, 4 score, 5 label)",
                              api, modeNumber), loc, "api_mismatch", api);
    }
    return repeat;
}

// The counts of the last merge with ifExhaustedSuspension, per block (GetMrgSortResult).
std::array<uint16_t, 4>& mrg_sort_result();  // launcher/runtime.inc

// One merge of up to 4 sorted queues of `elem`-byte records whose score (type T) sits at byte `score_at`. Writes
// the merged records to dst and returns how many it wrote; `used` gets the records taken from each queue.
template <typename T>
inline uint32_t merge_queues(uint8_t* dst, const uint8_t* const src[4], const uint16_t len[4], uint16_t valid,
                             bool suspend, uint32_t elem, uint32_t score_at, std::array<uint16_t, 4>& used) {
    used = {0, 0, 0, 0};
    uint32_t out = 0;
    std::vector<uint8_t> buf;
    for (int q = 0; q < 4; ++q)
        if (valid & (1u << q)) buf.reserve(buf.capacity() + size_t(len[q]) * elem);
    auto score = [&](int q) {
        T s;
        std::memcpy(&s, src[q] + size_t(used[q]) * elem + score_at, sizeof(T));
        return static_cast<float>(s);
    };
    for (;;) {
        int best = -1;
        float best_score = 0;
        bool exhausted = false;
        for (int q = 0; q < 4; ++q) {
            if (!(valid & (1u << q))) continue;
            if (used[q] >= len[q]) {
                exhausted = true;
                continue;
            }
            float s = score(q);
            if (best < 0 || s > best_score) {
                best = q;
                best_score = s;
            }
        }
        if (best < 0 || (suspend && exhausted)) break;
        buf.insert(buf.end(), src[best] + size_t(used[best]) * elem, src[best] + size_t(used[best] + 1) * elem);
        ++used[best];
        ++out;
    }
    std::memcpy(dst, buf.data(), buf.size());
    return out;
}

// Stable descending sort of n records of `elem` bytes in place (by the T score at byte `score_at`).
template <typename T> inline void sort_records(uint8_t* p, uint32_t n, uint32_t elem, uint32_t score_at) {
    std::vector<uint32_t> order(n);
    for (uint32_t i = 0; i < n; ++i) order[i] = i;
    std::vector<float> key(n);
    for (uint32_t i = 0; i < n; ++i) {
        T s;
        std::memcpy(&s, p + size_t(i) * elem + score_at, sizeof(T));
        key[i] = static_cast<float>(s);
    }
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key[a] > key[b]; });
    std::vector<uint8_t> tmp(size_t(n) * elem);
    for (uint32_t i = 0; i < n; ++i) std::memcpy(tmp.data() + size_t(i) * elem, p + size_t(order[i]) * elem, elem);
    std::memcpy(p, tmp.data(), tmp.size());
}

// The shared part of MrgSort (pairs) and MrgSort4 (proposals).
template <typename T>
inline void merge_sort_api(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::MrgSortSrcList<T>& src,
                           const AscendC::MrgSort4Info& info, uint32_t elem, uint32_t score_at, uint32_t dst_align,
                           uint32_t align, bool zero_repeat_nop, const loc_t& loc) {
    touch(api, loc);
    uint16_t valid = info.validBit;
    if (valid != 1 && valid != 3 && valid != 7 && valid != 15) {
        fail("SIM-PARAM", fmt("Failed to check validBit value in %s, its valid value is [3, 7, 15], current value is "
                              "%u.", api, unsigned(valid)), loc, "api_mismatch", api);
    }
    if (valid == 1) {  // CANN's CPU check logs this and goes on; the 4-bit mask then names the first queue only
        warn("SIM-PARAM", fmt("Failed to check validBit value in %s, its valid value is [3, 7, 15], current value is "
                              "1 (only the first queue takes part: the merge copies it).", api), loc, "api_mismatch",
             api);
    }
    uint32_t repeat = info.repeatTimes;
    if (repeat == 0) {
        if (zero_repeat_nop) return;
        fail("SIM-REPEAT", fmt("%s: repeatTimes is 0; it must be in [1, 255]", api), loc, "api_mismatch", api);
    }
    const AscendC::LocalTensor<T>* q[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
    const char* roles[4] = {"src1", "src2", "src3", "src4"};
    uint16_t len[4];
    uint64_t total = 0;
    for (int i = 0; i < 4; ++i) {
        len[i] = (valid & (1u << i)) ? info.elementLengths[i] : 0;
        if (len[i] > 4095) {
            fail("SIM-PARAM", fmt("%s: elementLengths[%d] is %u; a queue holds at most 4095 elements", api, i,
                                  unsigned(len[i])), loc, "api_mismatch", api);
        }
        total += len[i];
    }
    bool contiguous = true;
    for (int i = 0; i < 3; ++i)
        if (reinterpret_cast<const uint8_t*>(q[i]->addr_) + size_t(len[i]) * elem !=
            reinterpret_cast<const uint8_t*>(q[i + 1]->addr_))
            contiguous = false;
    bool repeats = valid == 15 && !info.ifExhaustedSuspension && contiguous && len[0] == len[1] &&
                   len[1] == len[2] && len[2] == len[3];
    if (!repeats) repeat = 1;
    uint64_t span = total * elem;  // one merge's bytes (the sources of the next repeat follow the last queue)
    // With ifExhaustedSuspension the output length is not known before the merge: CANN checks no dst size then.
    check_sort_operand(dst, "dst", api, info.ifExhaustedSuspension ? 0 : span * repeat, dst_align, loc);
    for (int i = 0; i < 4; ++i) {
        if (!(valid & (1u << i))) continue;
        uint64_t need = (repeats ? span * (repeat - 1) : 0) + uint64_t(len[i]) * elem;
        check_sort_operand(*q[i], roles[i], api, need, align, loc);
        const uint8_t* d0 = reinterpret_cast<const uint8_t*>(dst.addr_);
        const uint8_t* s0 = reinterpret_cast<const uint8_t*>(q[i]->addr_);
        if (len[i] != 0 && d0 < s0 + need && s0 < d0 + span * repeat) {
            fail("SIM-OVERLAP", fmt("%s: dst overlaps %s; the merge does not support overlapping source and "
                                    "destination (write the result to another buffer)", api, roles[i]), loc,
                 "memory", api);
        }
    }
    std::array<uint16_t, 4> used{};
    std::vector<uint8_t> out(span);
    for (uint32_t r = 0; r < repeat; ++r) {
        const uint8_t* s[4];
        for (int i = 0; i < 4; ++i) s[i] = reinterpret_cast<const uint8_t*>(q[i]->addr_) + size_t(r) * span;
        uint64_t n = uint64_t(merge_queues<T>(out.data(), s, len, valid, info.ifExhaustedSuspension, elem, score_at,
                                              used)) * elem;
        uint8_t* d = reinterpret_cast<uint8_t*>(dst.addr_) + size_t(r) * span;
        uint64_t end = uint64_t(d - ctx().ub) + n;
        if (end > cfg().ub_bytes) {
            fail("SIM-UB-OOB", fmt("%s writes %llu bytes from UB offset %lld, past the end of UB (%llu bytes) "
                                   "(ErrorWrite3: out of bounds)", api, static_cast<unsigned long long>(n),
                                   static_cast<long long>(d - ctx().ub),
                                   static_cast<unsigned long long>(cfg().ub_bytes)), loc, "memory", api);
        }
        uint64_t have = uint64_t(dst.size_) * sizeof(T);
        if (uint64_t(r) * span + n > have) {
            warn("SIM-SORT-SPILL", fmt("%s (ifExhaustedSuspension) wrote %llu bytes to a dst tensor of %llu bytes: the "
                                       "merged records past its end overwrite whatever UB follows it", api,
                                       static_cast<unsigned long long>(uint64_t(r) * span + n),
                                       static_cast<unsigned long long>(have)), loc, "memory", api);
        }
        std::memcpy(d, out.data(), n);
    }
    mrg_sort_result() = used;
    // One merge streams its elements; charge about one repeat-slot per 256 bytes written.
    vec_charge("mrgsort", api, double((span * repeat + 255) / 256), dst.slot_,
               {src.src1.slot_, src.src2.slot_, src.src3.slot_, src.src4.slot_}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

// ---------------------------------------------------------------------------------------------- A2/A3: pairs
template <typename T>
inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
                   const int32_t repeatTime, AKGEN_LOC) {
    akgen_sim::sort_dtype_check<T>();
    const char* api = "Sort32";
    akgen_sim::touch(api, loc);
    akgen_sim::require_sort_arch(false, api, akgen_sim::kUseProposals, loc);
    uint32_t repeat = akgen_sim::check_sort_repeat(repeatTime, api, loc);
    if (repeat == 0) return;
    akgen_sim::check_local(src0, "src0", api, uint64_t(repeat) * 32 * sizeof(T), loc);
    akgen_sim::check_local(src1, "src1", api, uint64_t(repeat) * 32 * 4, loc);
    akgen_sim::check_local(dst, "dst", api, uint64_t(repeat) * 256, loc);
    std::vector<uint8_t> out(size_t(repeat) * 256, 0);
    for (uint32_t r = 0; r < repeat; ++r) {
        uint8_t* rec = out.data() + size_t(r) * 256;
        for (uint32_t i = 0; i < 32; ++i) {
            T s = src0.addr_[r * 32 + i];
            uint32_t idx = src1.addr_[r * 32 + i];
            std::memcpy(rec + i * 8, &s, sizeof(T));
            std::memcpy(rec + i * 8 + 4, &idx, 4);
        }
        akgen_sim::sort_records<T>(rec, 32, 8, 0);
    }
    // half: bytes [2, 4) of a pair are reserved; keep what dst held there.
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.addr_);
    for (size_t i = 0; i < out.size(); i += 8) {
        std::memcpy(d + i, out.data() + i, sizeof(T));
        std::memcpy(d + i + 4, out.data() + i + 4, 4);
    }
    akgen_sim::vec_charge("sort32", api, double(repeat), dst.slot_, {src0.slot_, src1.slot_}, loc);
}

template <typename T>
inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params, AKGEN_LOC) {
    akgen_sim::sort_dtype_check<T>();
    akgen_sim::touch("MrgSort", loc);
    akgen_sim::require_sort_arch(false, "MrgSort with Param MrgSort4Info", akgen_sim::kUseProposals, loc);
    akgen_sim::merge_sort_api("MrgSort", dst, src, params, 8, 0, 32, 8, true, loc);
}

// ---------------------------------------------------------------------------------------------- 310P: proposals
template <typename T>
inline void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                           const int32_t modeNumber, AKGEN_LOC) {
    const char* api = "ProposalConcat";
    uint32_t repeat = akgen_sim::proposal_move_checks<T>(api, repeatTime, modeNumber, loc);
    if (repeat == 0) return;
    akgen_sim::check_local(src, "src", api, uint64_t(repeat) * 16 * sizeof(T), loc);
    akgen_sim::check_local(dst, "dst", api, uint64_t(repeat) * 16 * 8 * sizeof(T), loc);
    std::vector<T> in(src.addr_, src.addr_ + size_t(repeat) * 16);
    for (uint32_t i = 0; i < repeat * 16; ++i) dst.addr_[size_t(i) * 8 + uint32_t(modeNumber)] = in[i];
    akgen_sim::vec_charge("vconcat", api, double(repeat), dst.slot_, {src.slot_}, loc);
}

template <typename T>
inline void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                            const int32_t modeNumber, AKGEN_LOC) {
    const char* api = "ProposalExtract";
    uint32_t repeat = akgen_sim::proposal_move_checks<T>(api, repeatTime, modeNumber, loc);
    if (repeat == 0) return;
    akgen_sim::check_local(src, "src", api, uint64_t(repeat) * 16 * 8 * sizeof(T), loc);
    akgen_sim::check_local(dst, "dst", api, uint64_t(repeat) * 16 * sizeof(T), loc);
    std::vector<T> out(size_t(repeat) * 16);
    for (uint32_t i = 0; i < repeat * 16; ++i) out[i] = src.addr_[size_t(i) * 8 + uint32_t(modeNumber)];
    std::copy(out.begin(), out.end(), dst.addr_);
    akgen_sim::vec_charge("vextract", api, double(repeat), dst.slot_, {src.slot_}, loc);
}

template <typename T>
inline void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, AKGEN_LOC) {
    akgen_sim::sort_dtype_check<T>();
    const char* api = "RpSort16";
    akgen_sim::touch(api, loc);
    akgen_sim::require_sort_arch(true, api, akgen_sim::kUsePairs, loc);
    uint32_t repeat = akgen_sim::check_sort_repeat(repeatTime, api, loc);
    if (repeat == 0) return;
    const uint32_t elem = 8 * sizeof(T);
    akgen_sim::check_local(src, "src", api, uint64_t(repeat) * 16 * elem, loc);
    akgen_sim::check_local(dst, "dst", api, uint64_t(repeat) * 16 * elem, loc);
    std::vector<uint8_t> buf(size_t(repeat) * 16 * elem);
    std::memcpy(buf.data(), src.addr_, buf.size());
    for (uint32_t r = 0; r < repeat; ++r) akgen_sim::sort_records<T>(buf.data() + size_t(r) * 16 * elem, 16, elem,
                                                                     4 * sizeof(T));
    std::memcpy(dst.addr_, buf.data(), buf.size());
    akgen_sim::vec_charge("vbitsort", api, double(repeat), dst.slot_, {src.slot_}, loc);
}

template <typename T>
inline void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params, AKGEN_LOC) {
    akgen_sim::sort_dtype_check<T>();
    akgen_sim::touch("MrgSort4", loc);
    akgen_sim::require_sort_arch(true, "MrgSort4", akgen_sim::kUsePairs, loc);
    // dst and the proposal queues start 16-byte (half) / 32-byte (float) aligned.
    akgen_sim::merge_sort_api("MrgSort4", dst, src, params, 8 * sizeof(T), 4 * sizeof(T), 8 * sizeof(T),
                              8 * sizeof(T), false, loc);
}

inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                             uint16_t& mrgSortList4, AKGEN_LOC) {
    akgen_sim::touch("GetMrgSortResult", loc);
    const std::array<uint16_t, 4>& r = akgen_sim::mrg_sort_result();
    mrgSortList1 = r[0];
    mrgSortList2 = r[1];
    mrgSortList3 = r[2];
    mrgSortList4 = r[3];
    akgen_sim::charge_scalar();
}

// ---------------------------------------------------------------------------------------------- sort helpers
template <typename T> inline uint32_t GetSortLen(const uint32_t elemCount) {
    akgen_sim::sort_dtype_check<T>();
    if (akgen_sim::arch_has_proposals()) return elemCount * 8;
    return elemCount * (std::is_same_v<T, half> ? 4u : 2u);
}
template <typename T> inline uint32_t GetSortOffset(const uint32_t elemOffset) { return GetSortLen<T>(elemOffset); }

template <typename T>
inline void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
                   const int32_t repeatTime, AKGEN_LOC) {
    akgen_sim::sort_dtype_check<T>();
    const char* api = "Concat";
    akgen_sim::touch(api, loc);
    uint32_t repeat = akgen_sim::check_sort_repeat(repeatTime, api, loc);
    akgen_sim::check_local(src, "src", api, uint64_t(repeat) * 16 * sizeof(T), loc);
    if (akgen_sim::arch_has_proposals()) {
        ProposalConcat(tmp, src, repeatTime, 4, loc);
        concat = tmp;
    } else {
        concat = src;
    }
}

template <typename T, bool isFullSort>
inline void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
                 LocalTensor<T>& tmp, const int32_t repeatTime, AKGEN_LOC) {
    akgen_sim::sort_dtype_check<T>();
    const char* api = "Sort";
    akgen_sim::touch(api, loc);
    uint32_t repeat = akgen_sim::check_sort_repeat(repeatTime, api, loc);
    const bool v200 = akgen_sim::arch_has_proposals();
    const uint32_t group = v200 ? 16 : 32, elem = v200 ? 8 * sizeof(T) : 8, score_at = v200 ? 4 * sizeof(T) : 0;
    if (v200) {
        if (index.GetSize() != 0 && repeat != 0) {
            akgen_sim::check_local(index, "index", api, uint64_t(repeat) * 16 * 4, loc);
            akgen_sim::check_local(concat, "concat", api, uint64_t(repeat) * 16 * 8 * sizeof(T), loc);
            for (uint32_t i = 0; i < repeat * 16; ++i) {
                uint32_t v = index.addr_[i];
                T* p = concat.addr_ + size_t(i) * 8;
                if constexpr (std::is_same_v<T, half>) {
                    uint16_t lo = static_cast<uint16_t>(v & 0xFFFF), hi = static_cast<uint16_t>(v >> 16);
                    std::memcpy(p + 1, &lo, 2);
                    std::memcpy(p + 5, &hi, 2);
                } else {
                    std::memcpy(p + 5, &v, 4);
                }
            }
            akgen_sim::vec_charge("vconcat", api, double(repeat) * 2, concat.slot_, {index.slot_}, loc);
        }
        RpSort16(dst, concat, repeatTime, loc);
    } else {
        Sort32(dst, concat, index, repeatTime, loc);
    }
    if constexpr (isFullSort) {
        if (repeat > 1) {
            const uint64_t bytes = uint64_t(repeat) * group * elem;
            akgen_sim::check_local(tmp, "tmp", api, bytes, loc);
            uint8_t* d = reinterpret_cast<uint8_t*>(dst.addr_);
            akgen_sim::sort_records<T>(d, repeat * group, elem, score_at);
            std::memcpy(tmp.addr_, d, bytes);
            double rounds = 0;
            for (uint32_t q = repeat; q > 1; q = (q + 3) / 4) rounds += 1;
            akgen_sim::vec_charge("mrgsort", api, rounds * double((bytes + 255) / 256) * 2, dst.slot_,
                                  {tmp.slot_}, loc);
        }
    }
}

template <typename T>
inline void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
                    const LocalTensor<T>& sorted, const int32_t repeatTime, AKGEN_LOC) {
    akgen_sim::sort_dtype_check<T>();
    const char* api = "Extract";
    akgen_sim::touch(api, loc);
    uint32_t repeat = akgen_sim::check_sort_repeat(repeatTime, api, loc);
    if (repeat == 0) return;
    if (akgen_sim::arch_has_proposals()) {
        ProposalExtract(dstValue, sorted, repeatTime, 4, loc);
        if (dstIndex.GetSize() != 0) {
            akgen_sim::check_local(dstIndex, "dstIndex", api, uint64_t(repeat) * 16 * 4, loc);
            for (uint32_t i = 0; i < repeat * 16; ++i) {
                const T* p = sorted.addr_ + size_t(i) * 8;
                uint32_t v = 0;
                if constexpr (std::is_same_v<T, half>) {
                    uint16_t lo, hi;
                    std::memcpy(&lo, p + 1, 2);
                    std::memcpy(&hi, p + 5, 2);
                    v = uint32_t(lo) | (uint32_t(hi) << 16);
                } else {
                    std::memcpy(&v, p + 5, 4);
                }
                dstIndex.addr_[i] = v;
            }
            akgen_sim::vec_charge("vextract", api, double(repeat), dstIndex.slot_, {sorted.slot_}, loc);
        }
        return;
    }
    const uint32_t pairs = repeat * 32;
    akgen_sim::check_local(sorted, "sorted", api, uint64_t(repeat) * 256, loc);
    akgen_sim::check_local(dstValue, "dstValue", api, uint64_t(pairs) * sizeof(T), loc);
    akgen_sim::check_local(dstIndex, "dstIndex", api, uint64_t(pairs) * 4, loc);
    const uint8_t* src = reinterpret_cast<const uint8_t*>(sorted.addr_);
    for (uint32_t i = 0; i < pairs; ++i) std::memcpy(dstValue.addr_ + i, src + size_t(i) * 8, sizeof(T));
    // half: the index GatherMask of the library runs 2 x repeatTime repeats of 64 uint32_t (64 pairs per repeat)
    const uint32_t idx = std::is_same_v<T, half> ? 2 * pairs : pairs;
    akgen_sim::BlockCtx& c = akgen_sim::ctx();
    const uint8_t* s_end = src + size_t(idx) * 8;
    const uint8_t* d_end = reinterpret_cast<const uint8_t*>(dstIndex.addr_ + idx);
    if (s_end > c.ub + akgen_sim::cfg().ub_bytes || d_end > c.ub + akgen_sim::cfg().ub_bytes) {
        akgen_sim::fail("SIM-UB-OOB", akgen_sim::fmt("%s (half): the index pass reads and writes %u pairs (2 x "
                                                     "repeatTime GatherMask repeats), which runs past the end of UB "
                                                     "(ErrorWrite3: out of bounds)", api, idx), loc, "memory", api);
    }
    if (idx > sorted.size_ * sizeof(T) / 8 || idx > dstIndex.size_) {
        akgen_sim::warn("SIM-SORT-SPILL", akgen_sim::fmt("%s (half): the index pass handles %u pairs (the library's "
                                                         "GatherMask runs 2 x repeatTime repeats): past the end of "
                                                         "sorted or dstIndex, the UB that follows is read or "
                                                         "overwritten", api, idx), loc, "memory", api);
    }
    for (uint32_t i = 0; i < idx; ++i) std::memcpy(dstIndex.addr_ + i, src + size_t(i) * 8 + 4, 4);
    akgen_sim::vec_charge("gather_mask", api, double(repeat) * (std::is_same_v<T, half> ? 3 : 2), dstValue.slot_,
                          {sorted.slot_}, loc);
}

template <typename T, bool isExhaustedSuspension = false>
inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList, const uint16_t elementCountList[4],
                    uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime, AKGEN_LOC) {
    akgen_sim::sort_dtype_check<T>();
    MrgSort4Info info(elementCountList, isExhaustedSuspension, validBit, static_cast<uint16_t>(repeatTime));
    if (akgen_sim::arch_has_proposals()) {
        MrgSort4(dst, sortList, info, loc);
    } else {
        MrgSort(dst, sortList, info, loc);
    }
    if constexpr (isExhaustedSuspension) {
        const std::array<uint16_t, 4>& r = akgen_sim::mrg_sort_result();
        for (int i = 0; i < 4; ++i) sortedNum[i] = r[i];
    }
}

}  // namespace AscendC
