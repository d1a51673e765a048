// akgen sim host side: the Matmul tiling API of CANN (matmul_tiling::MatmulApiTiling, MultiCoreMatmulTiling,
// BatchMatmulTiling) filling a TCubeTiling for the high-level Matmul (lib/matmul_intf.h).
//
// The interface (enums, setters, GetTiling returning -1 on failure) follows adv_api/matmul/matmul_tiling_base.h and
// bmm_tiling.h. The choice of the blocks is our own derivation, not CANN's search (matmul_tiling_algorithm.cpp, which
// scores many candidates): it gives valid values within the buffers of the arch profile, that is
//   - baseM, baseN multiples of 16 and baseK a multiple of one fractal's K (32 bytes of A's type), all capped by the
//     aligned single-core shape (baseM <= 128 and baseN <= 256 when both are large, as CANN's usual 128 x 256 x 64);
//   - L0A: baseM * baseK * sizeof(A) * 2 (double buffer) <= L0A, L0B likewise, L0C: baseM * baseN * 4 <= L0C
//     (dbL0C = 2 when two fit);
//   - stepM = stepN = 1, stepKa = stepKb = min(K blocks, 4) lowered until depthA1 = stepKa * 2 (or stepKa when all
//     of K fits) blocks of A and depthB1 of B (plus the bias row) fit in L1.
// MultiCoreMatmulTiling splits M and N over SetDim cores (the factor pair with the least per-core A + B traffic).
// SetFixSplit values are kept as given (after the same checks). A value the real tiling may choose differently
// (e.g. baseK = 128 for small M) changes neither the result of a Matmul nor what the kernel reads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>

#include "../adv_tiling.h"
#include "../../tiling/platform/platform_ascendc.h"

namespace matmul_tiling {

enum class DataType : int32_t {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14, DT_DUAL_SUB_UINT8 = 15, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_QINT8 = 18,
    DT_QINT16 = 19, DT_QINT32 = 20, DT_QUINT8 = 21, DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24,
    DT_DUAL = 25, DT_VARIANT = 26, DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29, DT_UINT1 = 30, DT_INT2 = 31,
    DT_UINT2 = 32, DT_BFLOAT16 = 33, DT_HIFLOAT8 = 34, DT_FLOAT8_E4M3FN = 35, DT_FLOAT8_E5M2 = 36,
    DT_FLOAT4_E2M1 = 37, DT_FLOAT8_E8M0 = 38, DT_FLOAT4_E1M2 = 39, DT_MAX = 40,
};

// Bits per element (int4 / fp4 are 4).
inline int32_t dtype_bits(DataType t) {
    switch (t) {
        case DataType::DT_FLOAT: case DataType::DT_INT32: case DataType::DT_UINT32: return 32;
        case DataType::DT_FLOAT16: case DataType::DT_BF16: case DataType::DT_BFLOAT16: case DataType::DT_INT16:
        case DataType::DT_UINT16: return 16;
        case DataType::DT_INT8: case DataType::DT_UINT8: case DataType::DT_HIFLOAT8: case DataType::DT_FLOAT8_E4M3FN:
        case DataType::DT_FLOAT8_E5M2: case DataType::DT_FLOAT8_E8M0: return 8;
        case DataType::DT_INT4: case DataType::DT_FLOAT4_E2M1: case DataType::DT_FLOAT4_E1M2: return 4;
        case DataType::DT_INT64: case DataType::DT_UINT64: return 64;
        default: return 0;
    }
}

enum class TPosition : int32_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM,
                                  SHM = SPM, TSCM, MAX };
enum class TilingPolicy : int32_t { FIXED_A_TSCM, FIXED_B_TSCM, FIXED_A_B_TSCM, NO_POLICY };
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1, MXMODE = 2 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };

struct SysTilingTempBufSize {
    int32_t ubSize = 0;
    int32_t l1Size = 0;
    int32_t l0cSize = 0;
};

