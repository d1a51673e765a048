// akgen sim: lib/matmul_intf.h, the high-level Matmul API.
//
// Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG> with MatmulType<TPosition, CubeFormat, T, isTrans>, registered
// by REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling[, mm2, &tiling2 ...]) (or mm.Init(&tiling)).
// Emulated: ND or NZ inputs A, B (GM, or UB/L1 LocalTensors holding such data) of half, bfloat16_t, float (and int8_t into
// int32_t), optional bias (GM or local), C to GM or a local tensor in ND; SetTensorA/B with the transpose flag,
// SetOrgShape, SetSingleShape, SetTail, IterateAll (enAtomic 1 adds into C, also when SetAtomicAdd is on), Iterate +
// GetTensorC (base blocks of baseM x baseN, iterateOrder 0: along M first, 1: along N first), End.
// Semantics: C = A x B (+ bias), products and sums in float (int32_t for int8_t), summed over k in order, converted
// once to C's type (round to nearest even for half / bfloat16_t). Layout in GM: A is orgM x orgKa row-major (Ka x orgM
// when transposed), B is orgKb x orgN (N x orgKb when transposed), C is rows of orgN (or orgKc when set) elements.
// A base block written to a local tensor by GetTensorC has rows of baseN elements rounded up to 32 bytes.
// C in ND_ALIGN has rows of N rounded up to 32 bytes, the padding columns written as zeros.
// int8 inputs with SetQuantScalar / SetQuantVector dequantise the int32 sums (see SetQuantScalar).
// NZ: 16 x C0 fractals (C0 = 32 bytes of T), one column block after another (`at`).
// The batch interfaces (IterateBatch, IterateNBatch, GetBatchTensorC) are in matmul_batch.h.
// Not emulated (a compile error or a finding says so): other CubeFormats and NZ outputs.
// Cost (an estimate): GM -> L1 traffic on MTE2, the MACs on M (4096 half MACs per cycle x 0.93), C on FIX.
#pragma once

#include "../kernel_operator.h"
#include "../akgen_sim/adv_tiling.h"
#include "matmul_types.h"
#include "matmul_batch.h"

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          template <const auto& = MM_CFG, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy,
          typename = void>
