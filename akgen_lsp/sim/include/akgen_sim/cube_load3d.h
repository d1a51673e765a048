// akgen sim: LoadData (convolution data movement) v2, L1 -> L0A / L0B: the image-to-column expansion of an
// NC1HWC0 feature map (A2/A3, `LoadData3DParamsV2`), with SetFmatrix / SetLoadDataPaddingValue.
//
// Semantics follow the reference CANN ships with the API (asc-devkit's examples/.../load_data_l12l0/scripts/
// load3d.py; LoadData_3D.md), for N = 1:
// - the source is C1 x H x W x C0 in L1 (H = l1H, W = l1W, C0 = 32 bytes of T, C1 = channelSize / C0);
// - im2col: out[c1][kh * Wk + kw][p][c0] with p = ho * Wout + wo over the output positions of the filter
//   (Hk = filterH (+256 with filterSizeH), dilations, strides, the padding [left, right, top, bottom] filled with
//   padValue), Hout = (H + top + bottom - ((Hk - 1) * dilationH + 1)) / strideH + 1, Wout alike;
// - its 2-D view has K = (c1, kh, kw, c0) across (blocks of C0) and M = p down; the instruction takes the columns
//   [kStartPt, kStartPt + kExtension) and the rows [mStartPt, mStartPt + mExtension) (rounded up to 16);
// - L0A: zZ (16 x C0 fractals, row block after row block: what Mmad reads as A); enTranspose with 16-bit types
//   transposes each 16 x 16 fractal, K block after K block; with 32-bit types it gives the zZ image of the
//   transpose (16 x 8 fractals in pairs); L0B (enTranspose has no effect there): 16-bit types nZ (each fractal
//   transposed, row block after row block), 32-bit types 8-wide columns of the padded K, half a row block at a time.
// K columns past kExtension in the 32-bit transposes are not written (the reference masks them).
// Not emulated (a finding says so): 8-bit types into L0B or transposed, int4b_t, channelSize not a multiple of C0.
#pragma once

#include <cstdint>
#include <cstring>

#include "cube.h"

namespace AscendC {

enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };

struct IsResetLoad3dConfig {
    constexpr IsResetLoad3dConfig(const bool isSetFMatrixIn, const bool isSetPaddingIn)
        : isSetFMatrix(isSetFMatrixIn), isSetPadding(isSetPaddingIn) {}
    bool isSetFMatrix = true;
    bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

template <typename T> struct LoadData3DParamsV2 {
    LoadData3DParamsV2() {}
    LoadData3DParamsV2(const uint8_t padListIn[4], uint16_t l1HIn, uint16_t l1WIn, uint16_t channelSizeIn,
                       uint16_t kExtensionIn, uint16_t mExtensionIn, uint16_t kStartPtIn, uint16_t mStartPtIn,
                       uint8_t strideWIn, uint8_t strideHIn, uint8_t filterWIn, uint8_t filterHIn,
                       uint8_t dilationFilterWIn, uint8_t dilationFilterHIn, bool enTransposeIn, bool enSmallKIn,
                       T padValueIn, bool filterSizeWIn = false, bool filterSizeHIn = false, bool fMatrixCtrlIn = false)
        : l1H(l1HIn), l1W(l1WIn), channelSize(channelSizeIn), kExtension(kExtensionIn), mExtension(mExtensionIn),
          kStartPt(kStartPtIn), mStartPt(mStartPtIn), strideW(strideWIn), strideH(strideHIn), filterW(filterWIn),
          filterH(filterHIn), dilationFilterW(dilationFilterWIn), dilationFilterH(dilationFilterHIn),
          enTranspose(enTransposeIn), enSmallK(enSmallKIn), padValue(padValueIn), filterSizeW(filterSizeWIn),
          filterSizeH(filterSizeHIn), fMatrixCtrl(fMatrixCtrlIn) {
        for (int i = 0; i < 4; ++i) padList[i] = padListIn[i];
    }
    uint8_t padList[4] = {0, 0, 0, 0};
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint16_t channelSize = 0;
    uint16_t kExtension = 0;
    uint16_t mExtension = 0;
    uint16_t kStartPt = 0;
    uint16_t mStartPt = 0;
    uint8_t strideW = 1;
    uint8_t strideH = 1;
    uint8_t filterW = 1;
    uint8_t filterH = 1;
    uint8_t dilationFilterW = 1;
    uint8_t dilationFilterH = 1;
    bool enTranspose = false;
    bool enSmallK = false;
    T padValue = T(0);
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
};

// The FMATRIX registers (feature map height, width and padding; left for L0A-style reads, right with fMatrixCtrl)
inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& fmatrixMode) {
    akgen_sim::BlockCtx& c = akgen_sim::ctx();
    const int side = fmatrixMode == FmatrixMode::FMATRIX_RIGHT ? 1 : 0;
    c.fmatrix_hw[side][0] = l1H;
    c.fmatrix_hw[side][1] = l1W;
    for (int i = 0; i < 4; ++i) c.fmatrix_pad[side][i] = padList[i];
}
template <typename T> inline void SetLoadDataPaddingValue(const T padValue) {
    static_assert(sizeof(T) <= 8, "SetLoadDataPaddingValue takes a scalar of at most 64 bits");
    uint64_t bits = 0;
    std::memcpy(&bits, &padValue, sizeof(T));
    akgen_sim::ctx().load3d_pad = bits;
}