struct MatTilingType {
    TPosition pos = TPosition::GM;
    CubeFormat type = CubeFormat::ND;
    DataType dataType = DataType::DT_FLOAT;
    bool isTrans = false;
    bool isDB = false;
    bool hasSetScaleType = false;
    TPosition scalePos = TPosition::GM;
    CubeFormat scaleType = CubeFormat::ND;
    bool isScaleTrans = false;
};

struct PlatformInfo {
    platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
    uint64_t l1Size = 0;
    uint64_t l0CSize = 0;
    uint64_t ubSize = 0;
    uint64_t l0ASize = 0;
    uint64_t l0BSize = 0;
};

struct MatmulConfigParams {
    int32_t mmConfigType;
    bool enableL1CacheUB;
    ScheduleType scheduleType;
    MatrixTraverse traverse;
    bool enVecND2NZ;
    MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                       ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                       MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
        : mmConfigType(mmConfigTypeIn), enableL1CacheUB(enableL1CacheUBIn), scheduleType(scheduleTypeIn),
          traverse(traverseIn), enVecND2NZ(enVecND2NZIn) {}
};

class MatmulApiTilingBase {
public:
    MatmulApiTilingBase() { from_platform(platform_ascendc::PlatformAscendC()); }
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& p) { from_platform(p); }
    explicit MatmulApiTilingBase(const PlatformInfo& p) {
        l1_ = static_cast<int64_t>(p.l1Size);
        l0c_ = static_cast<int64_t>(p.l0CSize);
        ub_ = static_cast<int64_t>(p.ubSize);
        l0a_ = static_cast<int64_t>(p.l0ASize);
        l0b_ = static_cast<int64_t>(p.l0BSize);
    }
    virtual ~MatmulApiTilingBase() = default;

    int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
        aType_ = {pos, type, dataType, isTrans};
        aSet_ = true;
        return 0;
    }
    int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
        bType_ = {pos, type, dataType, isTrans};
        bSet_ = true;
        return 0;
    }
    int32_t SetScaleAType(TPosition, CubeFormat, bool = false) { return 0; }
    int32_t SetScaleBType(TPosition, CubeFormat, bool = true) { return 0; }
    int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType) {
        cType_ = {pos, type, dataType, false};
        cSet_ = true;
        return 0;
    }
    int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
        biasType_ = {pos, type, dataType, false};
        return 0;
    }
    virtual int32_t SetShape(int32_t m, int32_t n, int32_t k) {
        singleM = m;
        singleN = n;
        singleK = k;
        return 0;
    }
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
        return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
    }
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
        orgM = orgMIn;
        orgN = orgNIn;
        orgKa = orgKaIn;
        orgKb = orgKbIn;
        return 0;
    }
    int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
        aLayout_[0] = b; aLayout_[1] = s; aLayout_[2] = n; aLayout_[3] = g; aLayout_[4] = d;
        return 0;
    }
    int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
        bLayout_[0] = b; bLayout_[1] = s; bLayout_[2] = n; bLayout_[3] = g; bLayout_[4] = d;
        return 0;
    }
    int32_t SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
        cLayout_[0] = b; cLayout_[1] = s; cLayout_[2] = n; cLayout_[3] = g; cLayout_[4] = d;
        return 0;
    }
    int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
        batchM = batchA;
        batchN = batchB;
        SetShape(m, n, k);
        return 0;
    }
    int32_t SetBatchNum(int32_t batch) {
        batchNum = batch;
        return 0;
    }
    int32_t EnableBias(bool isBiasIn = false) {
        isBias = isBiasIn;
        return 0;
    }
    int32_t SetBias(bool isBiasIn = false) { return EnableBias(isBiasIn); }
    int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1) {
        fixM_ = baseMIn;
        fixN_ = baseNIn;
        fixK_ = baseKIn;
        return 0;
    }
    int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1) {
        (void)btSize;
        if (l1Size >= 0) l1_ = l1Size;
        if (l0CSize >= 0) l0c_ = l0CSize;
        if (ubSize >= 0) ub_ = ubSize;
        return 0;
    }
    int32_t SetTraverse(MatrixTraverse traverse) {
        traverse_ = traverse;
        return 0;
    }
    int32_t SetMadType(MatrixMadType) { return 0; }
    int32_t SetSplitRange(int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1) {
        return 0;
    }
    int32_t SetDoubleBuffer(bool, bool, bool, bool, bool = true, bool = true) { return 0; }
    int32_t SetDequantType(DequantType) { return 0; }
    void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool = false,
                               ScheduleType = ScheduleType::INNER_PRODUCT, MatrixTraverse traverseIn =
                               MatrixTraverse::NOSET, bool = false) {
        (void)mmConfigTypeIn;
        if (traverseIn != MatrixTraverse::NOSET) traverse_ = traverseIn;
    }
    void SetMatmulConfigParams(const MatmulConfigParams& p) {
        if (p.traverse != MatrixTraverse::NOSET) traverse_ = p.traverse;
    }
    int32_t SetSparse(bool = false) { return 0; }
    int32_t GetBaseM() const { return baseM; }
    int32_t GetBaseN() const { return baseN; }
    int32_t GetBaseK() const { return baseK; }

    virtual int64_t GetTiling(TCubeTiling& tiling) = 0;
    void PrintTilingData() const {
        std::printf("akgen sim matmul tiling: M %d N %d Ka %d Kb %d single %d x %d x %d base %d x %d x %d\n", orgM,
                    orgN, orgKa, orgKb, singleCoreM, singleCoreN, singleCoreK, baseM, baseN, baseK);
    }

    TCubeTiling tiling_{};
    MatTilingType aType_, bType_, cType_, biasType_;
    bool isBias = false;
    int32_t blockDim = 0;
    int32_t orgM = 0, orgN = 0, orgKa = 0, orgKb = 0;
    int32_t batchNum = 0, batchM = 0, batchN = 0;
    int32_t singleM = 0, singleN = 0, singleK = 0;
    int32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
    int32_t baseM = 0, baseN = 0, baseK = 0;