class Matmul : public mm_detail::BatchOps<Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>,
                                          A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG> {
    friend class mm_detail::BatchOps<Matmul, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG>;

public:
    using AType = A_TYPE;
    using BType = B_TYPE;
    using CType = C_TYPE;
    using BiasType = BIAS_TYPE;
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using SrcT = SrcAT;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    using Acc = mm_detail::acc_t<SrcAT>;

    // A in VECTOR format (GEMV: A is one row of K) is stored as ND
    static_assert((A_TYPE::format == CubeFormat::ND || A_TYPE::format == CubeFormat::NZ ||
                   A_TYPE::format == CubeFormat::VECTOR) &&
                  (B_TYPE::format == CubeFormat::ND || B_TYPE::format == CubeFormat::NZ) &&
                  (C_TYPE::format == CubeFormat::ND || C_TYPE::format == CubeFormat::ND_ALIGN ||
                   C_TYPE::format == CubeFormat::NZ),
                  "akgen sim: the high-level Matmul is emulated for CubeFormat::ND and NZ inputs (and a VECTOR A) and ND "
                  "or NZ outputs only");
    static_assert(!std::is_same_v<SrcAT, int4b_t> && !std::is_same_v<SrcBT, int4b_t>,
                  "akgen sim: the high-level Matmul of int4b_t inputs is not emulated yet (int8_t, half, bfloat16_t "
                  "and float are)");

    Matmul() = default;

    void Init(const TCubeTiling* tiling, TPipe* tpipe = nullptr, AKGEN_LOC) {
        (void)tpipe;
        akgen_sim::touch("Matmul::Init", loc);
        if (tiling == nullptr && !kStatic) return;  // registered without tiling: Init(&tiling) must follow
        if (tiling != nullptr) {
            t_ = *tiling;
        } else {  // the constant tiling of MM_CFG (GetMatmulApiTiling); SetOrgShape gives the real shape
            t_ = static_tiling();
        }
        orgM_ = t_.M;
        orgN_ = t_.N;
        orgKa_ = t_.Ka;
        orgKb_ = t_.Kb;
        orgKc_ = 0;
        singleM_ = t_.singleCoreM > 0 ? t_.singleCoreM : t_.M;
        singleN_ = t_.singleCoreN > 0 ? t_.singleCoreN : t_.N;
        singleK_ = t_.singleCoreK > 0 ? t_.singleCoreK : t_.Ka;
        inited_ = true;
        reset_iter();
    }
    template <typename TT> void Init(const TT* tiling, TPipe* tpipe = nullptr, AKGEN_LOC) {
        Init(reinterpret_cast<const TCubeTiling*>(tiling), tpipe, loc);
    }

    void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK, 0); }
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
        orgM_ = orgM;
        orgN_ = orgN;
        orgKa_ = orgKa;
        orgKb_ = orgKb;
        orgKc_ = orgKc;
    }
    void SetSingleShape(int singleM, int singleN, int singleK) {
        singleM_ = singleM;
        singleN_ = singleN;
        singleK_ = singleK;
        reset_iter();
    }
    void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
        if (tailM >= 0) singleM_ = tailM;
        if (tailN >= 0) singleN_ = tailN;
        if (tailK >= 0) singleK_ = tailK;
        reset_iter();
    }

    void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
        a_.g = gm;
        a_.ptr = gm.addr_;
        a_.gm = &a_.g;
        a_.set = true;
        transA_ = isTransposeA;
        reset_iter();
    }
    void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) {
        b_.g = gm;
        b_.ptr = gm.addr_;
        b_.gm = &b_.g;
        b_.set = true;
        transB_ = isTransposeB;
        reset_iter();
    }
    void SetTensorA(const LocalTensor<SrcAT>& leftMatrix, bool isTransposeA = false) {
        a_ = {};
        a_.ptr = leftMatrix.addr_;
        a_.set = true;
        transA_ = isTransposeA;
        reset_iter();
    }
    void SetTensorB(const LocalTensor<SrcBT>& rightMatrix, bool isTransposeB = false) {
        b_ = {};
        b_.ptr = rightMatrix.addr_;
        b_.set = true;
        transB_ = isTransposeB;
        reset_iter();
    }
    void SetBias(const GlobalTensor<BiasT>& biasGlobal) {
        bias_.g = biasGlobal;
        bias_.ptr = biasGlobal.addr_;
        bias_.gm = &bias_.g;
        bias_.set = true;
    }
    void SetBias(const LocalTensor<BiasT>& inputBias) {
        bias_ = {};
        bias_.ptr = inputBias.addr_;
        bias_.set = true;
    }
    void DisableBias() { bias_.set = false; }
    void ClearBias() { bias_.set = false; }

    template <bool sync = true>
    void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    bool waitIterateAll = false, bool fakeMsg = false, AKGEN_LOC) {
        (void)enSequentialWrite;
        (void)waitIterateAll;
        (void)fakeMsg;
        static_assert(!kCo1, "akgen sim: a C in CO1 is filled by Iterate(enPartialSum, localCmatrix)");
        akgen_sim::touch("Matmul::IterateAll", loc);
        ready("Matmul::IterateAll", loc);
        if constexpr (C_TYPE::format == CubeFormat::NZ) {  // NZ C: block after block through a row-major copy
            for_blocks([&](int32_t m0, int32_t n0, int32_t ml, int32_t nl) {
                std::vector<DstT> blk(size_t(ml) * size_t(nl));
                compute(m0, n0, ml, nl, blk.data(), uint32_t(nl), 0, "Matmul::IterateAll", loc);
                int& atomic = akgen_sim::ctx().atomic;
                const int saved = atomic;
                if (enAtomic == 1 && atomic == 0) atomic = 1;
                mm_detail::store_nz(gm, blk.data(), m0, n0, ml, nl, uint64_t(orgM_ + 15) / 16 * 16, kNzC0,
                                    atomic == 1, "Matmul::IterateAll", loc);
                atomic = saved;
            });
            return;
        } else if constexpr (kTriangle != 0) {  // base block after base block, those of the triangle
            for_blocks([&](int32_t m0, int32_t n0, int32_t ml, int32_t nl) {
                int32_t pad = c_pad(n0, nl);
                check_c_gm(gm, m0, n0, ml, nl + pad, "Matmul::IterateAll", loc, enAtomic);
                compute(m0, n0, ml, nl, gm.addr_ + uint64_t(m0) * c_stride() + n0, c_stride(), enAtomic,
                        "Matmul::IterateAll", loc, pad);
            });
            return;
        }
        int32_t pad = c_pad(0, singleN_);
        check_c_gm(gm, 0, 0, singleM_, singleN_ + pad, "Matmul::IterateAll", loc, enAtomic);
        compute(0, 0, singleM_, singleN_, gm.addr_, c_stride(), enAtomic, "Matmul::IterateAll", loc, pad);
    }
    void IterateAll(const LocalTensor<DstT>& ubCmatrix, uint8_t enAtomic = 0, AKGEN_LOC) {
        static_assert(!kCo1, "akgen sim: a C in CO1 is filled by Iterate(enPartialSum, localCmatrix)");
        static_assert(C_TYPE::format != CubeFormat::NZ, "akgen sim: an NZ C is emulated in GM by IterateAll");
        akgen_sim::touch("Matmul::IterateAll", loc);
        ready("Matmul::IterateAll", loc);
        uint32_t stride = local_stride(singleN_);
        akgen_sim::check_local(ubCmatrix, "cMatrix", "Matmul::IterateAll",
                               (uint64_t(singleM_ - 1) * stride + singleN_) * sizeof(DstT), loc,
                               is_ub_position(ubCmatrix.pos_));
        if constexpr (kTriangle != 0) {
            for_blocks([&](int32_t m0, int32_t n0, int32_t ml, int32_t nl) {
                compute(m0, n0, ml, nl, ubCmatrix.addr_ + uint64_t(m0) * stride + n0, stride, enAtomic,
                        "Matmul::IterateAll", loc);
            });
            return;
        }
        compute(0, 0, singleM_, singleN_, ubCmatrix.addr_, stride, enAtomic, "Matmul::IterateAll", loc);
    }
    template <bool sync = true> void WaitIterateAll() {}
    template <bool sync = true> void WaitGetTensorC() {}

    // One base block per call (baseM x baseN); false when all blocks were visited.
    template <bool sync = true> bool Iterate(bool enPartialSum = false, AKGEN_LOC) {
        (void)enPartialSum;
        akgen_sim::touch("Matmul::Iterate", loc);
        ready("Matmul::Iterate", loc);
        if constexpr (!sync) {
            // asynchronous: one call computes every block (into the workspace); each GetTensorC<false> then hands
            // out the next block in the iteration order
            async_ = true;
            next_ = 0;
            have_block_ = false;
            int32_t bm = base_m(), bn = base_n();
            return (singleM_ + bm - 1) / bm > 0 && (singleN_ + bn - 1) / bn > 0;
        }
        return step();
    }
    // The user's CO1 (C in CO1, NZ): the next base block into localCmatrix as 16 x 16 fractals, column block after
    // column block over baseM rows aligned to 16; enPartialSum adds it to what the L0C holds (without the bias).
    template <bool sync = true, typename T>
    bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix, AKGEN_LOC) {
        static_assert(std::is_same_v<T, DstT>, "akgen sim: Matmul::Iterate's localCmatrix has C's type");
        const char* api = "Matmul::Iterate";
        akgen_sim::touch(api, loc);
        ready(api, loc);
        if (!step()) return false;
        if (!in_triangle(curM_, curN_)) return true;
        const int32_t m0 = curM_ * base_m(), n0 = curN_ * base_n();
        const int32_t ml = std::min(base_m(), singleM_ - m0), nl = std::min(base_n(), singleN_ - n0);
        const uint64_t rows = uint64_t(ml + 15) / 16 * 16, cols = uint64_t(nl + 15) / 16 * 16;
        akgen_sim::check_local(localCmatrix, "localCmatrix", api, rows * cols * sizeof(DstT), loc, false);
        std::vector<DstT> blk(size_t(ml) * size_t(nl));
        const bool bias = bias_.set;
        bias_.set = bias && !enPartialSum;  // as CANN: the bias goes in with the first product only
        compute(m0, n0, ml, nl, blk.data(), uint32_t(nl), 0, api, loc);
        bias_.set = bias;
        akgen_sim::ctx().gm_write -= uint64_t(ml) * uint64_t(nl) * sizeof(DstT);  // C stays in L0C
        for (int32_t r = 0; r < ml; ++r) {
            for (int32_t c = 0; c < nl; ++c) {
                DstT& o = localCmatrix.addr_[uint64_t(c / 16) * rows * 16 + uint64_t(r) * 16 + uint64_t(c % 16)];
                o = enPartialSum ? static_cast<DstT>(o + blk[size_t(r) * nl + c]) : blk[size_t(r) * nl + c];
            }
        }
        return true;
    }
    bool step() {
        int32_t bm = base_m(), bn = base_n();
        int32_t mBlocks = (singleM_ + bm - 1) / bm, nBlocks = (singleN_ + bn - 1) / bn;
        if (mBlocks == 0 || nBlocks == 0) return false;
        if (next_ >= mBlocks * nBlocks) return false;
        bool orderN = t_.iterateOrder == 1;
        curM_ = orderN ? next_ / nBlocks : next_ % mBlocks;
        curN_ = orderN ? next_ % nBlocks : next_ / mBlocks;
        ++next_;
        have_block_ = true;
        return true;
    }
    template <bool sync = true> void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                                                bool enSequentialWrite = false, AKGEN_LOC) {
        static_assert(!kCo1 && C_TYPE::format != CubeFormat::NZ, "akgen sim: a C in CO1 is filled by Iterate("
                      "enPartialSum, localCmatrix), an NZ C in GM by IterateAll");
        akgen_sim::touch("Matmul::GetTensorC", loc);
        if (!sync && async_) async_next(loc);
        block_or_fail(loc);
        if (!in_triangle(curM_, curN_)) return;
        int32_t m0 = curM_ * base_m(), n0 = curN_ * base_n();
        int32_t ml = std::min(base_m(), singleM_ - m0), nl = std::min(base_n(), singleN_ - n0);
        if (enSequentialWrite) {  // blocks are written one after another, each baseM x baseN (rows of baseN)
            compute(m0, n0, ml, nl, gm.addr_, base_n(), enAtomic, "Matmul::GetTensorC", loc);
            return;
        }
        int32_t pad = c_pad(n0, nl);
        check_c_gm(gm, m0, n0, ml, nl + pad, "Matmul::GetTensorC", loc, enAtomic);
        compute(m0, n0, ml, nl, gm.addr_ + uint64_t(m0) * c_stride() + n0, c_stride(), enAtomic, "Matmul::GetTensorC",
                loc, pad);
    }
    template <bool sync = true> void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                                                bool enSequentialWrite = false, AKGEN_LOC) {
        (void)enSequentialWrite;
        static_assert(!kCo1 && C_TYPE::format != CubeFormat::NZ, "akgen sim: a C in CO1 is filled by Iterate("
                      "enPartialSum, localCmatrix), an NZ C in GM by IterateAll");
        akgen_sim::touch("Matmul::GetTensorC", loc);
        if (!sync && async_) async_next(loc);
        block_or_fail(loc);
        if (!in_triangle(curM_, curN_)) return;
        int32_t m0 = curM_ * base_m(), n0 = curN_ * base_n();
        int32_t ml = std::min(base_m(), singleM_ - m0), nl = std::min(base_n(), singleN_ - n0);
        uint32_t stride = local_stride(nl);
        akgen_sim::check_local(co2Local, "cMatrix", "Matmul::GetTensorC",
                               (uint64_t(ml - 1) * stride + nl) * sizeof(DstT), loc, is_ub_position(co2Local.pos_));
        compute(m0, n0, ml, nl, co2Local.addr_, stride, enAtomic, "Matmul::GetTensorC", loc);
    }
    template <bool sync = true> void GetTensorC(const GlobalTensor<DstT>& gm, const LocalTensor<DstT>& co2Local,
                                                uint8_t enAtomic = 0, bool enSequentialWrite = false, AKGEN_LOC) {
        GetTensorC<sync>(co2Local, enAtomic, enSequentialWrite, loc);
        GetTensorC<true>(gm, enAtomic, enSequentialWrite, loc);  // the same block
    }
    MatrixOffset GetOffsetC() {
        MatrixOffset o;
        o.row = curM_ * base_m();
        o.col = curN_ * base_n();
        o.offset = o.row * c_stride() + o.col;
        o.height = std::min(base_m(), singleM_ - o.row);
        o.width = std::min(base_n(), singleN_ - o.col);
        return o;
    }

    void End() { reset_iter(); }
    void SetHF32(bool = false, int32_t = 0) {}
    void SetSubBlockIdx(uint8_t) {}
    uint8_t GetSubBlockIdx() { return 0; }
    void SetLocalWorkspace(const LocalTensor<uint8_t>&) {}
    template <class T> void SetSelfDefineData(T) {}
    void SetUserDefInfo(const uint64_t) {}
    // Dequantisation of an int8 matmul on the way out of L0C (DEQF16): C = (float)acc * scale, the scale being the
    // float in the low 32 bits of the uint64 with its mantissa cut to 10 bits (the fixpipe's 1-8-10 format).
    void SetQuantScalar(const uint64_t quantScalar) {
        quant_ = 1;
        quantScalar_ = quantScalar;
    }
    void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor) {
        quant_ = 2;
        quantVec_ = quantTensor;
    }

