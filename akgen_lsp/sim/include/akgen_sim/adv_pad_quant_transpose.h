// akgen sim: the high-level Pad and UnPad of lib/pad/pad.h on A2/A3 (dav-2201), with their tiling types PadTiling and
// UnPadTiling (field names and order of CANN's pad_tilingdata.h; visible at global scope, in optiling and in
// AscendC::tiling) and PadParams / UnPadParams.
//
// Pad<T>(dst, src, padParams[, sharedTmpBuffer], tiling), T int16_t / uint16_t / half / int32_t / uint32_t / float,
// src a [srcHeight, srcWidth] tensor:
// - srcWidth 32-byte aligned (pad_base_impl.h AlignedPad): dst = src (height x width), then in each row the columns
//   srcOriWidth .. srcOriWidth + rightPad - 1 (inside the row's last 32-byte block) become padValue; leftPad unused.
// - srcWidth not aligned (UnAlignedPad): src rows are packed (width apart); dst row j is leftPad x padValue, the
//   row's width elements, rightPad x padValue, rows width + leftPad + rightPad apart. This path works through the
//   temporary buffer the tiling describes: PadTilingFunc must have had a stack size of at least GetPadMaxMinTmpSize's
//   min (tmpBuffer1BlockNum >= 1), and the buffer must hold its two halves (2 x tmpBuffer2Offset elements).
// padValue is converted to T. UnPad<T>(dst, src, unPadParams[, sharedTmpBuffer], tiling): A2/A3 only removes columns
// on the right: the library's GatherMask (pattern 7, counter mode, width - rightPad elements of each of srcHeight
// rows, rows width apart) packs them into dst; it runs through the simulator's GatherMask with its checks.
//
// AscendDequant<dstT, scaleT, mode>(dst, src int32_t, deqScale (tensor or scalar)[, sharedTmpBuffer], DequantParams
// {m, n, calCount}) on A2/A3 (quantization/dequant/ascend_dequant_common_impl.h): src is m rows of n (n a multiple of
// 8), dst m rows of n rounded up to dstT's 32-byte block; per row, in float: the first calCount elements are
// float(src) * float(deqScale[j]) (or the scalar), the rest of the n float(src) unchanged, each cast to dstT (bf16
// CAST_RINT, half CAST_NONE; both round to nearest even). Combinations (tensor scale): half/uint64_t (the low 32 bits
// are the float scale), float/float, float/bf16, bf16/bf16, bf16/float; (scalar) bf16/bf16, float/bf16, float/float,
// bf16/float. mode DEQUANT_WITH_SINGLE_ROW turns {1, k * c, c} (c a multiple of dstT's block) into {k, c, c}. The
// forms without params take {srcSize / scaleSize, scaleSize, scaleSize}. The shared buffer must hold the float
// scale (rounded up to 8) plus one float row.
//
// AscendAntiQuant<int8_t, dstT, isTranspose = false>(dst, src, [offset,] scale[, sharedTmpBuffer], K[, shapeInfo]),
// dstT half or bfloat16_t, A2/A3 (quantization/antiquant/ascend_antiquant_impl.h, the per-channel path the library
// takes: N = src.GetSize() / K, every one of the K rows with the same N offsets and scales): dst = (src + offset) *
// scale; half in half arithmetic (cast, Add, Mul, each rounded to half), bfloat16_t in float, rounded once (RINT).
// The scalar forms apply one offset / scale to all src.GetSize() elements. A bfloat16_t result needs the float work
// area in sharedTmpBuffer (or one group of scales: the library's other path). Not emulated: isTranspose (reported),
// int4b_t sources and per-group scale tensors of more than one row.
//
// Transpose<T>(dst, src[, sharedTmpBuffer], TransposeType, ConfusionTransposeTiling) (transpose/confusion_transpose.h),
// scenarios 1 and 2 with the tiling of GetTransposeTilingInfo (param1 B, param2 A1, param3 A3 and param4 A2 rounded
// up to 16): src NZ [B, A1, A3/16, A2/16, 16, 16] of the ND [B, A1, A2, A3]; TRANSPOSE_NZ2ND_0213 writes ND
// [B, A2, A1, A3], TRANSPOSE_NZ2NZ_0213 the NZ [B, A2, A3/16, A1/16, 16, 16] of it (A1 a multiple of 16). The other
// scenarios are reported as not emulated; a tiling without stack space (param6 0) is reported.
#pragma once