protected:
    int64_t l1_ = 0, l0a_ = 0, l0b_ = 0, l0c_ = 0, ub_ = 0;
    bool aSet_ = false, bSet_ = false, cSet_ = false;
    int32_t fixM_ = -1, fixN_ = -1, fixK_ = -1;
    MatrixTraverse traverse_ = MatrixTraverse::NOSET;
    int32_t aLayout_[5] = {}, bLayout_[5] = {}, cLayout_[5] = {};
    int32_t usedCores_ = 1;

    void from_platform(const platform_ascendc::PlatformAscendC& p) {
        uint64_t v = 0;
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L1, v);
        l1_ = static_cast<int64_t>(v);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, v);
        l0a_ = static_cast<int64_t>(v);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, v);
        l0b_ = static_cast<int64_t>(v);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, v);
        l0c_ = static_cast<int64_t>(v);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, v);
        ub_ = static_cast<int64_t>(v);
        blockDim = static_cast<int32_t>(p.GetCoreNumAic());
    }

    static int32_t align_up(int32_t v, int32_t a) { return a <= 0 ? v : (v + a - 1) / a * a; }
    static int32_t ceil_div(int32_t v, int32_t a) { return a <= 0 ? 0 : (v + a - 1) / a; }

    // The elements of A along K in one fractal (32 bytes).
    int32_t k0() const {
        int32_t bits = std::max(dtype_bits(aType_.dataType), 4);
        return 256 / bits;
    }

    static void say(const char* why) { std::fprintf(stderr, "matmul tiling failed: %s\n", why); }

    // Fills the blocks for singleCoreM/N/K and the org shape; false (with a sentence on stderr) when it cannot.
    bool compute_blocks() {
        if (!aSet_ || !bSet_ || !cSet_) {
            say("SetAType, SetBType and SetCType must be called before GetTiling");
            return false;
        }
        if (dtype_bits(aType_.dataType) == 0 || dtype_bits(bType_.dataType) == 0 ||
            dtype_bits(cType_.dataType) == 0) {
            say("the data type of A, B or C is not a matrix type (use DT_FLOAT16, DT_BF16, DT_FLOAT or DT_INT8)");
            return false;
        }
        if (singleCoreM <= 0 || singleCoreN <= 0 || singleCoreK <= 0) {
            say("the shape (SetShape / SetOrgShape / SetSingleShape) must have M, N and K greater than 0");
            return false;
        }
        if (l0a_ <= 0 || l0b_ <= 0 || l0c_ <= 0 || l1_ <= 0) {
            say("the L1 / L0 sizes are unknown; pass the platform (MatmulApiTiling(ascendcPlatform)) or "
                "SetBufferSpace");
            return false;
        }
        const int32_t aBytes = dtype_bits(aType_.dataType), bBytes = dtype_bits(bType_.dataType);  // in bits
        const int32_t kz = k0();
        const int32_t mAl = align_up(singleCoreM, 16), nAl = align_up(singleCoreN, 16), kAl = align_up(singleCoreK, kz);
        int32_t bm = fixM_ > 0 ? fixM_ : std::min(mAl, 128);
        int32_t bn = fixN_ > 0 ? fixN_ : std::min(nAl, 256);
        if (fixM_ <= 0 && fixN_ <= 0) {
            // a thin side leaves room for a longer other side within L0C
            if (mAl <= 64 && nAl > 256) bn = std::min(nAl, 512);
            if (nAl <= 64 && mAl > 128) bm = std::min(mAl, 512);
        }
        // L0C: one block of float / int32 accumulators
        while (int64_t(bm) * bn * 4 > l0c_ && fixM_ <= 0 && fixN_ <= 0) {
            if (bn >= bm && bn > 16) bn = align_up(bn / 2, 16);
            else if (bm > 16) bm = align_up(bm / 2, 16);
            else break;
        }
        if (int64_t(bm) * bn * 4 > l0c_) {
            say("baseM x baseN does not fit in L0C; lower SetFixSplit's baseM / baseN");
            return false;
        }
        int32_t bk;
        if (fixK_ > 0) {
            bk = fixK_;
        } else {
            // the largest K (a multiple of the fractal) for which A and B fit double-buffered in L0A / L0B
            int64_t kMaxA = l0a_ * 8 / 2 / (int64_t(bm) * aBytes);
            int64_t kMaxB = l0b_ * 8 / 2 / (int64_t(bn) * bBytes);
            int64_t kMax = std::min<int64_t>({kMaxA, kMaxB, kAl});
            bk = static_cast<int32_t>(kMax / kz * kz);
            // a power-of-two number of fractals keeps the K loop regular
            int32_t fr = std::max(bk / kz, 1), p2 = 1;
            while (p2 * 2 <= fr) p2 *= 2;
            bk = (kAl <= bk) ? kAl : p2 * kz;
        }
        if (bm % 16 != 0 || bn % 16 != 0 || bk % kz != 0 || bk <= 0) {
            say("baseM and baseN must be multiples of 16 and baseK a multiple of 32 bytes of A's type");
            return false;
        }
        if (int64_t(bm) * bk * aBytes / 8 > l0a_ || int64_t(bn) * bk * bBytes / 8 > l0b_) {
            say("baseM x baseK (or baseN x baseK) does not fit in L0A (L0B); lower SetFixSplit's values");
            return false;
        }
        const int64_t aBlock = int64_t(bm) * bk * aBytes / 8, bBlock = int64_t(bn) * bk * bBytes / 8;
        const int64_t biasBytes = isBias ? int64_t(bn) * std::max(dtype_bits(biasType_.dataType), 8) / 8 : 0;
        const int32_t kBlocks = ceil_div(singleCoreK, bk);
        int32_t stepK = std::min(kBlocks, 4);
        int32_t depthA = 0, depthB = 0;
        for (;; --stepK) {
            bool all = stepK >= kBlocks;
            depthA = all ? stepK : stepK * 2;
            depthB = depthA;
            if (aBlock * depthA + bBlock * depthB + biasBytes <= l1_) break;
            if (stepK == 1) {
                depthA = depthB = 1;
                if (aBlock + bBlock + biasBytes <= l1_) break;
                say("one base block of A and of B does not fit in L1; lower SetFixSplit's values or SetBufferSpace");
                return false;
            }
        }
        baseM = bm;
        baseN = bn;
        baseK = bk;
        TCubeTiling& t = tiling_;
        t = TCubeTiling{};
        t.usedCoreNum = usedCores_;
        t.M = orgM;
        t.N = orgN;
        t.Ka = orgKa;
        t.Kb = orgKb;
        t.singleCoreM = singleCoreM;
        t.singleCoreN = singleCoreN;
        t.singleCoreK = singleCoreK;
        t.baseM = bm;
        t.baseN = bn;
        t.baseK = bk;
        t.depthA1 = depthA;
        t.depthB1 = depthB;
        t.stepM = 1;
        t.stepN = 1;
        t.stepKa = stepK;
        t.stepKb = stepK;
        t.isBias = isBias ? 1 : 0;
        t.transLength = 0;
        t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
        t.shareMode = 0;
        t.shareL1Size = static_cast<int32_t>(aBlock * depthA + bBlock * depthB + biasBytes);
        t.shareL0CSize = static_cast<int32_t>(int64_t(bm) * bn * 4);
        t.shareUbSize = 0;
        t.batchM = batchM;
        t.batchN = batchN;
        t.singleBatchM = batchM;
        t.singleBatchN = batchN;
        t.dbL0A = int64_t(bm) * bk * aBytes / 8 * 2 <= l0a_ ? 2 : 1;
        t.dbL0B = int64_t(bn) * bk * bBytes / 8 * 2 <= l0b_ ? 2 : 1;
        t.dbL0C = int64_t(bm) * bn * 4 * 2 <= l0c_ ? 2 : 1;
        t.ALayoutInfoB = aLayout_[0]; t.ALayoutInfoS = aLayout_[1]; t.ALayoutInfoN = aLayout_[2];
        t.ALayoutInfoG = aLayout_[3]; t.ALayoutInfoD = aLayout_[4];
        t.BLayoutInfoB = bLayout_[0]; t.BLayoutInfoS = bLayout_[1]; t.BLayoutInfoN = bLayout_[2];
        t.BLayoutInfoG = bLayout_[3]; t.BLayoutInfoD = bLayout_[4];
        t.CLayoutInfoB = cLayout_[0]; t.CLayoutInfoS1 = cLayout_[1]; t.CLayoutInfoN = cLayout_[2];
        t.CLayoutInfoG = cLayout_[3]; t.CLayoutInfoS2 = cLayout_[4];
        t.BatchNum = batchNum;
        return true;
    }
    // The org shape defaults to the shape when SetOrgShape was not called.
    void default_org(int32_t m, int32_t n, int32_t k) {
        if (orgM <= 0) orgM = m;
        if (orgN <= 0) orgN = n;
        if (orgKa <= 0) orgKa = k;
        if (orgKb <= 0) orgKb = k;
    }
};

