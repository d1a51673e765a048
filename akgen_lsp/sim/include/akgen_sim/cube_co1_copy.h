// akgen sim: DataCopy out of L0C (CO1) with DataCopyCO12DstParams, the older form of Fixpipe that A2/A3 kernels of
// CANN's operator repositories still call (ops-nn's conv3d backprop / transpose, weight_quant_batch_matmul_v2):
//
// - DataCopy(GlobalTensor dst, LocalTensor<CO1> src, DataCopyCO12DstParams) and DataCopy(LocalTensor<A1/B1> dst, ...):
//   an nSize x mSize NZ matrix of L0C (srcStride: the distance of its column blocks in 16-row units, mSize rounded
//   up to 16 when 0) out to NZ (dstStride: the distance of the destination's column blocks in 32-byte blocks) or,
//   with nz2ndEn, to ND (dstStride: the elements of a destination row);
// - channelSplit (float NZ output only): each 16-column block of L0C goes out as two 8-column blocks (32-byte rows),
//   dstStride blocks apart, so nSize need only be a multiple of 8;
// - quantPre NoQuant / F322F16 / F322BF16 and reluPre 1 (normal ReLU), as Fixpipe: the same engine, checks and cost
//   (cube_fixpipe.h); the scalar / vector quantisation modes end the block with SIM-FIXPIPE-QUANT, as there.
// The destination of an ND copy of several matrices (SetFixpipeNz2ndFlag) is not emulated: one matrix per call.
#pragma once

#include <cstdint>

namespace AscendC {

struct DataCopyCO12DstParams {
    DataCopyCO12DstParams() {}
    DataCopyCO12DstParams(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint32_t dstStrideIn,
                          const uint16_t srcStrideIn, const QuantMode_t quantPreIn, const uint8_t reluPreIn,
                          const bool channelSplitIn, const bool nz2ndEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), dstStride(dstStrideIn), srcStride(srcStrideIn), quantPre(quantPreIn),
          reluPre(reluPreIn), channelSplit(channelSplitIn), nz2ndEn(nz2ndEnIn) {}
    uint8_t sid = 0;
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t dstStride = 0;
    uint16_t srcStride = 0;
    uint8_t unitFlag = 0;
    uint8_t clipReluPre = 0;
    uint8_t eltWiseOp = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint8_t reluPre = 0;
    bool channelSplit = false;
    bool nz2ndEn = false;
};

namespace akgen_co1 {
inline FixpipeParamsV220 fixpipe_params(const DataCopyCO12DstParams& p) {
    FixpipeParamsV220 f(p.nSize, p.mSize, p.srcStride, p.dstStride, p.reluPre != 0);
    f.quantPre = p.quantPre;
    f.unitFlag = p.unitFlag;
    return f;
}

// channelSplit: float out, NZ with 8-column blocks; L0C column n of the 16-wide block n / 16 lands in output block n / 8
template <typename T, typename U>
inline void split_copy(T* out, const GlobalTensor<T>* g, const LocalTensor<U>& src, const DataCopyCO12DstParams& p,
                       const char* api, const akgen_sim::loc_t& loc) {
    static_assert(std::is_same_v<U, float> || std::is_same_v<U, int32_t>, "DataCopy from CO1: src is float or int32_t");
    if constexpr (!std::is_same_v<T, float>) {
        akgen_sim::fail("SIM-FIXPIPE-QUANT", "DataCopy from CO1: channelSplit is for a float NZ output only; set it "
                        "false for other output types", loc, "api_mismatch", api);
    } else {
        if (p.quantPre != QuantMode_t::NoQuant) {
            akgen_sim::fail("SIM-FIXPIPE-QUANT", "DataCopy from CO1: a float output takes quantPre NoQuant", loc,
                            "dtype", api);
        }
        if (p.nSize % 8 != 0) {
            akgen_sim::fail("SIM-CUBE-PARAMS", akgen_sim::fmt("DataCopy from CO1: nSize %u is not a multiple of 8, "
                            "which channelSplit needs", unsigned(p.nSize)), loc, "api_mismatch", api);
        }
        uint32_t Mal = (p.mSize + 15) / 16 * 16;
        uint32_t src_stride = p.srcStride ? p.srcStride : Mal;
        uint32_t Nb = (p.nSize + 15) / 16;
        akgen_sim::check_cube(src, "src", api, (uint64_t(Nb - 1) * src_stride * 16 + uint64_t(Mal) * 16) * sizeof(U),
                              {TPosition::CO1}, "L0C (CO1)", loc);
        const uint64_t gm0 = g ? uint64_t(out - g->addr_) : 0;
        for (uint32_t n = 0; n < p.nSize; ++n) {
            for (uint32_t m = 0; m < p.mSize; ++m) {
                U v = src.addr_[uint64_t(n / 16) * src_stride * 16 + uint64_t(m) * 16 + n % 16];
                if (p.reluPre && v < U(0)) v = U(0);
                uint64_t o = uint64_t(n / 8) * p.dstStride * 8 + uint64_t(m) * 8 + n % 8;
                if (g) g->check_access(gm0 + o, 1, true, api, loc);
                out[o] = static_cast<T>(v);
            }
        }
        double bytes = double(p.mSize) * p.nSize * sizeof(T);
        double ready = akgen_sim::ready_for_read(src.slot_);
        double end = akgen_sim::charge_dma(akgen_sim::P_FIX, bytes, akgen_sim::cfg().bw_l0c_gm, ready, api, loc);
        akgen_sim::read_by(src.slot_, end);
        if (g) akgen_sim::ctx().gm_write += static_cast<uint64_t>(bytes);
    }
}
}  // namespace akgen_co1

template <typename T, typename U>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& intriParams,
                     AKGEN_LOC) {
    akgen_sim::touch("DataCopy", loc);
    if (intriParams.mSize == 0 || intriParams.nSize == 0) return;  // documented: a NOP
    if (intriParams.channelSplit && !intriParams.nz2ndEn) {
        akgen_co1::split_copy(dst.addr_, &dst, src, intriParams, "DataCopy", loc);
        return;
    }
    fixpipe_impl(dst.addr_, &dst, src, akgen_co1::fixpipe_params(intriParams),
                 intriParams.nz2ndEn ? CO2Layout::ROW_MAJOR : CO2Layout::NZ, "DataCopy", loc);
}

template <typename T, typename U>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& intriParams,
                     AKGEN_LOC) {
    akgen_sim::touch("DataCopy", loc);
    if (intriParams.mSize == 0 || intriParams.nSize == 0) return;
    FixpipeParamsV220 f = akgen_co1::fixpipe_params(intriParams);
    if (intriParams.nz2ndEn) {
        Fixpipe<T, U, CFG_ROW_MAJOR>(dst, src, f, loc);
    } else {
        Fixpipe<T, U, CFG_NZ>(dst, src, f, loc);
    }
}
}  // namespace AscendC