namespace detail {
// The destination element offset of im2col element (row m, column kk) of the taken block (m < m16 * 16,
// kk < kb * C0), or -1 for a padding column that is not written.
template <typename T>
inline int64_t load3d_offset(bool l0a, bool trans, uint32_t m, uint32_t kk, uint32_t m16, uint32_t kb, uint32_t kext) {
    constexpr uint32_t C0 = 32 / sizeof(T);
    const uint32_t b = kk / C0, c = kk % C0;
    if (l0a && !trans) return ((int64_t(m / 16) * kb + b) * 16 + m % 16) * C0 + c;
    if constexpr (sizeof(T) == 2) {
        if (l0a) return ((int64_t(b) * m16 + m / 16) * C0 + c) * 16 + m % 16;
        return ((int64_t(m / 16) * kb + b) * C0 + c) * 16 + m % 16;
    } else {
        if (kk >= kext) return -1;
        const uint32_t kp = (kb * C0 + 15) / 16 * 16, h = (m % 16) / 8, r = m % 8;
        if (l0a) return (((int64_t(kk / 16) * m16 + m / 16) * 2 + h) * 16 + kk % 16) * 8 + r;
        return ((int64_t(m / 16) * 2 + h) * kp + kk) * 8 + r;
    }
}
}  // namespace detail