#include <vector>

#include "adv_pad_norm_transpose_tiling.h"
#include "lib_internal.h"
#include "vec_gather.h"
#include "vec_transpose_gatherb.h"

namespace AscendC {

struct AntiQuantShapeInfo {
    uint32_t offsetHeight{0};
    uint32_t offsetWidth{0};
    uint32_t scaleHeight{0};
    uint32_t scaleWidth{0};
};

enum class DeQuantMode { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };

struct DequantParams {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
};

}  // namespace AscendC

namespace akgen_sim {

template <typename T>
inline void pad_impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                     const AscendC::PadParams& p, const AscendC::LocalTensor<uint8_t>& tmp, const PadTiling& tiling,
                     const loc_t& loc) {
    const char* api = "Pad";
    static_assert(one_of_v<T, int16_t, uint16_t, half, int32_t, uint32_t, float>,
                  "Failed to check dtype in Pad, current api support dtype combination is int16_t, uint16_t, half, "
                  "int32_t, uint32_t, float.");
    touch(api, loc);
    const uint32_t h = tiling.srcHeight, w = tiling.srcWidth, ori = tiling.srcOriWidth;
    const uint32_t epb = 32 / sizeof(T);
    if (h == 0 || w == 0) {
        fail("SIM-PAD-TILING", "Pad: the tiling's srcHeight or srcWidth is 0; fill PadTiling with PadTilingFunc",
             loc, "api_mismatch", api);
        return;
    }
    const T value = static_cast<T>(p.padValue);
    if (w % epb == 0) {
        if (ori > w || w - ori > epb || ori + p.rightPad > w) {
            fail("SIM-PAD-PARAMS", fmt("Pad: with an aligned width %u the pad columns %u..%u must lie in the row's last "
                                       "32-byte block (srcOriWidth %u, rightPad %u)", w, ori, ori + p.rightPad, ori,
                                       p.rightPad), loc, "api_mismatch", api);
            return;
        }
        const uint64_t total = uint64_t(h) * w;
        check_local(src, "srcTensor", api, total * sizeof(T), loc);
        check_local(dst, "dstTensor", api, total * sizeof(T), loc);
        for (uint32_t r = 0; r < h; ++r) {
            for (uint32_t c = 0; c < w; ++c) {
                const uint64_t i = uint64_t(r) * w + c;
                dst.addr_[i] = (c >= ori && c < ori + p.rightPad) ? value : src.addr_[i];
            }
        }
        vec_charge("duplicate", api, double((total * sizeof(T) + 255) / 256) + h, dst.slot_, {src.slot_}, loc);
        return;
    }
    if (tiling.tmpBuffer1BlockNum == 0) {
        fail("SIM-PAD-TMP", fmt("Pad: the width %u is not 32-byte aligned, which needs a temporary buffer, but the "
                                "tiling has tmpBuffer1BlockNum 0; pass PadTilingFunc a stack size of at least "
                                "GetPadMaxMinTmpSize's minValue", w), loc, "api_mismatch", api);
        return;
    }
    check_local(tmp, "sharedTmpBuffer", api, uint64_t(tiling.tmpBuffer2Offset) * 2 * sizeof(T), loc);
    const uint32_t ow = w + p.leftPad + p.rightPad;
    check_local(src, "srcTensor", api, uint64_t(h) * w * sizeof(T), loc);
    check_local(dst, "dstTensor", api, uint64_t(h) * ow * sizeof(T), loc);
    std::vector<T> rows(src.addr_, src.addr_ + uint64_t(h) * w);
    for (uint32_t r = 0; r < h; ++r) {
        T* out = dst.addr_ + uint64_t(r) * ow;
        for (uint32_t c = 0; c < ow; ++c) {
            out[c] = (c < p.leftPad || c >= p.leftPad + w) ? value : rows[uint64_t(r) * w + (c - p.leftPad)];
        }
    }
    vec_charge("duplicate", api, double(h) * ((uint64_t(ow) * sizeof(T) + 31) / 32) * 3, dst.slot_,
               {src.slot_, tmp.slot_}, loc);
}