// One core: SetShape gives the single-core shape.
class MatmulApiTiling : public MatmulApiTilingBase {
public:
    MatmulApiTiling() = default;
    explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& p) : MatmulApiTilingBase(p) {}
    explicit MatmulApiTiling(const PlatformInfo& p) : MatmulApiTilingBase(p) {}
    int64_t GetTiling(TCubeTiling& tiling) override {
        default_org(singleM, singleN, singleK);
        singleCoreM = singleM;
        singleCoreN = singleN;
        singleCoreK = singleK;
        usedCores_ = 1;
        if (!compute_blocks()) return -1;
        tiling = tiling_;
        return 0;
    }
    bool EnableL1BankConflictOptimise() { return false; }
};

// Several cores: SetShape gives the whole problem, SetDim the cores; M and N are split over them.
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    MultiCoreMatmulTiling() = default;
    explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& p) : MatmulApiTilingBase(p) {}
    explicit MultiCoreMatmulTiling(const PlatformInfo& p) : MatmulApiTilingBase(p) {}
    int32_t SetDim(int32_t dim) {
        if (dim <= 0) return -1;
        dim_ = dim;
        return 0;
    }
    int32_t SetShape(int32_t m, int32_t n, int32_t k) override {
        MatmulApiTilingBase::SetShape(m, n, k);
        return 0;
    }
    virtual int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1) {
        fixSingleM_ = singleMIn;
        fixSingleN_ = singleNIn;
        fixSingleK_ = singleKIn;
        return 0;
    }
    int32_t SetSingleRange(int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1) {
        return 0;
    }
    int32_t SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK) {
        alignM_ = std::max(alignM, 1);
        alignN_ = std::max(alignN, 1);
        (void)alignK;
        return 0;
    }
    int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) const {
        shapeM = singleCoreM;
        shapeN = singleCoreN;
        shapeK = singleCoreK;
        return 0;
    }
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) const {
        dim = mDim_ * nDim_;
        mDim = mDim_;
        nDim = nDim_;
        return 0;
    }
    void EnableMultiCoreSplitK(bool flag) { (void)flag; }
    int64_t GetTiling(TCubeTiling& tiling) override {
        int32_t m = singleM > 0 ? singleM : orgM, n = singleN > 0 ? singleN : orgN;
        int32_t k = singleK > 0 ? singleK : std::max(orgKa, orgKb);
        default_org(m, n, k);
        int32_t dim = dim_ > 0 ? dim_ : std::max(blockDim, 1);
        split(m, n, dim);
        singleCoreK = fixSingleK_ > 0 ? fixSingleK_ : k;
        if (!compute_blocks()) return -1;
        tiling = tiling_;
        return 0;
    }