private:
    // TrianUpper/LowerMatmulPolicy: only the base blocks (mi, ni) with mi <= ni (upper) or mi >= ni (lower)
    static constexpr int kTriangle =
        mm_detail::triangle_of<MATMUL_POLICY<MM_CFG, Matmul, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>>();
    static constexpr bool in_triangle(int32_t mi, int32_t ni) {
        return kTriangle == 0 || (kTriangle == 1 ? mi <= ni : mi >= ni);
    }
    // f(m0, n0, ml, nl) for each base block of the single-core shape in the triangle
    template <class F> void for_blocks(F&& f) const {
        const int32_t bm = base_m(), bn = base_n();
        for (int32_t mi = 0; mi * bm < singleM_; ++mi) {
            for (int32_t ni = 0; ni * bn < singleN_; ++ni) {
                if (in_triangle(mi, ni)) {
                    f(mi * bm, ni * bn, std::min(bm, singleM_ - mi * bm), std::min(bn, singleN_ - ni * bn));
                }
            }
        }
    }
    static constexpr bool kCo1 = C_TYPE::pos == TPosition::CO1;
    // the columns of an NZ C's fractal: 32 bytes, but 16 for a 32-bit C (L0C's 16 x 16), 8 with isEnableChannelSplit
    static constexpr uint32_t kNzC0 = sizeof(DstT) != 4 ? 32 / sizeof(DstT) : mm_detail::channel_split<MM_CFG>() ? 8 : 16;
    static constexpr bool kStatic = std::is_same_v<std::decay_t<decltype(MM_CFG)>, MatmulApiStaticTiling>;
    static TCubeTiling static_tiling() {
        TCubeTiling t{};
        if constexpr (kStatic) {
            const MatmulApiStaticTiling& s = MM_CFG;
            auto v = [](int32_t x) { return x < 0 ? 0 : x; };
            t.usedCoreNum = v(s.usedCoreNum);
            t.M = v(s.M);
            t.N = v(s.N);
            t.Ka = v(s.Ka);
            t.Kb = v(s.Kb);
            t.singleCoreM = v(s.singleCoreM);
            t.singleCoreN = v(s.singleCoreN);
            t.singleCoreK = v(s.singleCoreK);
            t.baseM = v(s.baseM);
            t.baseN = v(s.baseN);
            t.baseK = v(s.baseK);
            t.depthA1 = v(s.depthA1);
            t.depthB1 = v(s.depthB1);
            t.stepM = v(s.stepM);
            t.stepN = v(s.stepN);
            t.stepKa = v(s.stepKa);
            t.stepKb = v(s.stepKb);
            t.isBias = v(s.isBias);
            t.iterateOrder = v(s.iterateOrder);
        }
        return t;
    }
    TCubeTiling t_{};
    bool inited_ = false;
    int32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0, orgKc_ = 0;
    int32_t singleM_ = 0, singleN_ = 0, singleK_ = 0;
    mm_detail::Src<SrcAT> a_;
    mm_detail::Src<SrcBT> b_;
    mm_detail::Src<BiasT> bias_;
    bool transA_ = false, transB_ = false;
    int32_t next_ = 0, curM_ = 0, curN_ = 0;
    bool have_block_ = false;

    int quant_ = 0;  // 0: none, 1: SetQuantScalar, 2: SetQuantVector
    uint64_t quantScalar_ = 0;
    GlobalTensor<uint64_t> quantVec_;

    float deq_scale(int32_t n, const char* api, const akgen_sim::loc_t& loc) const {
        uint64_t v = quantScalar_;
        if (quant_ == 2) {
            quantVec_.check_access(uint64_t(n), 1, false, api, loc);
            v = quantVec_.addr_[n];
        }
        uint32_t bits = static_cast<uint32_t>(v) & 0xFFFFE000u;
        float f;
        std::memcpy(&f, &bits, sizeof(f));
        return f;
    }

    bool async_ = false;
    void async_next(const akgen_sim::loc_t& loc) {
        if (!step()) {
            akgen_sim::fail("SIM-MM-ITERATE", "Matmul::GetTensorC: every block of the asynchronous Iterate<false>() "
                            "was already fetched; call GetTensorC<false> once per base block (ceil(singleCoreM / "
                            "baseM) * ceil(singleCoreN / baseN) times)", loc, "logic", "Matmul::GetTensorC");
        }
    }

    void reset_iter() {
        next_ = 0;
        have_block_ = false;
        async_ = false;
    }
    int32_t base_m() const { return t_.baseM > 0 ? t_.baseM : std::max(singleM_, 1); }
    int32_t base_n() const { return t_.baseN > 0 ? t_.baseN : std::max(singleN_, 1); }
    // ND_ALIGN C: rows of N rounded up to 32 bytes (the padding columns are written as zeros)
    static constexpr bool kAlignC = C_TYPE::format == CubeFormat::ND_ALIGN;
    static constexpr int32_t kCAlign = static_cast<int32_t>(32 / sizeof(DstT));
    uint32_t c_stride() const {
        int32_t n = orgKc_ > 0 ? orgKc_ : orgN_;
        if (kAlignC) n = (n + kCAlign - 1) / kCAlign * kCAlign;
        return static_cast<uint32_t>(n);
    }
    // the zero columns after the last block of a row of C when C is ND_ALIGN
    int32_t c_pad(int32_t n0, int32_t nl) const {
        if (!kAlignC || n0 + nl != singleN_) return 0;
        return (nl + kCAlign - 1) / kCAlign * kCAlign - nl;
    }
    static uint32_t local_stride(int32_t n) {
        constexpr uint32_t per = 32 / sizeof(DstT);
        return (static_cast<uint32_t>(n) + per - 1) / per * per;
    }

    void ready(const char* api, const akgen_sim::loc_t& loc) const {
        if (!inited_) {
            akgen_sim::fail("SIM-MM-INIT", akgen_sim::fmt("%s: the Matmul object was not initialised; call "
                            "REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling) (or mm.Init(&tiling)) first",
                            api), loc, "logic", api);
        }
        if (!a_.set || !b_.set) {
            akgen_sim::fail("SIM-MM-INPUT", akgen_sim::fmt("%s: SetTensorA and SetTensorB must be called before "
                            "computing", api), loc, "logic", api);
        }
        if (singleM_ <= 0 || singleN_ <= 0 || singleK_ <= 0) {
            akgen_sim::fail("SIM-MM-SHAPE", akgen_sim::fmt("%s: the single-core shape %d x %d x %d (M x N x K) is "
                            "empty or negative; check the tiling (singleCoreM/N/K) or SetTail", api, singleM_,
                            singleN_, singleK_), loc, "logic", api);
        }
    }
    void block_or_fail(const akgen_sim::loc_t& loc) const {
        if (!have_block_) {
            akgen_sim::fail("SIM-MM-ITERATE", "Matmul::GetTensorC: no block was computed; call Iterate() first and "
                            "use GetTensorC while it returns true", loc, "logic", "Matmul::GetTensorC");
        }
    }
    // enAtomic 1: the writes accumulate (atomic add), so other cores' writes to the same C do not race with them
    void check_c_gm(const GlobalTensor<DstT>& gm, int32_t m0, int32_t n0, int32_t ml, int32_t nl, const char* api,
                    const akgen_sim::loc_t& loc, uint8_t enAtomic = 0) const {
        int& atomic = akgen_sim::ctx().atomic;
        const int saved = atomic;
        if (enAtomic == 1 && atomic == 0) atomic = 1;
        for (int32_t m = 0; m < ml; ++m) gm.check_access(uint64_t(m0 + m) * c_stride() + n0, uint64_t(nl), true, api, loc);
        atomic = saved;
    }

    // Element (r, c) of a stored rows x cols matrix, from the tensor the user set: ND row-major, or NZ (16 x C0
    // fractals, C0 = 32 bytes of T, one column block of C0 after another, each over all rows aligned to 16; a block
    // set at a row multiple of 16 and a column multiple of C0 addresses the same way).
    template <class MT> static uint64_t at(uint64_t r, uint64_t c, uint64_t rows, uint64_t cols) {
        if constexpr (MT::format == CubeFormat::NZ) {
            constexpr uint64_t c0 = 32 / sizeof(typename MT::T);
            return c / c0 * ((rows + 15) / 16 * 16 * c0) + r * c0 + c % c0;
        } else {
            return r * cols + c;
        }
    }
    // A(m, k) and B(k, n) of the single-core problem (A is orgM x orgKa, or orgKa x orgM when transposed; B orgKb x
    // orgN, or orgN x orgKb).
    Acc a_at(int32_t m, int32_t k) const {
        return static_cast<Acc>(a_.ptr[transA_ ? at<A_TYPE>(k, m, orgKa_, orgM_) : at<A_TYPE>(m, k, orgM_, orgKa_)]);
    }
    Acc b_at(int32_t k, int32_t n) const {
        return static_cast<Acc>(b_.ptr[transB_ ? at<B_TYPE>(n, k, orgN_, orgKb_) : at<B_TYPE>(k, n, orgKb_, orgN_)]);
    }
    // rows [r0, r0 + rl) x cols [c0, c0 + cl) of a stored matrix are in its GM tensor: a row, or a row's part in one
    // column block of NZ, at a time
    template <class MT, class G>
    static void check_span(const G* gm, uint64_t r0, uint64_t rl, uint64_t c0, uint64_t cl, uint64_t rows,
                           uint64_t cols, const char* api, const akgen_sim::loc_t& loc) {
        const uint64_t step = MT::format == CubeFormat::NZ ? 32 / sizeof(typename MT::T) : cl + c0 + 1;
        for (uint64_t r = r0; r < r0 + rl; ++r) {
            for (uint64_t c = c0, end = 0; c < c0 + cl; c = end) {
                end = std::min(c0 + cl, (c / step + 1) * step);
                gm->check_access(at<MT>(r, c, rows, cols), end - c, false, api, loc);
            }
        }
    }
    void check_inputs(int32_t m0, int32_t n0, int32_t ml, int32_t nl, const char* api, const akgen_sim::loc_t& loc) {
        if (a_.gm && transA_) check_span<A_TYPE>(a_.gm, 0, singleK_, m0, ml, orgKa_, orgM_, api, loc);
        if (a_.gm && !transA_) check_span<A_TYPE>(a_.gm, m0, ml, 0, singleK_, orgM_, orgKa_, api, loc);
        if (b_.gm && transB_) check_span<B_TYPE>(b_.gm, n0, nl, 0, singleK_, orgN_, orgKb_, api, loc);
        if (b_.gm && !transB_) check_span<B_TYPE>(b_.gm, 0, singleK_, n0, nl, orgKb_, orgN_, api, loc);
        if (bias_.set && bias_.gm) bias_.gm->check_access(n0, nl, false, api, loc);
    }

    // C block [m0, m0 + ml) x [n0, n0 + nl) into out (rows `stride` apart).
    void compute(int32_t m0, int32_t n0, int32_t ml, int32_t nl, DstT* out, uint32_t stride, uint8_t enAtomic,
                 const char* api, const akgen_sim::loc_t& loc, int32_t pad = 0) {
        for (int32_t m = 0; m < ml && pad > 0; ++m) {
            for (int32_t n = nl; n < nl + pad; ++n) out[uint64_t(m) * stride + n] = DstT(0);
        }
        check_inputs(m0, n0, ml, nl, api, loc);
        bool add = enAtomic == 1 || akgen_sim::ctx().atomic == 1;
        // A's rows and B's columns of the block in Acc once (row-major ml x K, and K x nl), then the products
        const int32_t kl = singleK_;
        std::vector<Acc> af(size_t(ml) * size_t(kl)), bf(size_t(kl) * size_t(nl)), accs(size_t(ml) * size_t(nl));
        for (int32_t m = 0; m < ml; ++m) {
            for (int32_t k = 0; k < kl; ++k) af[size_t(m) * kl + k] = a_at(m0 + m, k);
        }
        for (int32_t k = 0; k < kl; ++k) {
            for (int32_t n = 0; n < nl; ++n) bf[size_t(k) * nl + n] = b_at(k, n0 + n);
        }
        mm_detail::gemm_blocked(accs.data(), af.data(), bf.data(), ml, nl, kl);
        for (int32_t n = 0; n < nl; ++n) {
            Acc bias = bias_.set ? static_cast<Acc>(bias_.ptr[n0 + n]) : Acc(0);
            for (int32_t m = 0; m < ml; ++m) {
                Acc acc = accs[size_t(m) * nl + n];
                acc += bias;
                DstT& c = out[uint64_t(m) * stride + n];
                if (quant_ != 0 && std::is_same_v<Acc, int32_t>) {
                    float q = static_cast<float>(acc) * deq_scale(n0 + n, api, loc);
                    c = add ? static_cast<DstT>(static_cast<float>(c) + q) : static_cast<DstT>(q);
                    continue;
                }
                c = add ? static_cast<DstT>(static_cast<Acc>(c) + acc) : static_cast<DstT>(acc);
            }
        }
        // cost: A and B blocks into L1 (MTE2), the MACs on the cube (M), C out (FIX)
        double in_bytes = double(ml) * singleK_ * sizeof(SrcAT) + double(nl) * singleK_ * sizeof(SrcBT);
        double t = akgen_sim::charge_dma(akgen_sim::P_MTE2, in_bytes, akgen_sim::cfg().bw_gm_l1, 0, api, loc);
        akgen_sim::ctx().gm_read += static_cast<uint64_t>(in_bytes);
        double macs = double((ml + 15) / 16 * 16) * double((nl + 15) / 16 * 16) * double((singleK_ + 15) / 16 * 16);
        double per = std::is_same_v<SrcAT, int8_t> ? 8192.0 : std::is_same_v<SrcAT, float> ? 1024.0 : 4096.0;
        t = akgen_sim::charge(akgen_sim::P_M, akgen_sim::cube_cycles(macs, per), t, api, loc);
        double out_bytes = double(ml) * nl * sizeof(DstT);
        akgen_sim::charge_dma(akgen_sim::P_FIX, out_bytes, akgen_sim::cfg().bw_l0c_gm, t, api, loc);
        akgen_sim::ctx().gm_write += static_cast<uint64_t>(out_bytes);
    }
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          template <const auto& = MM_CFG, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy>
using MatmulImpl = Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>;

