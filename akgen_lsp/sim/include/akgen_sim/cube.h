// akgen sim: the cube path of A2/A3 (dav_c220). Memories (arenas per core, sized from the arch profile by the
// launcher): L1 (TPosition A1/B1/C1), L0A (A2), L0B (B2), L0C (CO1).
//
// Layouts, in fractals of 16 rows x C0 elements (C0 = 32 B / sizeof(T): 16 for half/bfloat16_t, 8 for float,
// 32 for int8_t), each fractal stored row-major (512 B):
// - L1 after DataCopy with Nd2NzParams ("NZ"): row n, column d of the i-th ND matrix lands at element
//   i * dstNzMatrixStride + (d / C0) * dstNzC0Stride * C0 + n * dstNzNStride * C0 + d % C0; the unused tail of the last
//   C0 block of a row is written with zeros (documented assumption);
// - L0A ("zZ"): A (m x k) as fractals 16 x C0, fractal (mi, ki) at (mi * Kb + ki) * 16 * C0, element (m, k) inside at
//   (m % 16) * C0 + k % C0;
// - L0B ("zN"): B (k x n) as fractals C0 x 16 stored n-major, fractal (ki, ni) at (ki * Nb + ni) * 16 * C0, element
//   (k, n) inside at (n % 16) * C0 + k % C0;
// - L0C ("NZ"): C (m x n, float or int32_t) as fractals 16 x 16, fractal (mi, ni) at (ni * Mb + mi) * 256, element
//   (m, n) inside at (m % 16) * 16 + n % 16 (Mb = ceil(m / 16)).
// These are the layouts the matmul samples build (ND2NZ into L1, LoadData2D per 512 B fractal into L0A/L0B, Mmad,
// Fixpipe NZ2ND out). LoadData2D copies `repeatTimes` fractals from src fractal startIndex + r * srcStride to dst
// fractal r * (1 + dstGap); ifTranspose transposes each 16 x 16 half fractal (the B-matrix path).
// LoadData with LoadData3DParamsV2 (im2col of an NC1HWC0 feature map): cube_load3d.h.
// Mmad: C = A x B (cmatrixInitVal), C += A x B (L0C) or C = bias + A x B (the bias form, C2 or a tensor in L1);
// float with kDirectionAlign reads rows of K rounded up to 16 in L0A;
// half x half, bfloat16_t x bfloat16_t and float x float accumulate in float, int8_t x int8_t in int32_t.
// Fixpipe (cube_fixpipe.h): L0C -> GM (or L1) as ND (CFG_ROW_MAJOR: row stride dstStride elements, ndNum matrices)
// or NZ (CFG_NZ: Z blocks dstStride x 32 B apart), with quantPre NoQuant (float/int32_t out), F322F16 / F322BF16
// (round to nearest even) and reluEn.
// Cost: MTE2 for GM -> L1, MTE1 for L1 -> L0A/L0B (bandwidths of the profile), M for Mmad (one 16x16x16 half
// fractal per cycle: 4096 MACs per cycle, int8 8192, float 1024, times the profile's efficiency 0.93), FIX for Fixpipe
// (l0c_gm bandwidth).
#pragma once

#include <cstring>
#include <vector>

#include "adv_tiling.h"
#include "data_copy.h"

