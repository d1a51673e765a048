// akgen sim: Fixpipe, L0C -> GM (NZ2ND with ndNum matrices, NZ, DN) or L1 (cube.h describes the layouts), with
// quantPre NoQuant / F322F16 / F322BF16 and reluEn. Included by cube.h.
#pragma once

#include <cstdint>

namespace AscendC {

// ------------------------------------------------------------------------------------ Fixpipe (L0C -> GM / L1)
template <typename T, typename U>
inline void fixpipe_one(T* out, const GlobalTensor<T>* g, const LocalTensor<U>& src, uint64_t src0,
                        const FixpipeParamsV220& p, CO2Layout layout, const char* api, const akgen_sim::loc_t& loc);

template <typename T, typename U>
inline void fixpipe_impl(T* out, const GlobalTensor<T>* g, const LocalTensor<U>& src, const FixpipeParamsV220& p,
                         CO2Layout layout, const char* api, const akgen_sim::loc_t& loc) {
    static_assert(std::is_same_v<U, float> || std::is_same_v<U, int32_t>,
                  "Failed to check dtype in Fixpipe, current api support src dtype is float, int32_t");
    if (p.mSize == 0 || p.nSize == 0 || p.ndNum == 0) return;
    // ndNum matrices (L0C -> GM only; the L1 path moves one): the i-th from srcNdStride 16 x 16 fractals of L0C
    // further (A2/A3's unit), to dstNdStride elements further
    const uint32_t nd = g ? p.ndNum : 1;
    for (uint32_t i = 1; i < nd; ++i) {
        fixpipe_one(out + uint64_t(i) * p.dstNdStride, g, src, uint64_t(i) * p.srcNdStride * 256, p, layout, api, loc);
    }
    fixpipe_one(out, g, src, 0, p, layout, api, loc);
    double bytes = double(nd) * p.mSize * p.nSize * sizeof(T);
    double ready = akgen_sim::ready_for_read(src.slot_);
    double end = akgen_sim::charge_dma(akgen_sim::P_FIX, bytes, akgen_sim::cfg().bw_l0c_gm, ready, api, loc);
    akgen_sim::read_by(src.slot_, end);
    if (g) akgen_sim::ctx().gm_write += static_cast<uint64_t>(bytes);
}

// One ND (or NZ) matrix of a Fixpipe: L0C from element `src0` of src on.
template <typename T, typename U>
inline void fixpipe_one(T* out, const GlobalTensor<T>* g, const LocalTensor<U>& src, uint64_t src0,
                        const FixpipeParamsV220& p, CO2Layout layout, const char* api, const akgen_sim::loc_t& loc) {
    bool quant_half = p.quantPre == QuantMode_t::F322F16, quant_bf16 = p.quantPre == QuantMode_t::F322BF16;
    if (p.quantPre != QuantMode_t::NoQuant && !quant_half && !quant_bf16) {
        akgen_sim::fail("SIM-FIXPIPE-QUANT", "Fixpipe: this quantPre mode is not emulated (NoQuant, F322F16 and "
                        "F322BF16 are)", loc, "api_mismatch", api);
    }
    if ((std::is_same_v<T, half> && !quant_half) || (std::is_same_v<T, bfloat16_t> && !quant_bf16) ||
        ((std::is_same_v<T, float> || std::is_same_v<T, int32_t>) && p.quantPre != QuantMode_t::NoQuant)) {
        akgen_sim::fail("SIM-FIXPIPE-QUANT", "Fixpipe: quantPre does not match the output type (half needs "
                        "QuantMode_t::F322F16, bfloat16_t F322BF16, float and int32_t NoQuant)", loc, "dtype", api);
    }
    uint32_t Mal = (p.mSize + 15) / 16 * 16;
    uint32_t src_stride = p.srcStride ? p.srcStride : Mal;
    uint32_t Nb = (p.nSize + 15) / 16;
    akgen_sim::check_cube(src, "src", api, (src0 + uint64_t(Nb - 1) * src_stride * 16 + uint64_t(Mal) * 16) * sizeof(U),
                          {TPosition::CO1}, "L0C (CO1)", loc);
    const U* s = src.addr_ + src0;
    const uint64_t gm0 = g ? uint64_t(out - g->addr_) : 0;
    auto conv = [&](U v) -> T {
        if (p.reluEn && v < U(0)) v = U(0);
        return static_cast<T>(v);
    };
    for (uint32_t m = 0; m < p.mSize; ++m) {
        if (layout != CO2Layout::NZ && g) g->check_access(gm0 + uint64_t(m) * p.dstStride, p.nSize, true, api, loc);
        for (uint32_t n = 0; n < p.nSize; ++n) {
            U v = s[uint64_t(n / 16) * src_stride * 16 + uint64_t(m) * 16 + n % 16];
            uint64_t o;
            if (layout == CO2Layout::NZ) o = uint64_t(n / 16) * p.dstStride * (32 / sizeof(T)) + uint64_t(m) * 16 + n % 16;
            else if (layout == CO2Layout::COLUMN_MAJOR) o = uint64_t(n) * p.dstStride + m;
            else o = uint64_t(m) * p.dstStride + n;
            if (g && layout != CO2Layout::ROW_MAJOR) g->check_access(gm0 + o, 1, true, api, loc);
            out[o] = conv(v);
        }
    }
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& intriParams,
                    AKGEN_LOC) {
    akgen_sim::touch("Fixpipe", loc);
    fixpipe_impl(dst.addr_, &dst, src, intriParams, config.format, "Fixpipe", loc);
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& intriParams,
                    AKGEN_LOC) {
    akgen_sim::touch("Fixpipe", loc);
    uint64_t rows = intriParams.mSize, cols = intriParams.nSize;
    uint64_t elems = config.format == CO2Layout::NZ
                         ? ((cols + 15) / 16 - 1) * intriParams.dstStride * (32 / sizeof(T)) + rows * 16
                         : config.format == CO2Layout::ROW_MAJOR ? (rows - 1) * intriParams.dstStride + cols
                                                                 : (cols - 1) * intriParams.dstStride + rows;
    if (rows == 0 || cols == 0) return;
    akgen_sim::check_cube(dst, "dst", "Fixpipe", elems * sizeof(T),
                          {TPosition::A1, TPosition::B1, TPosition::C1, TPosition::TSCM}, "L1 (A1, B1, C1)", loc);
    fixpipe_impl(dst.addr_, static_cast<const GlobalTensor<T>*>(nullptr), src, intriParams, config.format, "Fixpipe",
                 loc);
    akgen_sim::wrote(dst.slot_, akgen_sim::ctx().pipe_free[akgen_sim::P_FIX]);
}

// SetFixPipeConfig: the FPC register (the fixpipe's ReLU / quantisation vector addresses in the fixpipe buffer, and
// the unit flag of the M -> FIX handshake). The emulation runs Mmad and Fixpipe in order, so the unit flag has no
// effect, and the per-channel (vector) quantisation modes that would read the addresses are not emulated (Fixpipe
// fails with SIM-FIXPIPE-QUANT): only the operands' positions are checked, as CANN's CPU debug does.
template <typename T>
inline void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre, bool isUnitFlag = false,
                             AKGEN_LOC) {
    (void)isUnitFlag;
    akgen_sim::touch("SetFixPipeConfig", loc);
    for (const LocalTensor<T>* t : {&reluPre, &quantPre}) {
        if (t->pos_ != TPosition::C2PIPE2GM) {
            akgen_sim::fail("SIM-POSITION", "SetFixPipeConfig: reluPre and quantPre must be in the fixpipe buffer "
                            "(TPosition::C2PIPE2GM)", loc, "api_mismatch", "SetFixPipeConfig");
        }
    }
}
template <typename T, bool setRelu = false>
inline void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false, AKGEN_LOC) {
    (void)isUnitFlag;
    akgen_sim::touch("SetFixPipeConfig", loc);
    if (preData.pos_ != TPosition::C2PIPE2GM && preData.pos_ != TPosition::CO1) {
        akgen_sim::fail("SIM-POSITION", "SetFixPipeConfig: the tensor must be in the fixpipe buffer "
                        "(TPosition::C2PIPE2GM) or L0C (CO1)", loc, "api_mismatch", "SetFixPipeConfig");
    }
}

}  // namespace AscendC
