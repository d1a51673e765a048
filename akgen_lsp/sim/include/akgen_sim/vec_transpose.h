// akgen sim: TransDataTo5HD (basic_api/kernel_operator_vec_transpose_intf.h; the vnchwconv instruction) for 16- and
// 32-bit types, as on A2/A3. One repeat reads one 32-byte block at each of the 16 source addresses and writes one
// block at each of the 16 destination addresses; repeat r reads srcList[i] + r * srcRepStride blocks and writes
// dstList[j] + r * dstRepStride blocks:
// - b16 (16 elements a block): a 16 x 16 transpose, dst block j element i = src block i element j;
// - b32 (8 elements a block): element j of the 16 source blocks fills dst blocks 2j (sources 0-7) and 2j + 1
//   (sources 8-15).
// A repeat reads all its sources before writing (in-place transposes are well defined). repeatTimes 0 is a NOP.
// Addresses must lie in buffers the kernel allocated, 32-byte aligned. 8-bit types (dstHighHalf / srcHighHalf) are
// not emulated yet: reported as SIM-UNSUPPORTED.
#pragma once

#include <vector>

#include "intrinsics.h"

namespace AscendC {

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

struct TransDataTo5HDParams {
    TransDataTo5HDParams() {}
    TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn, const uint8_t repeatTimesIn,
                         const uint16_t dstRepStrideIn, const uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn), srcHighHalf(srcHighHalfIn), repeatTimes(repeatTimesIn),
          dstRepStride(dstRepStrideIn), srcRepStride(srcRepStrideIn) {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};

}  // namespace AscendC

namespace akgen_sim {

template <typename T>
inline void trans_5hd(T* const dst[16], T* const src[16], const AscendC::TransDataTo5HDParams& p, const loc_t& loc) {
    const char* api = "TransDataTo5HD";
    touch(api, loc);
    if constexpr (sizeof(T) == 1) {
        fail("SIM-UNSUPPORTED", "TransDataTo5HD of 8-bit types (dstHighHalf / srcHighHalf) is not emulated yet", loc,
             "api_mismatch", api);
    } else {
        static_assert(sizeof(T) == 2 || sizeof(T) == 4, "TransDataTo5HD takes 8-, 16- or 32-bit types");
        uint32_t repeat = p.repeatTimes;
        if (repeat == 0) return;
        constexpr uint32_t per_blk = 32 / sizeof(T);
        uint64_t src_span = uint64_t(repeat - 1) * p.srcRepStride * 32 + 32;
        uint64_t dst_span = uint64_t(repeat - 1) * p.dstRepStride * 32 + 32;
        Slot* reads[16];
        Slot* writes[16];
        for (int i = 0; i < 16; ++i) {
            AscendC::LocalTensor<T> s = raw_ub(src[i], api, "srcList", loc);
            check_local(s, "srcList", api, src_span, loc);
            AscendC::LocalTensor<T> d = raw_ub(dst[i], api, "dstList", loc);
            check_local(d, "dstList", api, dst_span, loc);
            reads[i] = s.slot_;
            writes[i] = d.slot_;
        }
        for (uint32_t r = 0; r < repeat; ++r) {
            T in[16][per_blk];
            for (int i = 0; i < 16; ++i) {
                std::memcpy(in[i], reinterpret_cast<const uint8_t*>(src[i]) + uint64_t(r) * p.srcRepStride * 32, 32);
            }
            for (int j = 0; j < 16; ++j) {
                T* out = reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(dst[j]) + uint64_t(r) * p.dstRepStride * 32);
                for (uint32_t e = 0; e < per_blk; ++e) {
                    if constexpr (sizeof(T) == 2) {
                        out[e] = in[e][j];  // dst block j element i = src block i element j
                    } else {
                        out[e] = in[(j % 2) * 8 + e][j / 2];  // blocks 2k / 2k + 1: element k of sources 0-7 / 8-15
                    }
                }
            }
        }
        vec_charge("transpose", api, double(repeat), writes[0], {reads[0]}, loc);  // one pass per repeat
    }
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T>
inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                           const TransDataTo5HDParams& nchwconvParams, AKGEN_LOC) {
    T* d[16];
    T* s[16];
    for (int i = 0; i < 16; ++i) {
        d[i] = reinterpret_cast<T*>(dstList[i]);
        s[i] = reinterpret_cast<T*>(srcList[i]);
    }
    ::akgen_sim::trans_5hd<T>(d, s, nchwconvParams, loc);
}
template <typename T>
inline void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                           const TransDataTo5HDParams& nchwconvParams, AKGEN_LOC) {
    ::akgen_sim::check_local(dst, "dst", "TransDataTo5HD", 16 * sizeof(uint64_t), loc);
    ::akgen_sim::check_local(src, "src", "TransDataTo5HD", 16 * sizeof(uint64_t), loc);
    TransDataTo5HD<T>(dst.addr_, src.addr_, nchwconvParams, loc);
}
template <typename T>
inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                           const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                           const TransDataTo5HDParams& nchwconvParams, AKGEN_LOC) {
    T* d[16];
    T* s[16];
    for (int i = 0; i < 16; ++i) {
        d[i] = dstList[i].addr_;
        s[i] = srcList[i].addr_;
    }
    ::akgen_sim::trans_5hd<T>(d, s, nchwconvParams, loc);
}
// The library's internal entry (kernels call it with `__ubuf__ T*` address lists).
template <typename T>
inline void TransDataTo5HDImpl(T* dstList[NCHW_CONV_ADDR_LIST_SIZE], T* srcList[NCHW_CONV_ADDR_LIST_SIZE],
                               const TransDataTo5HDParams& nchwconvParams, AKGEN_LOC) {
    ::akgen_sim::trans_5hd<T>(dstList, srcList, nchwconvParams, loc);
}

}  // namespace AscendC