template <typename T>
inline void unpad_impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       const AscendC::UnPadParams& p, const UnPadTiling& tiling, const loc_t& loc) {
    const char* api = "UnPad";
    static_assert(one_of_v<T, int16_t, uint16_t, half, int32_t, uint32_t, float>,
                  "Failed to check dtype in UnPad, current api support dtype combination is int16_t, uint16_t, half, "
                  "int32_t, uint32_t, float.");
    touch(api, loc);
    const uint32_t h = tiling.srcHeight, w = tiling.srcWidth;
    if (p.leftPad != 0) {
        fail("SIM-UNPAD-PARAMS", fmt("UnPad: leftPad %u is not supported on this device (A2/A3 UnPad removes columns on "
                                     "the right only); set leftPad 0", p.leftPad), loc, "api_mismatch", api);
        return;
    }
    if (h == 0 || w == 0 || (uint64_t(w) * sizeof(T)) % 32 != 0 || p.rightPad >= w) {
        fail("SIM-UNPAD-PARAMS", fmt("UnPad: srcHeight %u x srcWidth %u (width must be 32-byte aligned and larger "
                                     "than rightPad %u); fill UnPadTiling with UnPadTilingFunc", h, w, p.rightPad),
             loc, "api_mismatch", api);
        return;
    }
    AscendC::GatherMaskParams gp;
    gp.repeatTimes = static_cast<uint16_t>(h);
    gp.src0RepeatStride = static_cast<uint16_t>(uint64_t(w) * sizeof(T) / 32);
    uint64_t rsvd = 0;
    AscendC::GatherMask(dst, src, static_cast<uint8_t>(7), true, w - p.rightPad, gp, rsvd, loc);
    AscendC::ResetMask(loc);
}

template <typename S> inline float dequant_scale(const S& v) {
    if constexpr (std::is_same_v<S, uint64_t>) {
        const uint32_t bits = static_cast<uint32_t>(v & 0xffffffffu);
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
    } else {
        return static_cast<float>(v);
    }
}