namespace akgen_sim {
// acc[m][n] += a[m][k] * b[k][n] for k in [k0, k1), m in [0, ml), n in [0, nl): a is ml rows of lda, b rows of ldb
// (k-major), acc rows of nl. Each acc element takes its products in increasing k, one multiply and one add at a time,
// as the plain triple loop does (the same rounding); the loops are only reordered (four rows of A per pass over a row
// of B, n innermost and contiguous) so that g++ vectorises them. Compiled at -O3 whatever the build's level.
template <typename Acc>
__attribute__((optimize("O3"))) inline void mac_rows(Acc* __restrict acc, const Acc* __restrict a, size_t lda,
                                                     const Acc* __restrict b, size_t ldb, int32_t ml, int32_t nl,
                                                     int32_t k0, int32_t k1) {
    int32_t m = 0;
    for (; m + 4 <= ml; m += 4) {
        Acc* __restrict c0 = acc + size_t(m) * size_t(nl);
        Acc* __restrict c1 = c0 + nl;
        Acc* __restrict c2 = c1 + nl;
        Acc* __restrict c3 = c2 + nl;
        const Acc* a0 = a + size_t(m) * lda;
        for (int32_t k = k0; k < k1; ++k) {
            const Acc x0 = a0[k], x1 = a0[lda + k], x2 = a0[2 * lda + k], x3 = a0[3 * lda + k];
            const Acc* __restrict br = b + size_t(k) * ldb;
            for (int32_t n = 0; n < nl; ++n) {
                const Acc y = br[n];
                c0[n] += x0 * y;
                c1[n] += x1 * y;
                c2[n] += x2 * y;
                c3[n] += x3 * y;
            }
        }
    }
    for (; m < ml; ++m) {
        Acc* __restrict c0 = acc + size_t(m) * size_t(nl);
        const Acc* a0 = a + size_t(m) * lda;
        for (int32_t k = k0; k < k1; ++k) {
            const Acc x0 = a0[k];
            const Acc* __restrict br = b + size_t(k) * ldb;
            for (int32_t n = 0; n < nl; ++n) c0[n] += x0 * br[n];
        }
    }
}
}  // namespace akgen_sim

namespace AscendC {

const int32_t DEFAULT_C0_SIZE = 32;  // bytes of one fractal row (kernel_utils_constants.h)

struct LoadData2DParams {
    LoadData2DParams() {}
    LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                     const uint8_t sidIn, const uint16_t dstGapIn, const bool ifTransposeIn, const uint8_t addrModeIn)
        : startIndex(startIndexIn), dstGap(dstGapIn), srcStride(srcStrideIn), ifTranspose(ifTransposeIn),
          repeatTimes(repeatTimesIn), sid(sidIn), addrMode(addrModeIn) {}
    uint16_t startIndex = 0;
    uint16_t dstGap = 0;
    uint16_t srcStride = 0;
    bool ifTranspose = 0;
    uint8_t repeatTimes = 0;
    uint8_t sid = 0;
    uint8_t addrMode = 0;
};
using LoadData2dParams = LoadData2DParams;

// LoadDataWithTranspose (A2/A3): startIndex and srcStride count square matrices (16x16 of a 16-bit type, 32x32 of an
// 8-bit type, 16x16 of a 32-bit type); dstGap and dstFracGap count 512 B fractals.
struct LoadData2dTransposeParams {
    LoadData2dTransposeParams() {}
    LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                              const uint16_t dstGapIn, const uint16_t dstfracGapIn, const uint8_t addrModeIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstfracGapIn), addrMode(addrModeIn) {}
    LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                              const uint16_t dstGapIn, const uint16_t dstfracGapIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstfracGapIn) {}
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint8_t addrMode = 0;
};

struct MmadParams {
    MmadParams() {}
    MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn, const int32_t fmOffsetIn,
               const bool enSsparseIn, const bool enWinogradAIn, const bool enWinogradBIn)
        : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
          enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn) {}
    MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
               const bool cmatrixSourceIn, const bool cmatrixInitValIn)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn),
          cmatrixInitVal(cmatrixInitValIn) {}
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;
    bool cmatrixInitVal = true;
};

struct Nd2NzParams {
    Nd2NzParams() {}
    Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
                const uint16_t srcNdMatrixStrideIn, const uint16_t srcDValueIn, const uint16_t dstNzC0StrideIn,
                const uint16_t dstNzNStrideIn, const uint16_t dstNzMatrixStrideIn)
        : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
          srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn) {}
    uint16_t ndNum = 0;
    uint16_t nValue = 0;
    uint16_t dValue = 0;
    uint16_t srcNdMatrixStride = 0;
    uint16_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint16_t dstNzMatrixStride = 0;
};

enum QuantMode_t { NoQuant, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8 };

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
    CO2Layout format;
    constexpr FixpipeConfig(CO2Layout f) : format(f) {}
    constexpr FixpipeConfig(CO2Layout f, bool) : format(f) {}
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

struct FixpipeParamsV220 {
    FixpipeParamsV220() {}
    FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                      const uint32_t dstStrideIn, const bool reluEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
    FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                      const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                      const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                      const uint16_t dstNdStrideIn, const uint8_t unitFlagIn, const bool isChannelSplitIn = false)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn),
          quantPre(quantPreIn), deqScalar(static_cast<uint64_t>(deqScalarIn)), ndNum(ndNumIn),
          srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn), reluEn(reluEnIn), unitFlag(unitFlagIn),
          isChannelSplit(isChannelSplitIn) {}
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};

}  // namespace AscendC