template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T>
    requires std::is_same_v<T, U>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& p,
                     AKGEN_LOC) {
    const char* api = "LoadData";
    akgen_sim::touch(api, loc);
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "akgen sim: LoadData with LoadData3DParamsV2 is emulated for 8-, 16- and 32-bit types (not int4b_t)");
    constexpr uint32_t C0 = 32 / sizeof(T);
    akgen_sim::BlockCtx& bc = akgen_sim::ctx();
    if (defaultConfig.isSetFMatrix) {  // the call sets the left FMATRIX registers from its own parameters
        bc.fmatrix_hw[0][0] = p.l1H;
        bc.fmatrix_hw[0][1] = p.l1W;
        for (int i = 0; i < 4; ++i) bc.fmatrix_pad[0][i] = p.padList[i];
    }
    if (defaultConfig.isSetPadding) SetLoadDataPaddingValue(p.padValue);
    const int side = !defaultConfig.isSetFMatrix && p.fMatrixCtrl ? 1 : 0;
    const uint32_t H = bc.fmatrix_hw[side][0], W = bc.fmatrix_hw[side][1];
    const uint8_t* pad = bc.fmatrix_pad[side];  // left, right, top, bottom
    T padv;
    std::memcpy(&padv, &bc.load3d_pad, sizeof(T));
    const uint32_t fh = p.filterH + (p.filterSizeH ? 256u : 0u), fw = p.filterW + (p.filterSizeW ? 256u : 0u);
    if (H == 0 || W == 0 || p.channelSize == 0 || p.kExtension == 0 || p.mExtension == 0 || fh == 0 || fw == 0) {
        return;  // l1H, l1W, channelSize, kExtension, mExtension or the filter 0: a NOP (LoadData_3D.md)
    }
    const bool l0a = dst.pos_ == TPosition::A2;
    const bool trans = l0a && p.enTranspose;
    if (sizeof(T) == 1 && (trans || !l0a)) {
        akgen_sim::fail("SIM-LOAD3D", "LoadData (LoadData3DParamsV2): 8-bit data into L0B or transposed into L0A is "
                        "not emulated yet (L0A without enTranspose is); use LoadData2D or LoadDataWithTranspose",
                        loc, "api_mismatch", api);
    }
    if (p.channelSize % C0 != 0) {
        akgen_sim::fail("SIM-LOAD3D", akgen_sim::fmt("LoadData (LoadData3DParamsV2): channelSize %u is not a "
                        "multiple of C0 (%u elements): not emulated yet", unsigned(p.channelSize), unsigned(C0)),
                        loc, "api_mismatch", api);
    }
    if (p.strideH == 0 || p.strideW == 0 || p.dilationFilterH == 0 || p.dilationFilterW == 0) {
        akgen_sim::fail("SIM-LOAD3D", "LoadData (LoadData3DParamsV2): strideH, strideW and the filter dilations "
                        "must be at least 1", loc, "api_mismatch", api);
    }
    const int64_t eh = int64_t(fh - 1) * p.dilationFilterH + 1, ew = int64_t(fw - 1) * p.dilationFilterW + 1;
    const int64_t hout = (int64_t(H) + pad[2] + pad[3] - eh) / p.strideH + 1;
    const int64_t wout = (int64_t(W) + pad[0] + pad[1] - ew) / p.strideW + 1;
    const uint32_t c1n = p.channelSize / C0;
    const uint32_t m16 = (p.mExtension + 15) / 16, kb = (p.kExtension + C0 - 1) / C0;
    const uint64_t src_elems = uint64_t(c1n) * H * W * C0;
    // the last element written (the layouts grow with the row and the column; the 32-bit transposes stop at
    // kExtension) and how many bytes the load moves
    const bool masked = sizeof(T) == 4 && (trans || !l0a);
    const uint64_t dst_elems = uint64_t(detail::load3d_offset<T>(l0a, trans, m16 * 16 - 1,
                                                                 (masked ? p.kExtension : kb * C0) - 1, m16, kb,
                                                                 p.kExtension)) + 1;
    akgen_sim::check_cube(src, "src", api, src_elems * sizeof(T), {TPosition::A1, TPosition::B1, TPosition::C1,
                          TPosition::TSCM}, "L1 (A1, B1)", loc);
    akgen_sim::check_cube(dst, "dst", api, dst_elems * sizeof(T), {TPosition::A2, TPosition::B2},
                          "L0A (A2) or L0B (B2)", loc);
    const T* s = src.addr_;
    T* d = dst.addr_;
    const uint32_t kernel = fh * fw;
    for (uint32_t m = 0; m < m16 * 16; ++m) {
        const int64_t pos = int64_t(p.mStartPt) + m;
        const bool row = hout > 0 && wout > 0 && pos < hout * wout;
        const int64_t ho = row ? pos / wout : 0, wo = row ? pos % wout : 0;
        for (uint32_t kk = 0; kk < kb * C0; ++kk) {
            const int64_t off = detail::load3d_offset<T>(l0a, trans, m, kk, m16, kb, p.kExtension);
            if (off < 0) continue;
            const uint32_t col = p.kStartPt + kk, blk = col / C0, c = col % C0;
            const uint32_t c1 = blk / kernel, kf = blk % kernel;
            T v = padv;
            if (row && c1 < c1n) {
                const int64_t h = ho * p.strideH + int64_t(kf / fw) * p.dilationFilterH - pad[2];
                const int64_t w = wo * p.strideW + int64_t(kf % fw) * p.dilationFilterW - pad[0];
                if (h >= 0 && h < int64_t(H) && w >= 0 && w < int64_t(W)) {
                    v = s[((uint64_t(c1) * H + uint64_t(h)) * W + uint64_t(w)) * C0 + c];
                }
            }
            d[off] = v;
        }
    }
    const double bytes = double(dst_elems) * sizeof(T);
    const double bw = l0a ? akgen_sim::cfg().bw_l1_l0a : akgen_sim::cfg().bw_l1_l0b;
    const double ready = std::max(akgen_sim::ready_for_write(dst.slot_), akgen_sim::ready_for_read(src.slot_));
    const double end = akgen_sim::charge(akgen_sim::P_MTE1, akgen_sim::cfg().bytes_cycles(bytes, bw), ready, api, loc);
    akgen_sim::wrote(dst.slot_, end);
    akgen_sim::read_by(src.slot_, end);
}

}  // namespace AscendC