template <typename dstT, typename scaleT, AscendC::DeQuantMode mode, bool isTensor>
inline void ascend_dequant(const AscendC::LocalTensor<dstT>& dst, const AscendC::LocalTensor<int32_t>& src,
                           const AscendC::LocalTensor<scaleT>* scaleT_, scaleT scalar,
                           const AscendC::LocalTensor<uint8_t>* tmp, AscendC::DequantParams p, const loc_t& loc) {
    const char* api = "AscendDequant";
    if constexpr (isTensor) {
        static_assert((std::is_same_v<scaleT, uint64_t> && std::is_same_v<dstT, half>) ||
                          (std::is_same_v<scaleT, float> && std::is_same_v<dstT, float>) ||
                          (std::is_same_v<scaleT, bfloat16_t> && std::is_same_v<dstT, float>) ||
                          (std::is_same_v<scaleT, bfloat16_t> && std::is_same_v<dstT, bfloat16_t>) ||
                          (std::is_same_v<scaleT, float> && std::is_same_v<dstT, bfloat16_t>),
                      "Failed to check dtype in AscendDequant, current api support dtype combination is dst half with "
                      "deqScale uint64_t, dst float with deqScale float / bfloat16_t, dst bfloat16_t with deqScale "
                      "bfloat16_t / float.");
    } else {
        static_assert(one_of_v<scaleT, bfloat16_t, float> && one_of_v<dstT, bfloat16_t, float>,
                      "Failed to check dtype in AscendDequant, current api support dtype combination with a scalar "
                      "deqScale is dst bfloat16_t / float with deqScale bfloat16_t / float.");
    }
    touch(api, loc);
    const uint32_t blk = 32 / sizeof(dstT);
    if constexpr (mode == AscendC::DeQuantMode::DEQUANT_WITH_SINGLE_ROW) {
        if (p.m == 1 && p.calCount != 0 && p.calCount % blk == 0 && p.n % p.calCount == 0) {
            p.m = p.n / p.calCount;
            p.n = p.calCount;
        }
    }
    if (p.n % 8 != 0 || p.calCount == 0 || p.calCount > p.n) {
        fail("SIM-DEQUANT-PARAMS", fmt("AscendDequant: DequantParams {m %u, n %u, calCount %u}: n must be a multiple of "
                                       "8 (32 bytes of int32_t) and calCount in 1..n", p.m, p.n, p.calCount),
             loc, "api_mismatch", api);
        return;
    }
    if (uint64_t(p.m) * p.n > src.GetSize()) {
        fail("SIM-DEQUANT-PARAMS", fmt("AscendDequant: m %u * n %u is larger than srcTensor's %u elements", p.m, p.n,
                                       src.GetSize()), loc, "api_mismatch", api);
        return;
    }
    const uint32_t dn = (p.n + blk - 1) / blk * blk;
    if (uint64_t(p.m) * dn > dst.GetSize()) {
        fail("SIM-DEQUANT-PARAMS", fmt("AscendDequant: dstTensor has %u elements, fewer than m %u x %u (n rounded up to "
                                       "32 bytes of dstT)", dst.GetSize(), p.m, dn), loc, "api_mismatch", api);
        return;
    }
    uint32_t scaleSize = 0;
    if constexpr (isTensor) {
        if (p.calCount > scaleT_->GetSize()) {
            fail("SIM-DEQUANT-PARAMS", fmt("AscendDequant: calCount %u is larger than deqScale's %u elements",
                                           p.calCount, scaleT_->GetSize()), loc, "api_mismatch", api);
            return;
        }
        scaleSize = (scaleT_->GetSize() + 7) / 8 * 8;
        check_local(*scaleT_, "deqScale", api, uint64_t(p.calCount) * sizeof(scaleT), loc);
    }
    check_local(src, "srcTensor", api, uint64_t(p.m) * p.n * 4, loc);
    check_local(dst, "dstTensor", api, uint64_t(p.m) * dn * sizeof(dstT), loc);
    if (tmp != nullptr) {
        if (tmp->GetSize() / 4 < scaleSize + p.n) {
            fail("SIM-DEQUANT-TMP", fmt("AscendDequant: sharedTmpBuffer holds %u floats, fewer than the %u the float "
                                        "deqScale and one row need; size it with GetAscendDequantMaxMinTmpSize",
                                        tmp->GetSize() / 4, scaleSize + p.n), loc, "api_mismatch", api);
            return;
        }
        check_local(*tmp, "sharedTmpBuffer", api, uint64_t(scaleSize + p.n) * 4, loc);
    }
    const AscendC::RoundMode rm =
        std::is_same_v<dstT, bfloat16_t> ? AscendC::RoundMode::CAST_RINT : AscendC::RoundMode::CAST_NONE;
    const float sc = dequant_scale(scalar);
    for (uint32_t r = 0; r < p.m; ++r) {
        for (uint32_t j = 0; j < p.n; ++j) {
            float v = static_cast<float>(src.addr_[uint64_t(r) * p.n + j]);
            if (j < p.calCount) {
                if constexpr (isTensor) {
                    v = v * dequant_scale(scaleT_->addr_[j]);
                } else {
                    v = v * sc;
                }
            }
            dst.addr_[uint64_t(r) * dn + j] = cast_value<dstT>(v, rm);
        }
    }
    vec_charge("muls", api, double((uint64_t(p.m) * p.n * 4 + 255) / 256) * 3, dst.slot_, {src.slot_}, loc);
}

