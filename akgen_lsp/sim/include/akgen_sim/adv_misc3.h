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
#pragma once

#include "adv_misc3_tiling.h"
#include "lib_internal.h"
#include "vec_gather.h"

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

}  // namespace AscendC