namespace akgen_sim {

template <typename T> inline constexpr uint32_t c0_of() { return 32 / sizeof(T); }

// Who checks that an operand's tensor is large enough: CANN's CPU-debug library (DataCopy, LoadData, Fixpipe:
// ReportTensorSizeOverflow, a software assert; the NPU does not know tensor sizes), or nobody (Mmad: CANN checks its
// operands' positions, alignment and m/n/k ranges only, kernel_operator_mm_check.h).
enum class SizeCheck { cpu_debug, none };

// An operand of the cube path: alive, in the memory its role needs, 32 B aligned there, within the physical memory
// (an error in every mode), large enough (a CPU-debug check, or a warning where CANN checks nothing).
template <typename T>
inline void check_cube(const AscendC::LocalTensor<T>& t, const char* role, const char* api, uint64_t bytes,
                       std::initializer_list<AscendC::TPosition> where, const char* where_text, const loc_t& loc,
                       SizeCheck size_check = SizeCheck::cpu_debug) {
    t.check_live(api, role, loc);
    bool ok = false;
    for (AscendC::TPosition p : where) ok = ok || p == t.pos_;
    if (!ok) {
        fail("SIM-POSITION", fmt("%s: the %s tensor must be in %s", api, role, where_text), loc, "api_mismatch", api);
    }
    if (reinterpret_cast<uintptr_t>(t.addr_) % 32 != 0) {
        fail("SIM-CUBE-ALIGN", fmt("%s: the %s tensor address is not 32 byte aligned", api, role), loc, "memory", api);
    }
    AscendC::detail::check_phys(t.addr_, bytes, t.pos_, role, api, loc);  // past the physical L1 / L0 (tensor.h)
    uint64_t have = uint64_t(t.size_) * sizeof(T);
    if (bytes > have) {
        const Msg msg = fmt("Failed to check %s size in %s, tensor size needs to be at least %llu bytes, while "
                              "current tensor size is only %llu bytes.", role, api,
                              static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(have));
        if (size_check == SizeCheck::cpu_debug) {
            cpu_debug_check("SIM-CUBE-SIZE", msg, loc, "memory", api);
        } else {
            warn("SIM-CUBE-SIZE", fmt("%s CANN does not check this: the cube %s the bytes past the tensor's end",
                                      msg.s, role[0] == 'd' ? "writes" : "reads"), loc, "memory", api);
        }
    }
}

// Cube cycles: MACs / (MACs per cycle x efficiency), the [cost.cube] numbers of the A2/A3 profile.
inline double cube_cycles(double macs, double per_cycle) { return macs / (per_cycle * 0.93); }

}  // namespace akgen_sim

