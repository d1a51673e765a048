// akgen sim: basic APIs of A2/A3 that the other headers lack:
// - Transpose<T>(dst, src): one 16 x 16 block of a 2-byte type (int16_t, uint16_t, half), dst = src^T;
// - Transpose<T>(dst, src, sharedTmpBuffer, TransposeParamsExt): TRANSPOSE_ND2ND_B16 (uint16_t, the 16 x 16 block),
//   TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW (1-, 2- and 4-byte types; hSize * wSize * sizeof(T) a multiple of
//   32 bytes, hSize * wSize <= 4095, cSize <= 4095); the other TransposeType values are not supported on A2/A3;
// - Gatherb<T>(dst, src, offset, repeatTime, GatherRepeatParams): uint16_t / uint32_t; each repeat copies 8 32-byte
//   blocks from src + offset[r * 8 + j] bytes (32-byte aligned) to dst block r * dstRepStride + j * dstBlkStride
//   (dstBlkStride 0 counts as 1); repeatTime 0 is a NOP.
// Checked: operand sizes and alignment (check_local), parameter ranges, offsets inside src. Not checked: the size of
// sharedTmpBuffer.
#pragma once

#include <cstring>
#include <vector>

#include "vec_engine.h"

namespace AscendC {

enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW,
};

struct TransposeParamsExt {
    constexpr TransposeParamsExt() = default;
    constexpr TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                                 const uint16_t wSizeIn, const TransposeType transposeTypeIn)
        : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

struct GatherRepeatParams {
    GatherRepeatParams() {}
    GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
    uint32_t blockNumber = 8;
    uint16_t dstRepStride = 8;
    uint8_t dstBlkStride = 1;
    uint8_t src0BlkStride = 1;
    uint8_t src1BlkStride = 1;
    uint8_t src0RepStride = 8;
    uint8_t src1RepStride = 8;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

}  // namespace AscendC

namespace akgen_sim {

template <typename T>
inline void transpose16(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const loc_t& loc) {
    const char* api = "Transpose";
    check_local(dst, "dst", api, 256 * sizeof(T), loc);
    check_local(src, "src", api, 256 * sizeof(T), loc);
    T tmp[256];
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) tmp[j * 16 + i] = src.addr_[i * 16 + j];
    std::memcpy(dst.addr_, tmp, sizeof(tmp));
    vec_charge("transpose", api, 1.0, dst.slot_, {src.slot_}, loc);
}

template <typename T>
inline void transpose_nchw(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                           const AscendC::TransposeParamsExt& p, bool toNhwc, const loc_t& loc) {
    const char* api = "Transpose";
    const uint64_t hw = uint64_t(p.hSize) * p.wSize;
    if (p.cSize > 4095 || hw > 4095 || (hw * sizeof(T)) % 32 != 0) {
        fail("SIM-TRANSPOSE-PARAMS",
             fmt("Transpose: NCHW <-> NHWC needs cSize <= 4095, hSize * wSize <= 4095 and hSize * wSize * sizeof(T) a "
                 "multiple of 32 bytes (got cSize %u, hSize %u, wSize %u, %zu-byte elements)",
                 p.cSize, p.hSize, p.wSize, sizeof(T)), loc, "api_mismatch", api);
        return;
    }
    const uint64_t n = uint64_t(p.nSize) * p.cSize * hw;
    if (n == 0) return;
    check_local(dst, "dst", api, n * sizeof(T), loc);
    check_local(src, "src", api, n * sizeof(T), loc);
    std::vector<T> out(n);
    const uint64_t C = p.cSize;
    for (uint64_t b = 0; b < p.nSize; ++b)
        for (uint64_t c = 0; c < C; ++c)
            for (uint64_t s = 0; s < hw; ++s) {
                const uint64_t nchw = (b * C + c) * hw + s, nhwc = (b * hw + s) * C + c;
                if (toNhwc) out[nhwc] = src.addr_[nchw];
                else out[nchw] = src.addr_[nhwc];
            }
    std::memcpy(dst.addr_, out.data(), n * sizeof(T));
    vec_charge("transpose", api, double((n * sizeof(T) + 511) / 512) * 2.0, dst.slot_, {src.slot_}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, int16_t, uint16_t, half>,
                  "Failed to check dtype in Transpose, current api support dtype combination is int16_t, uint16_t, "
                  "half.");
    ::akgen_sim::touch("Transpose", loc);
    ::akgen_sim::transpose16(dst, src, loc);
}