template <typename T>
inline void confusion_transpose_0213(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                                     AscendC::TransposeType type, const ConfusionTransposeTiling& t,
                                     const loc_t& loc) {
    const char* api = "Transpose";
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Failed to check dtype in Transpose (ConfusionTranspose), current "
                                                    "api support dtype combination is 16-bit and 32-bit types.");
    touch(api, loc);
    if (type != AscendC::TransposeType::TRANSPOSE_NZ2ND_0213 && type != AscendC::TransposeType::TRANSPOSE_NZ2NZ_0213) {
        fail("SIM-NOT-EMULATED", fmt("Transpose with TransposeType %d (ConfusionTranspose) is not emulated by the "
                                     "simulator yet; TRANSPOSE_NZ2ND_0213 and TRANSPOSE_NZ2NZ_0213 are",
                                     static_cast<int>(type)), loc, "api_mismatch", api);
        return;
    }
    const uint32_t B = t.param1, A1 = t.param2, A3 = t.param3, A2 = t.param4;
    if (B == 0 || A1 == 0 || A2 == 0 || A3 == 0 || A2 % 16 != 0 || A3 % 16 != 0) {
        fail("SIM-TRANSPOSE-TILING", "Transpose: the ConfusionTransposeTiling is empty or not from GetTransposeTilingInfo "
                                     "(B, A1, A2, A3 must be set, A2 and A3 rounded up to 16)", loc, "api_mismatch",
             api);
        return;
    }
    if (t.param6 == 0) {
        fail("SIM-TRANSPOSE-TILING", "Transpose: the tiling has no stack space (newPopSize 0); pass "
                                     "GetTransposeTilingInfo at least the minValue of GetTransposeMaxMinTmpSize",
             loc, "api_mismatch", api);
        return;
    }
    const bool nz = type == AscendC::TransposeType::TRANSPOSE_NZ2NZ_0213;
    if (nz && A1 % 16 != 0) {
        fail("SIM-TRANSPOSE-TILING", fmt("Transpose NZ2NZ_0213: A1 %u must be a multiple of 16 for the NZ output", A1),
             loc, "api_mismatch", api);
        return;
    }
    const uint64_t total = uint64_t(B) * A1 * A2 * A3;
    check_local(src, "src", api, total * sizeof(T), loc);
    check_local(dst, "dst", api, total * sizeof(T), loc);
    std::vector<T> in(src.addr_, src.addr_ + total);
    for (uint32_t b = 0; b < B; ++b) {
        for (uint32_t a1 = 0; a1 < A1; ++a1) {
            for (uint32_t a2 = 0; a2 < A2; ++a2) {
                for (uint32_t a3 = 0; a3 < A3; ++a3) {
                    // NZ source: [b][a1][a3 / 16][a2 / 16][a2 % 16][a3 % 16]
                    const uint64_t si = ((((uint64_t(b) * A1 + a1) * (A3 / 16) + a3 / 16) * (A2 / 16) + a2 / 16) * 16 +
                                         a2 % 16) * 16 + a3 % 16;
                    uint64_t di;
                    if (!nz) {  // ND [b][a2][a1][a3]
                        di = ((uint64_t(b) * A2 + a2) * A1 + a1) * A3 + a3;
                    } else {  // NZ [b][a2][a3 / 16][a1 / 16][a1 % 16][a3 % 16]
                        di = ((((uint64_t(b) * A2 + a2) * (A3 / 16) + a3 / 16) * (A1 / 16) + a1 / 16) * 16 + a1 % 16) *
                                 16 + a3 % 16;
                    }
                    dst.addr_[di] = in[si];
                }
            }
        }
    }
    vec_charge("transpose", api, double(total / 256 + 1) * 2, dst.slot_, {src.slot_}, loc);
}