namespace AscendC {

// ------------------------------------------------------------------------------------ GM (or UB) -> L1, ND2NZ
template <typename T>
inline void akgen_nd2nz(const LocalTensor<T>& dst, const T* src, const GlobalTensor<T>* gsrc, const Nd2NzParams& p,
                       const char* api, const akgen_sim::loc_t& loc) {
    constexpr uint32_t C0 = akgen_sim::c0_of<T>();
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
    uint32_t dblocks = (p.dValue + C0 - 1) / C0;
    uint64_t need = 0;
    for (uint32_t i = 0; i < p.ndNum; ++i) {
        uint64_t last = uint64_t(i) * p.dstNzMatrixStride + uint64_t(dblocks - 1) * p.dstNzC0Stride * C0 +
                        uint64_t(p.nValue - 1) * p.dstNzNStride * C0 + C0;
        need = std::max(need, last);
    }
    akgen_sim::check_cube(dst, "dst", api, need * sizeof(T), {TPosition::A1, TPosition::B1, TPosition::C1,
                          TPosition::TSCM}, "L1 (A1, B1, C1)", loc);
    if (p.srcDValue < p.dValue) {
        akgen_sim::fail("SIM-ND2NZ", akgen_sim::fmt("%s: srcDValue %u is smaller than dValue %u (srcDValue is the "
                        "distance between rows of the ND matrix, in elements)", api, p.srcDValue, p.dValue), loc,
                        "api_mismatch", api);
    }
    for (uint32_t i = 0; i < p.ndNum; ++i) {
        for (uint32_t n = 0; n < p.nValue; ++n) {
            uint64_t so = uint64_t(i) * p.srcNdMatrixStride + uint64_t(n) * p.srcDValue;
            if (gsrc) gsrc->check_access(so, p.dValue, false, api, loc);
            for (uint32_t b = 0; b < dblocks; ++b) {
                T* d = dst.addr_ + uint64_t(i) * p.dstNzMatrixStride + uint64_t(b) * p.dstNzC0Stride * C0 +
                       uint64_t(n) * p.dstNzNStride * C0;
                uint32_t w = std::min<uint32_t>(C0, p.dValue - b * C0);
                std::memcpy(d, src + so + uint64_t(b) * C0, w * sizeof(T));
                if (w < C0) std::memset(static_cast<void*>(d + w), 0, (C0 - w) * sizeof(T));
            }
        }
    }
}

template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p, AKGEN_LOC) {
    akgen_sim::touch("DataCopy", loc);
    akgen_nd2nz(dst, src.addr_, &src, p, "DataCopy", loc);
    uint64_t bytes = uint64_t(p.ndNum) * p.nValue * p.dValue * sizeof(T);
    akgen_sim::BlockCtx& c = akgen_sim::ctx();
    akgen_sim::GmShape g;  // the rows of the ND matrices (matrices after the first taken at the row pitch)
    g.gm = src.addr_;
    g.burst = uint64_t(p.dValue) * sizeof(T);
    g.bursts = uint64_t(p.ndNum) * p.nValue;
    g.pitch = uint64_t(p.srcDValue) * sizeof(T);
    g.l2_mode = src.l2_mode_;
    g.cube = true;
    double end = akgen_sim::charge_gm_dma(akgen_sim::P_MTE2, g, akgen_sim::cfg().bw_gm_l1,
                                          akgen_sim::ready_for_write(dst.slot_), "DataCopy", loc);
    akgen_sim::wrote(dst.slot_, end);
    c.gm_read += bytes;
}

template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Nd2NzParams& p, AKGEN_LOC) {
    akgen_sim::touch("DataCopy", loc);
    akgen_sim::check_local(src, "src", "DataCopy", uint64_t(p.nValue ? p.nValue - 1 : 0) * p.srcDValue * sizeof(T) +
                           uint64_t(p.dValue) * sizeof(T), loc);
    akgen_nd2nz(dst, src.addr_, static_cast<const GlobalTensor<T>*>(nullptr), p, "DataCopy", loc);
    uint64_t bytes = uint64_t(p.ndNum) * p.nValue * p.dValue * sizeof(T);
    double ready = std::max(akgen_sim::ready_for_write(dst.slot_), akgen_sim::ready_for_read(src.slot_));
    double end = akgen_sim::charge_dma(akgen_sim::P_MTE3, double(bytes), akgen_sim::cfg().bw_ub_l1, ready, "DataCopy",
                                       loc);
    akgen_sim::wrote(dst.slot_, end);
    akgen_sim::read_by(src.slot_, end);
}

// ------------------------------------------------------------------------------------ L1 -> L0A / L0B
template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p, AKGEN_LOC) {
    akgen_sim::touch("LoadData", loc);
    constexpr uint32_t FRAC = 512;
    constexpr uint32_t FE = FRAC / sizeof(T);
    if (p.repeatTimes == 0) return;
    akgen_sim::check_cube(src, "src", "LoadData", (uint64_t(p.startIndex) + uint64_t(p.repeatTimes - 1) * p.srcStride + 1)
                          * FRAC, {TPosition::A1, TPosition::B1, TPosition::C1, TPosition::TSCM}, "L1 (A1, B1)", loc);
    akgen_sim::check_cube(dst, "dst", "LoadData", (uint64_t(p.repeatTimes - 1) * (1 + p.dstGap) + 1) * FRAC,
                          {TPosition::A2, TPosition::B2}, "L0A (A2) or L0B (B2)", loc);
    if (p.ifTranspose && sizeof(T) != 2) {
        akgen_sim::fail("SIM-LOADDATA-TRANSPOSE", "LoadData: ifTranspose supports 16-bit types (half, bfloat16_t) "
                        "only; use LoadDataWithTranspose for others", loc, "dtype", "LoadData");
    }
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const T* s = src.addr_ + (uint64_t(p.startIndex) + uint64_t(r) * p.srcStride) * FE;
        T* d = dst.addr_ + uint64_t(r) * (1 + p.dstGap) * FE;
        if (!p.ifTranspose) {
            std::memcpy(d, s, FRAC);
        } else {
            T tmp[256];
            for (uint32_t i = 0; i < 16; ++i)
                for (uint32_t j = 0; j < 16; ++j) tmp[j * 16 + i] = s[i * 16 + j];
            std::memcpy(d, tmp, FRAC);
        }
    }
    double bytes = double(p.repeatTimes) * FRAC;
    double bw = dst.pos_ == TPosition::A2 ? akgen_sim::cfg().bw_l1_l0a : akgen_sim::cfg().bw_l1_l0b;
    double ready = std::max(akgen_sim::ready_for_write(dst.slot_), akgen_sim::ready_for_read(src.slot_));
    double end = akgen_sim::charge(akgen_sim::P_MTE1, akgen_sim::cfg().bytes_cycles(bytes, bw), ready, "LoadData", loc);
    akgen_sim::wrote(dst.slot_, end);
    akgen_sim::read_by(src.slot_, end);
}