// REGIST_MATMUL_OBJ(&pipe, workspace, mm1, &tiling1, mm2, &tiling2, ...): Init each object with its tiling.
inline void akgen_regist_matmul(const ::akgen_sim::loc_t&, TPipe*) {}
template <class M, class... Rest>
inline void akgen_regist_matmul(const ::akgen_sim::loc_t& loc, TPipe* pipe, M& mm, std::nullptr_t, Rest&&... rest) {
    (void)mm;
    akgen_regist_matmul(loc, pipe, rest...);
}
template <class M, class TT, class... Rest>
inline void akgen_regist_matmul(const ::akgen_sim::loc_t& loc, TPipe* pipe, M& mm, TT* tiling, Rest&&... rest) {
    ::akgen_sim::touch("REGIST_MATMUL_OBJ", loc);
    mm.Init(reinterpret_cast<const TCubeTiling*>(tiling), pipe, loc);
    akgen_regist_matmul(loc, pipe, rest...);
}

}  // namespace AscendC

namespace matmul = AscendC;

// CANN declares GetSysWorkSpacePtr at global scope (kernel_operator_swap_mem_intf.h); Matmul programs call it
// unqualified for REGIST_MATMUL_OBJ.
using AscendC::GetSysWorkSpacePtr;

// In a split (MIX) launch the AIC plays CANN's KfcServer: it serves the AIVs' requests and returns from the kernel
// there (the emulated Matmul computes in the AIV's client calls, so the AIC's part ends at once); the AIVs go on.
// A kernel that defines ASCENDC_CUBE_ONLY before the includes runs the Matmul on the AIC itself (no server: CANN's
// macro then only initialises the object), whatever its AIVs do. The test is made where the macro is used: the
// name expands to its value there when it is defined (AKGEN_MM_CUBE_ONLY compares the spellings).
#define AKGEN_MM_STR2(x) #x
#define AKGEN_MM_STR(x) AKGEN_MM_STR2(x)
#define AKGEN_MM_CUBE_ONLY (sizeof(AKGEN_MM_STR(ASCENDC_CUBE_ONLY)) != sizeof("ASCENDC_CUBE_ONLY"))
// A statement, as CANN's macro (which declares objects and returns on the AIC).
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                                                                      \
    if (::akgen_sim::ctx().core_type == 1 && !AKGEN_MM_CUBE_ONLY) {                                                   \
        ::akgen_sim::touch("REGIST_MATMUL_OBJ", ::std::source_location::current());                                  \
        return;                                                                                                        \
    }                                                                                                                  \
    ((void)(workspace), ::AscendC::akgen_regist_matmul(::std::source_location::current(), (tpipe), __VA_ARGS__))
#define REGIST_MATMUL_OBJ_STATIC REGIST_MATMUL_OBJ
#define REGIST_CUBE_OBJ REGIST_MATMUL_OBJ