struct AntiQuantShape {
    uint32_t groups = 1;
};

template <typename Src, typename Dst> inline Dst antiquant_value(Src x, Dst offset, Dst scale, bool withOffset) {
    if constexpr (std::is_same_v<Dst, half>) {
        half h = static_cast<half>(static_cast<float>(x));
        if (withOffset) h = static_cast<half>(static_cast<float>(h) + static_cast<float>(offset));
        return static_cast<half>(static_cast<float>(h) * static_cast<float>(scale));
    } else {
        float f = static_cast<float>(x);
        if (withOffset) f += static_cast<float>(offset);
        return cast_value<Dst>(f * static_cast<float>(scale), AscendC::RoundMode::CAST_RINT);
    }
}

template <typename Src, typename Dst, bool isTranspose>
inline void ascend_antiquant(const AscendC::LocalTensor<Dst>& dst, const AscendC::LocalTensor<Src>& src,
                             const AscendC::LocalTensor<Dst>* offT, const AscendC::LocalTensor<Dst>* scaleT_,
                             Dst offS, Dst scaleS, bool withOffset, const AscendC::LocalTensor<uint8_t>* tmp,
                             uint32_t K, uint32_t groupCount, const loc_t& loc) {
    const char* api = "AscendAntiQuant";
    static_assert(std::is_same_v<Src, int8_t>,
                  "akgen sim: AscendAntiQuant is emulated for int8_t sources (int4b_t is not emulated yet).");
    static_assert(one_of_v<Dst, half, bfloat16_t>,
                  "Failed to check dtype in AscendAntiQuant, current api support dtype combination is src int8_t with "
                  "dst half / bfloat16_t.");
    touch(api, loc);
    if constexpr (isTranspose) {
        fail("SIM-NOT-EMULATED", "AscendAntiQuant<..., isTranspose = true> is not emulated by the simulator yet; use "
                                 "the [K, N] (isTranspose = false) form", loc, "api_mismatch", api);
        return;
    }
    const uint32_t total = src.GetSize();
    check_local(src, "src", api, total, loc);
    check_local(dst, "dst", api, uint64_t(total) * sizeof(Dst), loc);
    if (scaleT_ == nullptr) {  // scalar offset / scale
        if constexpr (std::is_same_v<Dst, bfloat16_t>) {
            if (tmp == nullptr || tmp->GetSize() < 4 * sizeof(Dst)) {
                fail("SIM-ANTIQUANT-TMP", "AscendAntiQuant: a bfloat16_t result needs a float work area in "
                                          "sharedTmpBuffer; size it with GetAscendAntiQuantMaxMinTmpSize", loc,
                     "api_mismatch", api);
                return;
            }
        }
        for (uint32_t i = 0; i < total; ++i) dst.addr_[i] = antiquant_value(src.addr_[i], offS, scaleS, withOffset);
        vec_charge("muls", api, double((uint64_t(total) * 2 + 255) / 256) * 3, dst.slot_, {src.slot_}, loc);
        return;
    }
    if (K == 0 || total % K != 0) {
        fail("SIM-ANTIQUANT-SHAPE", fmt("AscendAntiQuant: K %u must divide the source's %u elements (src is [K, N])",
                                        K, total), loc, "api_mismatch", api);
        return;
    }
    const uint32_t N = total / K;
    if ((uint64_t(N) * sizeof(Dst)) % 32 != 0) {
        fail("SIM-ANTIQUANT-SHAPE", fmt("AscendAntiQuant: N %u (src [K %u, N]) must be 32-byte aligned in the output "
                                        "type", N, K), loc, "api_mismatch", api);
        return;
    }
    check_local(*scaleT_, "scale", api, uint64_t(N) * sizeof(Dst), loc);
    if (offT != nullptr) check_local(*offT, "offset", api, uint64_t(N) * sizeof(Dst), loc);
    if constexpr (std::is_same_v<Dst, bfloat16_t>) {
        const uint64_t perf = uint64_t(scaleT_->GetSize()) * 2 * 4 + 64ull * K * 4;
        const uint32_t have = tmp ? tmp->GetSize() : 0;
        if (have < perf && groupCount != 1) {
            fail("SIM-NOT-EMULATED", fmt("AscendAntiQuant: with a sharedTmpBuffer of %u B (under the %llu B of the "
                                         "per-channel path) the library groups rows by the scale's ShapeInfo (%u "
                                         "groups), which the simulator does not emulate yet; pass the size "
                                         "GetAscendAntiQuantMaxMinTmpSize returns as max", have,
                                         static_cast<unsigned long long>(perf), groupCount),
                 loc, "api_mismatch", api);
            return;
        }
        if (have == 0) {
            fail("SIM-ANTIQUANT-TMP", "AscendAntiQuant: a bfloat16_t result needs a float work area in sharedTmpBuffer; "
                                      "size it with GetAscendAntiQuantMaxMinTmpSize", loc, "api_mismatch", api);
            return;
        }
    }
    for (uint32_t k = 0; k < K; ++k) {
        for (uint32_t n = 0; n < N; ++n) {
            const uint64_t i = uint64_t(k) * N + n;
            dst.addr_[i] = antiquant_value(src.addr_[i], offT ? offT->addr_[n] : Dst{}, scaleT_->addr_[n],
                                           offT != nullptr);
        }
    }
    vec_charge("muls", api, double((uint64_t(total) * 2 + 255) / 256) * 3, dst.slot_, {src.slot_, scaleT_->slot_},
               loc);
}