// L1 (C1) -> bias table (C2) converting on the way (A2/A3: src half, int32_t or float; dst int32_t or float): blockLen
// counts 64-byte units of the source, srcGap 32-byte units of the source, dstGap 64-byte units of the destination;
// half -> float is exact. The same-type form is in data_copy.h.
template <typename T, typename U>
    requires(!std::is_same_v<T, U>)
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p, AKGEN_LOC) {
    akgen_sim::touch("DataCopy", loc);
    if (p.blockCount == 0 || p.blockLen == 0) return;
    if (!(std::is_same_v<U, half> && std::is_same_v<T, float>)) {
        akgen_sim::fail("SIM-DTYPE", "DataCopy L1 -> bias table: converting copies take half into float on A2/A3 "
                        "(other source/destination types must match)", loc, "dtype", "DataCopy");
    }
    if (dst.pos_ != TPosition::C2) {
        akgen_sim::fail("SIM-POSITION", "DataCopy with different source and destination types moves L1 (C1) into the "
                        "bias table (C2) only", loc, "api_mismatch", "DataCopy");
    }
    const uint64_t n = uint64_t(p.blockLen) * 64 / sizeof(U);  // elements per block
    const uint64_t src_pitch = n + uint64_t(p.srcStride) * 32 / sizeof(U);
    const uint64_t dst_pitch = n + uint64_t(p.dstStride) * 64 / sizeof(T);
    const uint64_t blocks = p.blockCount;
    akgen_sim::check_cube(src, "src", "DataCopy", ((blocks - 1) * src_pitch + n) * sizeof(U),
                          {TPosition::C1, TPosition::A1, TPosition::B1}, "L1 (C1)", loc);
    akgen_sim::check_cube(dst, "dst", "DataCopy", ((blocks - 1) * dst_pitch + n) * sizeof(T), {TPosition::C2},
                          "the bias table (C2)", loc);
    if (reinterpret_cast<uintptr_t>(dst.addr_) % 64 != 0) {
        akgen_sim::fail("SIM-CUBE-ALIGN", "DataCopy: the bias table (C2) address must be 64 byte aligned", loc, "memory",
                        "DataCopy");
    }
    for (uint64_t b = 0; b < blocks; ++b)
        for (uint64_t i = 0; i < n; ++i) dst.addr_[b * dst_pitch + i] = static_cast<T>(static_cast<float>(src.addr_[b * src_pitch + i]));
    double end = akgen_sim::charge_dma(akgen_sim::P_MTE1, double(blocks * n * sizeof(U)), akgen_sim::cfg().bw_l1_l0b,
                                       std::max(akgen_sim::ready_for_read(src.slot_),
                                                akgen_sim::ready_for_write(dst.slot_)), "DataCopy", loc);
    akgen_sim::read_by(src.slot_, end);
    akgen_sim::wrote(dst.slot_, end);
}