template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const TransposeParamsExt& transposeParams, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    const char* api = "Transpose";
    ::akgen_sim::touch(api, loc);
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "Transpose takes 1-, 2- or 4-byte types");
    switch (transposeParams.transposeType) {
        case TransposeType::TRANSPOSE_ND2ND_B16:
            if constexpr (std::is_same_v<T, uint16_t>) {
                ::akgen_sim::transpose16(dst, src, loc);
            } else {
                ::akgen_sim::fail("SIM-TRANSPOSE-PARAMS", "Transpose: TRANSPOSE_ND2ND_B16 takes uint16_t on Atlas "
                                  "A2/A3; reinterpret the tensors as uint16_t", loc, "api_mismatch", api);
            }
            return;
        case TransposeType::TRANSPOSE_NCHW2NHWC:
            ::akgen_sim::transpose_nchw(dst, src, transposeParams, true, loc);
            return;
        case TransposeType::TRANSPOSE_NHWC2NCHW:
            ::akgen_sim::transpose_nchw(dst, src, transposeParams, false, loc);
            return;
        case TransposeType::TRANSPOSE_TYPE_NONE:
            return;
        default:
            ::akgen_sim::fail("SIM-TRANSPOSE-PARAMS",
                              ::akgen_sim::fmt("Transpose: transposeType %d is not supported by the basic Transpose; "
                                               "use TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC or TRANSPOSE_NHWC2NCHW "
                                               "(ConfusionTranspose covers the NZ forms)",
                                               static_cast<int>(transposeParams.transposeType)),
                              loc, "api_mismatch", api);
    }
}

template <typename T>
inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offset,
                    const uint8_t repeatTime, const GatherRepeatParams& repeatParams, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, uint16_t, uint32_t>,
                  "Failed to check dtype in Gatherb, current api support dtype combination is uint16_t, uint32_t.");
    const char* api = "Gatherb";
    ::akgen_sim::touch(api, loc);
    if (repeatTime == 0) return;
    const uint64_t blk = repeatParams.dstBlkStride == 0 ? 1 : repeatParams.dstBlkStride;
    const uint64_t rep = repeatParams.dstRepStride;
    const uint64_t last = (uint64_t(repeatTime) - 1) * rep * 32 + 7 * blk * 32 + 32;
    ::akgen_sim::check_local(dst, "dst", api, last, loc);
    ::akgen_sim::check_local(offset, "offset", api, uint64_t(repeatTime) * 8 * sizeof(uint32_t), loc);
    const uint64_t srcBytes = uint64_t(src.GetSize()) * sizeof(T);
    std::vector<uint8_t> blocks(uint64_t(repeatTime) * 8 * 32);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.addr_);
    for (uint64_t k = 0; k < uint64_t(repeatTime) * 8; ++k) {
        const uint32_t off = offset.addr_[k];
        if (off % 32 != 0 || uint64_t(off) + 32 > srcBytes) {
            ::akgen_sim::fail("SIM-GATHERB-OFFSET",
                              ::akgen_sim::fmt("Gatherb: offset[%llu] = %u bytes must be a multiple of 32 and leave a "
                                               "whole 32-byte block inside src (%llu bytes)",
                                               static_cast<unsigned long long>(k), off,
                                               static_cast<unsigned long long>(srcBytes)),
                              loc, "api_mismatch", api);
            return;
        }
        std::memcpy(blocks.data() + k * 32, s + off, 32);
    }
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.addr_);
    for (uint64_t r = 0; r < repeatTime; ++r)
        for (uint64_t j = 0; j < 8; ++j) std::memcpy(d + (r * rep + j * blk) * 32, blocks.data() + (r * 8 + j) * 32, 32);
    ::akgen_sim::vec_charge("gather", api, double(repeatTime), dst.slot_, {src.slot_, offset.slot_}, loc);
}

}  // namespace AscendC