template <typename Dst>
inline uint32_t antiquant_groups(const AscendC::LocalTensor<Dst>& scale, uint32_t fromInfo) {
    if (fromInfo != 0) return fromInfo;
    return scale.GetShapeInfo().shapeDim >= 1 ? scale.GetShapeInfo().shape[0] : 0;
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling, AKGEN_LOC) {
    ::akgen_sim::pad_impl(dstTensor, srcTensor, padParams, sharedTmpBuffer, tiling, loc);
}
template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                PadTiling& tiling, AKGEN_LOC) {
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    ::akgen_sim::pad_impl(dstTensor, srcTensor, padParams, stack, tiling, loc);
}
template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                  LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling, AKGEN_LOC) {
    (void)sharedTmpBuffer;  // A2/A3's UnPad is one GatherMask and uses no temporary space
    ::akgen_sim::unpad_impl(dstTensor, srcTensor, unPadParams, tiling, loc);
}
template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                  UnPadTiling& tiling, AKGEN_LOC) {
    ::akgen_sim::unpad_impl(dstTensor, srcTensor, unPadParams, tiling, loc);
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                          DequantParams params, AKGEN_LOC) {
    ::akgen_sim::ascend_dequant<dstT, scaleT, mode, true>(dstTensor, srcTensor, &deqScale, scaleT{}, &sharedTmpBuffer,
                                                          params, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, DequantParams params, AKGEN_LOC) {
    ::akgen_sim::ascend_dequant<dstT, scaleT, mode, true>(dstTensor, srcTensor, &deqScale, scaleT{}, nullptr, params,
                                                          loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                          AKGEN_LOC) {
    const uint32_t k = deqScale.GetSize();
    ::akgen_sim::ascend_dequant<dstT, scaleT, mode, true>(dstTensor, srcTensor, &deqScale, scaleT{}, &sharedTmpBuffer,
                                                          DequantParams{k ? srcTensor.GetSize() / k : 0, k, k}, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, AKGEN_LOC) {
    const uint32_t k = deqScale.GetSize();
    ::akgen_sim::ascend_dequant<dstT, scaleT, mode, true>(dstTensor, srcTensor, &deqScale, scaleT{}, nullptr,
                                                          DequantParams{k ? srcTensor.GetSize() / k : 0, k, k}, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                          const scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer, DequantParams params,
                          AKGEN_LOC) {
    ::akgen_sim::ascend_dequant<dstT, scaleT, mode, false>(dstTensor, srcTensor, nullptr, deqScale, &sharedTmpBuffer,
                                                           params, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                          const scaleT deqScale, DequantParams params, AKGEN_LOC) {
    ::akgen_sim::ascend_dequant<dstT, scaleT, mode, false>(dstTensor, srcTensor, nullptr, deqScale, nullptr, params,
                                                           loc);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                            const AntiQuantShapeInfo& shapeInfo = {}, AKGEN_LOC) {
    ::akgen_sim::ascend_antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, &offset, &scale, OutputDataType{}, OutputDataType{}, true, &sharedTmpBuffer, k,
        ::akgen_sim::antiquant_groups(scale, shapeInfo.scaleHeight), loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const LocalTensor<OutputDataType>& scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}, AKGEN_LOC) {
    ::akgen_sim::ascend_antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, nullptr, &scale, OutputDataType{}, OutputDataType{}, false, &sharedTmpBuffer, k,
        ::akgen_sim::antiquant_groups(scale, shapeInfo.scaleHeight), loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                            const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}, AKGEN_LOC) {
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    ::akgen_sim::ascend_antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, &offset, &scale, OutputDataType{}, OutputDataType{}, true, &stack, k,
        ::akgen_sim::antiquant_groups(scale, shapeInfo.scaleHeight), loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const OutputDataType offset, const OutputDataType scale,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                            const AntiQuantShapeInfo& shapeInfo = {}, AKGEN_LOC) {
    (void)shapeInfo;
    ::akgen_sim::ascend_antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, nullptr, nullptr, offset, scale, true, &sharedTmpBuffer, k, 1, loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                            const AntiQuantShapeInfo& shapeInfo = {}, AKGEN_LOC) {
    (void)shapeInfo;
    ::akgen_sim::ascend_antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, nullptr, nullptr, OutputDataType{}, scale, false, &sharedTmpBuffer, k, 1, loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const OutputDataType offset, const OutputDataType scale, const uint32_t k,
                            const AntiQuantShapeInfo& shapeInfo = {}, AKGEN_LOC) {
    (void)shapeInfo;
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    ::akgen_sim::ascend_antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, nullptr, nullptr, offset, scale, true, &stack, k, 1, loc);
}

template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      TransposeType transposeType, ConfusionTransposeTiling& tiling, AKGEN_LOC) {
    ::akgen_sim::check_local(sharedTmpBuffer, "sharedTmpBuffer", "Transpose", 256u * sizeof(T), loc);
    ::akgen_sim::confusion_transpose_0213(dst, src, transposeType, tiling, loc);
}
template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType transposeType,
                      ConfusionTransposeTiling& tiling, AKGEN_LOC) {
    ::akgen_sim::confusion_transpose_0213(dst, src, transposeType, tiling, loc);
}
template <typename T>
inline void ConfusionTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
                               ConfusionTransposeTiling& tiling, AKGEN_LOC) {
    ::akgen_sim::check_local(sharedTmpBuffer, "sharedTmpBuffer", "ConfusionTranspose", 256u * sizeof(T), loc);
    ::akgen_sim::confusion_transpose_0213(dst, src, transposeType, tiling, loc);
}
template <typename T>
inline void ConfusionTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType transposeType,
                               ConfusionTransposeTiling& tiling, AKGEN_LOC) {
    ::akgen_sim::confusion_transpose_0213(dst, src, transposeType, tiling, loc);
}

}  // namespace AscendC