// L1 -> L0A / L0B with a transpose of square matrices. Per repeat r the square at src square startIndex + r * srcStride
// (addrMode 1: minus) is transposed and written as its fractals, the first at dst fractal r * (1 + dstGap), the second
// (8- and 32-bit types) dstFracGap + 1 fractals after it:
// - 16-bit: the 16x16 fractal itself is the square;
// - 8-bit: two 16x32 fractals stacked make a 32x32 square; the transpose's rows 0-15 and 16-31 are the two fractals;
// - 32-bit: two 16x8 fractals side by side make a 16x16 square; the transpose's columns 0-7 and 8-15 are the two.
template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                  const LoadData2dTransposeParams& p, AKGEN_LOC) {
    akgen_sim::touch("LoadDataWithTranspose", loc);
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "LoadDataWithTranspose supports 8-, 16- and 32-bit types");
    constexpr uint32_t FRAC = 512;
    constexpr uint32_t FE = FRAC / sizeof(T);                       // elements per fractal
    constexpr uint32_t NF = sizeof(T) == 2 ? 1 : 2;                 // fractals per square
    constexpr uint32_t SQ = FE * NF;                                // elements per square
    if (p.repeatTimes == 0) return;
    const int64_t step = p.addrMode ? -int64_t(p.srcStride) : int64_t(p.srcStride);
    const int64_t last = int64_t(p.startIndex) + step * int64_t(p.repeatTimes - 1);
    if (last < 0) {
        akgen_sim::fail("SIM-LOADDATA-ADDR", "LoadDataWithTranspose: addrMode 1 steps the source before its start "
                        "(startIndex < (repeatTimes - 1) * srcStride)", loc, "memory", "LoadDataWithTranspose");
    }
    const uint64_t hi = uint64_t(std::max<int64_t>(last, p.startIndex)) + 1;
    akgen_sim::check_cube(src, "src", "LoadDataWithTranspose", hi * SQ * sizeof(T),
                          {TPosition::A1, TPosition::B1, TPosition::C1, TPosition::TSCM}, "L1 (A1, B1)", loc);
    const uint64_t dst_frac = uint64_t(p.repeatTimes - 1) * (1 + p.dstGap) + (NF == 2 ? p.dstFracGap + 2u : 1u);
    akgen_sim::check_cube(dst, "dst", "LoadDataWithTranspose", dst_frac * FRAC, {TPosition::A2, TPosition::B2},
                          "L0A (A2) or L0B (B2)", loc);
    if (reinterpret_cast<uintptr_t>(dst.addr_) % FRAC != 0) {
        akgen_sim::fail("SIM-CUBE-ALIGN", "LoadDataWithTranspose: the dst tensor address in L0A/L0B must be 512 byte "
                        "aligned", loc, "memory", "LoadDataWithTranspose");
    }
    T sq[1024];
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const T* s = src.addr_ + uint64_t(int64_t(p.startIndex) + step * int64_t(r)) * SQ;
        T* d = dst.addr_ + uint64_t(r) * (1 + p.dstGap) * FE;
        if constexpr (sizeof(T) == 2) {
            for (uint32_t i = 0; i < 16; ++i)
                for (uint32_t j = 0; j < 16; ++j) sq[j * 16 + i] = s[i * 16 + j];
            std::memcpy(d, sq, FRAC);
        } else if constexpr (sizeof(T) == 1) {
            for (uint32_t i = 0; i < 32; ++i)
                for (uint32_t j = 0; j < 32; ++j) sq[j * 32 + i] = s[i * 32 + j];
            std::memcpy(d, sq, FRAC);
            std::memcpy(d + uint64_t(p.dstFracGap + 1) * FE, sq + FE, FRAC);
        } else {
            // square element (row i, column j): fractal j / 8, element i * 8 + j % 8
            for (uint32_t half = 0; half < 2; ++half) {
                T* out = d + uint64_t(half) * (p.dstFracGap + 1) * FE;
                for (uint32_t k = 0; k < 16; ++k)      // row k of the transpose = column k of the square
                    for (uint32_t c = 0; c < 8; ++c) {  // its columns half * 8 + c = rows of the square
                        uint32_t i = half * 8 + c;
                        out[k * 8 + c] = s[(k / 8) * FE + i * 8 + k % 8];
                    }
            }
        }
    }
    double bytes = double(p.repeatTimes) * SQ * sizeof(T);
    double bw = dst.pos_ == TPosition::A2 ? akgen_sim::cfg().bw_l1_l0a : akgen_sim::cfg().bw_l1_l0b;
    double ready = std::max(akgen_sim::ready_for_write(dst.slot_), akgen_sim::ready_for_read(src.slot_));
    double end = akgen_sim::charge(akgen_sim::P_MTE1, akgen_sim::cfg().bytes_cycles(bytes, bw), ready,
                                   "LoadDataWithTranspose", loc);
    akgen_sim::wrote(dst.slot_, end);
    akgen_sim::read_by(src.slot_, end);
}