private:
    int32_t dim_ = 0, mDim_ = 1, nDim_ = 1;
    int32_t fixSingleM_ = -1, fixSingleN_ = -1, fixSingleK_ = -1;
    int32_t alignM_ = 1, alignN_ = 1;

    void split(int32_t m, int32_t n, int32_t dim) {
        if (fixSingleM_ > 0 && fixSingleN_ > 0) {
            singleCoreM = fixSingleM_;
            singleCoreN = fixSingleN_;
            mDim_ = ceil_div(m, singleCoreM);
            nDim_ = ceil_div(n, singleCoreN);
            usedCores_ = mDim_ * nDim_;
            return;
        }
        // the pair mDim x nDim <= dim with the least per-core A + B traffic (then the most cores); an input in TSCM
        // is held whole in each core's L1 (the kernel copies all of it there), so its M (A) or N (B) is not split
        const bool wholeA = aType_.pos == TPosition::TSCM, wholeB = bType_.pos == TPosition::TSCM;
        int64_t best = -1;
        int32_t bestM = 1, bestN = 1;
        for (int32_t md = 1; md <= (wholeA ? 1 : dim); ++md) {
            int32_t nd = wholeB ? 1 : dim / md;
            int32_t sm = align_up(ceil_div(m, md), std::max(alignM_, 16));
            int32_t sn = align_up(ceil_div(n, nd), std::max(alignN_, 16));
            int32_t um = ceil_div(m, sm), un = ceil_div(n, sn);
            int64_t cost = int64_t(sm) + sn;
            if (best < 0 || cost < best || (cost == best && um * un > bestM * bestN)) {
                best = cost;
                bestM = um;
                bestN = un;
                singleCoreM = sm;
                singleCoreN = sn;
            }
        }
        singleCoreM = std::min(singleCoreM, m);
        singleCoreN = std::min(singleCoreN, n);
        mDim_ = bestM;
        nDim_ = bestN;
        usedCores_ = mDim_ * nDim_;
    }
};

// Batched matmul: the shape is one batch; the batches go through the layout info and SetBatchNum.
class BatchMatmulTiling : public MatmulApiTiling {
public:
    using MatmulApiTiling::MatmulApiTiling;
};

}  // namespace matmul_tiling

extern "C" {
inline int32_t MatmulGetTmpBufSize(TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
    bufSize.ubSize = tiling.transLength;
    bufSize.l1Size = tiling.shareL1Size;
    bufSize.l0cSize = tiling.shareL0CSize;
    return 0;
}
inline int32_t MultiCoreMatmulGetTmpBufSize(TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
    return MatmulGetTmpBufSize(tiling, bufSize);
}
}