// ------------------------------------------------------------------------------------ Mmad
template <typename T, typename U, typename S>
inline void mmad_impl(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                      const T* bias, const MmadParams& p, const akgen_sim::loc_t& loc) {
    static_assert((std::is_same_v<U, half> && std::is_same_v<S, half> && std::is_same_v<T, float>) ||
                  (std::is_same_v<U, bfloat16_t> && std::is_same_v<S, bfloat16_t> && std::is_same_v<T, float>) ||
                  (std::is_same_v<U, float> && std::is_same_v<S, float> && std::is_same_v<T, float>) ||
                  (std::is_same_v<U, int8_t> && std::is_same_v<S, int8_t> && std::is_same_v<T, int32_t>),
                  "Failed to check dtype in Mmad, current api support dtype combination is fm: half, filter: half, "
                  "dst: float; fm: bfloat16_t, filter: bfloat16_t, dst: float; fm: float, filter: float, dst: float; "
                  "fm: int8_t, filter: int8_t, dst: int32_t");
    const char* api = "Mmad";
    akgen_sim::touch(api, loc);
    if (p.m > 4095 || p.n > 4095 || p.k > 4095) {
        akgen_sim::fail("SIM-MMAD-RANGE", akgen_sim::fmt("Mmad: m %u, n %u, k %u must each be in [0, 4095]; split the "
                        "matrix into smaller base blocks", p.m, p.n, p.k), loc, "api_mismatch", api);
    }
    if (p.m == 0 || p.n == 0 || p.k == 0) return;
    constexpr uint32_t C0 = akgen_sim::c0_of<U>();
    // kDirectionAlign (float): L0A / L0B hold K rounded up to 16, not 8 (Mmad.md), so A's rows of fractals are longer
    const uint32_t kal = p.kDirectionAlign && sizeof(U) == 4 ? 16 : C0;
    uint32_t Mb = (p.m + 15) / 16, Nb = (p.n + 15) / 16, Kb = (p.k + kal - 1) / kal * kal / C0;
    // m = 1 is GEMV (Mmad.md, GEMV.md): A is read as K contiguous elements (ND), not as zZ fractals
    const bool gemv = p.m == 1;
    const uint64_t fm_bytes = gemv ? (uint64_t(p.k) * sizeof(U) + 511) / 512 * 512 : uint64_t(Mb) * Kb * 16 * C0 * sizeof(U);
    constexpr auto none = akgen_sim::SizeCheck::none;
    akgen_sim::check_cube(fm, "fm", api, fm_bytes, {TPosition::A2}, "L0A (A2)", loc, none);
    akgen_sim::check_cube(filter, "filter", api, uint64_t((p.k + C0 - 1) / C0) * Nb * 16 * C0 * sizeof(S),
                          {TPosition::B2}, "L0B (B2)", loc, none);
    akgen_sim::check_cube(dst, "dst", api, uint64_t(Mb) * Nb * 256 * sizeof(T), {TPosition::CO1}, "L0C (CO1)", loc,
                          none);
    using Acc = std::conditional_t<std::is_same_v<T, int32_t>, int32_t, float>;
    const U* A = fm.addr_;
    const S* B = filter.addr_;
    T* C = dst.addr_;
    // Unpack the zZ / nZ fractals into row-major A (m x k) and B (k x n) in the accumulator type once, then
    // accumulate each C row over k in ascending order (the order of the element-wise definition, so the sums are the
    // same) with a contiguous inner loop over n that the compiler vectorises.
    const uint32_t M = p.m, N = p.n, K = p.k;
    thread_local std::vector<Acc> a, b, c;
    a.resize(size_t(M) * K);
    b.resize(size_t(K) * N);
    c.assign(size_t(M) * N, Acc(0));
    for (uint32_t m = 0; m < M; ++m) {
        const U* arow = A + (uint64_t(m / 16) * Kb) * 16 * C0 + (m % 16) * C0;
        for (uint32_t k = 0; k < K; ++k) {
            a[size_t(m) * K + k] = static_cast<Acc>(gemv ? A[k] : arow[uint64_t(k / C0) * 16 * C0 + k % C0]);
        }
    }
    for (uint32_t k = 0; k < K; ++k) {
        const S* bk = B + uint64_t(k / C0) * Nb * 16 * C0 + k % C0;
        for (uint32_t n = 0; n < N; ++n) b[size_t(k) * N + n] = static_cast<Acc>(bk[uint64_t(n / 16) * 16 * C0 + (n % 16) * C0]);
    }
    akgen_sim::mac_rows(c.data(), a.data(), K, b.data(), N, int32_t(M), int32_t(N), 0, int32_t(K));
    for (uint32_t m = 0; m < M; ++m) {
        for (uint32_t n = 0; n < N; ++n) {
            const Acc acc = c[size_t(m) * N + n];
            T& out = C[(uint64_t(n / 16) * Mb + m / 16) * 256 + (m % 16) * 16 + n % 16];
            if (bias) out = static_cast<T>(bias[n] + acc);
            else if (p.cmatrixInitVal && !p.isBias) out = static_cast<T>(acc);  // isBias (deprecated): C += A x B
            else out = static_cast<T>(out + acc);
        }
    }
    double macs = double(Mb) * 16 * Nb * 16 * Kb * C0;
    double per = std::is_same_v<U, int8_t> ? 8192.0 : std::is_same_v<U, float> ? 1024.0 : 4096.0;
    double ready = std::max({akgen_sim::ready_for_write(dst.slot_), akgen_sim::ready_for_read(fm.slot_),
                             akgen_sim::ready_for_read(filter.slot_)});
    double end = akgen_sim::charge(akgen_sim::P_M, akgen_sim::cube_cycles(macs, per), ready, api, loc);
    akgen_sim::wrote(dst.slot_, end);
    akgen_sim::read_by(fm.slot_, end);
    akgen_sim::read_by(filter.slot_, end);
}

template <typename T, typename U, typename S>
inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                 const MmadParams& mmadParams, AKGEN_LOC) {
    if (!mmadParams.cmatrixInitVal && mmadParams.cmatrixSource && mmadParams.n > 0) {
        // C starts from the bias table (BT, TPosition::C2): the intrinsic without a bias operand reads it from the
        // table's start, one value of C's type per column (Mmad.md: cmatrixSource)
        akgen_sim::touch("Mmad", loc);
        const uint64_t need = uint64_t(mmadParams.n) * sizeof(T), have = sizeof(akgen_sim::ctx().bt);
        if (need > have) {
            akgen_sim::fail("SIM-MEM-OOB", akgen_sim::fmt("Mmad: cmatrixSource takes C's initial values from the "
                            "bias table (C2), which holds %llu bytes; n = %u columns of %u-byte values need %llu",
                            static_cast<unsigned long long>(have), unsigned(mmadParams.n), unsigned(sizeof(T)),
                            static_cast<unsigned long long>(need)), loc, "memory", "Mmad");
        }
        T tmp[1024 / sizeof(T)];
        std::memcpy(tmp, akgen_sim::ctx().bt, need);
        mmad_impl(dst, fm, filter, static_cast<const T*>(tmp), mmadParams, loc);
        return;
    }
    mmad_impl(dst, fm, filter, static_cast<const T*>(nullptr), mmadParams, loc);
}

// C = bias (C2 bias table or L1) + A x B.
template <typename T, typename U, typename S, typename V>
inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                 const LocalTensor<V>& bias, const MmadParams& mmadParams, AKGEN_LOC) {
    akgen_sim::touch("Mmad", loc);
    akgen_sim::check_cube(bias, "bias", "Mmad", uint64_t(mmadParams.n) * sizeof(V),
                          {TPosition::C2, TPosition::C1, TPosition::A1, TPosition::B1}, "the bias table (C2) or L1",
                          loc);
    T tmp[4096];
    for (uint32_t i = 0; i < mmadParams.n && i < 4096; ++i) tmp[i] = static_cast<T>(bias.addr_[i]);
    mmad_impl(dst, fm, filter, tmp, mmadParams, loc);
}

}  // namespace AscendC

#include "cube_fixpipe.h"
#include "cube_core.h"
