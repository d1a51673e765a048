// akgen sim: the batch interfaces of the high-level Matmul (lib/matmul_intf.h): IterateBatch, IterateNBatch,
// GetBatchTensorC, WaitIterateBatch, the layouts of MatmulType's LAYOUT (CANN's IterateBatch.md, IterateNBatch.md,
// GetBatchTensorC.md; the offsets as in CANN's batch_matmul_utils.h CalcNBatchoffset and batch_scheduler's
// UpdateOffset).
//
// One IterateBatch computes batchC = max(batchA, batchB) products of singleCoreM x singleCoreK by singleCoreK x
// singleCoreN, each batch a matrix of its tensor's layout, counted from the tensor set by SetTensorA / B and the
// C tensor given:
// - BSNGD ([B, S, N, G, D]): batch i at i * D; rows (S) are N * G * D elements apart;
// - SBNGD ([S, B, N, G, D]): batch i at i * D; rows B * N * G * D apart;
// - BNGS1S2 and NORMAL: whole matrices one after another (matrixStrideA / B elements apart when given); the rows of
//   a matrix are its columns' count apart (the org shape of NORMAL).
// Broadcast (batchA != batchB): NORMAL takes A batch c / (batchC / batchA) for C batch c; the other layouts follow the
// axis that is 1 in one input and not the other (G: c / G; N: c % G + c / (G * N); B: c % (G * N) + c / (G * N * B)).
// Bias: batch c's at c * singleCoreN when MatmulConfig::isBiasBatch (the default), the same N values for every batch
// otherwise. IterateNBatch runs batchLoop IterateBatch calls and writes C to the GM set by SetWorkspace, the calls'
// inputs and outputs at CalcNBatchoffset's offsets; GetBatchTensorC<false> hands out the next call's C there.
// Not emulated (SIM-UNSUPPORTED at the line): the G / N / B reduce of C (a C layout axis 1 where an input's is not),
// NZ inputs or outputs of a batch, quantisation, the sequential write of a batch to GM, enPartialSum.
#pragma once

namespace AscendC::mm_detail {

struct BatchGeo {
    uint64_t step = 0;    // elements from one batch's matrix to the next
    uint64_t stride = 0;  // elements from one row of the stored matrix to the next
};

// Batch geometry of a stored rows x cols matrix in LAYOUT with the tiling's layout info (b, s, n, g, d)
template <LayoutMode LAYOUT>
constexpr BatchGeo batch_geo(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d, uint64_t rows, uint64_t cols,
                             uint32_t matrixStride) {
    auto pos = [](int32_t v) { return v > 0 ? uint64_t(v) : uint64_t(1); };
    if constexpr (LAYOUT == LayoutMode::BSNGD) {
        return {pos(d), pos(n) * pos(g) * pos(d)};
    } else if constexpr (LAYOUT == LayoutMode::SBNGD) {
        return {pos(d), pos(b) * pos(n) * pos(g) * pos(d)};
    } else {
        (void)s;
        return {matrixStride > 0 ? uint64_t(matrixStride) : rows * cols, cols};
    }
}

// The input batch that C batch c reads (CANN's UpdateOffset with the mod / divisor of CalcBatchIterate*OffsetInfo)
template <LayoutMode LAYOUT>
constexpr uint64_t batch_src(uint64_t c, uint32_t batchIn, uint32_t batchC, int32_t inN, int32_t inG, int32_t inB,
                             int32_t otherN, int32_t otherG, int32_t otherB) {
    if (batchIn >= batchC) return c;
    if constexpr (LAYOUT == LayoutMode::NORMAL) {
        return c / (batchC / (batchIn > 0 ? batchIn : 1));
    } else {
        auto pos = [](int32_t v) { return v > 0 ? uint64_t(v) : uint64_t(1); };
        if (inG == 1 && otherG != 1) return c / pos(otherG);
        if (inN == 1 && otherN != 1) return c % pos(otherG) + c / (pos(otherG) * pos(otherN));
        if (inB == 1 && otherB != 1) {
            const uint64_t gn = pos(otherG) * pos(otherN);
            return c % gn + c / (gn * pos(otherB));
        }
        return c;
    }
}

// CANN's CalcNBatchoffset in elements: where IterateNBatch's call `loop` of `batch` batches starts
template <LayoutMode LAYOUT>
constexpr uint64_t nbatch_offset(uint32_t batch, uint32_t loop, int32_t n, int32_t g, int32_t d, int32_t s) {
    auto pos = [](int32_t v) { return v > 0 ? uint64_t(v) : uint64_t(1); };
    if constexpr (LAYOUT == LayoutMode::SBNGD) {
        return pos(d) * batch * loop;
    } else if constexpr (LAYOUT == LayoutMode::BSNGD) {
        const uint64_t ng = pos(n) * pos(g), first = uint64_t(loop) * batch;
        return first / ng * pos(d) * pos(s) * ng + first % ng * pos(d);
    } else {
        return pos(d) * pos(s) * batch * loop;
    }
}

template <const auto& MM_CFG> constexpr bool bias_per_batch() {
    if constexpr (requires { MM_CFG.isBiasBatch; }) {
        return MM_CFG.isBiasBatch;
    } else {
        return true;
    }
}

template <const auto& MM_CFG> constexpr bool channel_split() {
    if constexpr (requires { MM_CFG.isEnableChannelSplit; }) {
        return MM_CFG.isEnableChannelSplit;
    } else {
        return false;
    }
}

// Mixed into Matmul (its friend): the public batch interfaces.
template <class MM, class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE, const auto& MM_CFG>
class BatchOps {
    using DstT = typename C_TYPE::T;
    MM& mm() { return static_cast<MM&>(*this); }

public:
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateBatch(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                      const uint32_t matrixStrideC = 0, const bool enPartialSum = false, const uint8_t enAtomic = 0,
                      AKGEN_LOC) {
        (void)matrixStrideC;
        akgen_sim::touch("Matmul::IterateBatch", loc);
        if (enPartialSum) unsupported("enPartialSum (adding to the L0C of the last call)", "Matmul::IterateBatch", loc);
        run_batch(gm, nullptr, batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB, enAtomic,
                  "Matmul::IterateBatch", loc);
    }
    template <bool sync = true>
    void IterateBatch(const LocalTensor<DstT>& ubCmatrix, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                      const uint32_t matrixStrideC = 0, const bool enPartialSum = false, const uint8_t enAtomic = 0,
                      AKGEN_LOC) {
        (void)matrixStrideC;
        akgen_sim::touch("Matmul::IterateBatch", loc);
        if (enPartialSum) unsupported("enPartialSum (adding to the L0C of the last call)", "Matmul::IterateBatch", loc);
        GlobalTensor<DstT> none;
        run_batch(none, &ubCmatrix, batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB, enAtomic,
                  "Matmul::IterateBatch", loc);
    }
    // the cube-only form (its second argument a bool): batchA / batchB from SetBatchNum
    template <class P, std::enable_if_t<std::is_same_v<P, bool>, int> = 0>
    void IterateBatch(const GlobalTensor<DstT>& gm, P enPartialSum, uint8_t enAtomic, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                      const uint32_t matrixStrideC = 0, AKGEN_LOC) {
        IterateBatch<true>(gm, batchA_, batchB_, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC,
                           enPartialSum, enAtomic, loc);
    }
    void SetBatchNum(int32_t batchA, int32_t batchB) {
        batchA_ = static_cast<uint32_t>(batchA);
        batchB_ = static_cast<uint32_t>(batchB);
    }
    template <bool sync = true> void WaitIterateBatch() {}

    template <bool sync = true, bool waitIterateBatch = false>
    void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                       const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                       const uint32_t matrixStrideC = 0, AKGEN_LOC) {
        (void)matrixStrideC;
        const char* api = "Matmul::IterateNBatch";
        akgen_sim::touch(api, loc);
        if (ws_.addr_ == nullptr) {
            akgen_sim::fail("SIM-MM-INPUT", "Matmul::IterateNBatch writes C to the workspace; call SetWorkspace "
                            "first (a GM buffer of batchLoop * max(batchA, batchB) * singleCoreM * singleCoreN "
                            "elements)", loc, "logic", api);
        }
        MM& m = mm();
        const TCubeTiling& t = m.t_;
        const uint32_t batchC = std::max(batchA, batchB);
        const auto a0 = m.a_, b0 = m.b_, bias0 = m.bias_;
        for (uint32_t l = 0; l < batchLoop; ++l) {
            m.a_ = shifted(a0, nbatch_offset<A_TYPE::layout>(batchA, l, t.ALayoutInfoN, t.ALayoutInfoG,
                                                             t.ALayoutInfoD, t.ALayoutInfoS));
            m.b_ = shifted(b0, nbatch_offset<B_TYPE::layout>(batchB, l, t.BLayoutInfoN, t.BLayoutInfoG,
                                                             t.BLayoutInfoD, t.BLayoutInfoS));
            m.bias_ = shifted(bias0, uint64_t(l) * uint64_t(t.CLayoutInfoS2 > 0 ? t.CLayoutInfoS2 : m.singleN_) *
                                         batchC);
            const uint64_t offC = nbatch_offset<C_TYPE::layout>(batchC, l, t.CLayoutInfoN, t.CLayoutInfoG,
                                                                t.CLayoutInfoS2, t.CLayoutInfoS1);
            run_batch(ws_[offC], nullptr, batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB, 0, api,
                      loc);
        }
        m.a_ = a0;
        m.b_ = b0;
        m.bias_ = bias0;
        nbatchC_ = batchC;
        nbatchNext_ = 0;
        nbatchLoop_ = batchLoop;
    }
    // The C of the next IterateNBatch call, in the workspace
    template <bool sync = true>
    GlobalTensor<DstT> GetBatchTensorC(uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false, AKGEN_LOC) {
        (void)enSequentialWrite;
        akgen_sim::touch("Matmul::GetBatchTensorC", loc);
        return ws_[next_batch_c(batchA, batchB, loc)];
    }
    template <bool sync = true>
    void GetBatchTensorC(const LocalTensor<DstT>& c, uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false,
                         AKGEN_LOC) {
        (void)enSequentialWrite;
        const char* api = "Matmul::GetBatchTensorC";
        akgen_sim::touch(api, loc);
        const uint64_t n = batch_c_elems(std::max(batchA, batchB));
        const GlobalTensor<DstT> src = ws_[next_batch_c(batchA, batchB, loc)];
        src.check_access(0, n, false, api, loc);
        akgen_sim::check_local(c, "c", api, n * sizeof(DstT), loc, is_ub_position(c.pos_));
        std::memcpy(c.addr_, src.addr_, n * sizeof(DstT));
    }
    // size in bytes
    template <class T> void SetWorkspace(__gm__ const T* addr, int size, AKGEN_LOC) {
        ws_.SetGlobalBuffer(reinterpret_cast<DstT*>(const_cast<T*>(addr)), static_cast<uint64_t>(size) / sizeof(DstT),
                            loc);
    }
    template <class T> void SetWorkspace(GlobalTensor<T>& addr) { ws_ = addr.template ReinterpretCast<DstT>(); }

private:
    uint32_t batchA_ = 1, batchB_ = 1;
    GlobalTensor<DstT> ws_;
    uint32_t nbatchC_ = 0, nbatchNext_ = 0, nbatchLoop_ = 0;

    template <class S> static S shifted(const S& s, uint64_t off) {
        S out = s;
        if (!s.set || off == 0) return out;
        out.ptr = s.ptr + off;
        if (s.gm != nullptr) {
            out.g = s.g[off];
        }
        return out;
    }
    uint64_t batch_c_elems(uint32_t batchC) { return uint64_t(batchC) * mm().singleM_ * mm().singleN_; }
    uint64_t next_batch_c(uint32_t batchA, uint32_t batchB, const akgen_sim::loc_t& loc) {
        if (nbatchNext_ >= nbatchLoop_) {
            akgen_sim::fail("SIM-MM-ITERATE", "Matmul::GetBatchTensorC: every C of the last IterateNBatch was "
                            "already fetched (one GetBatchTensorC per batchLoop)", loc, "logic",
                            "Matmul::GetBatchTensorC");
        }
        const TCubeTiling& t = mm().t_;
        (void)batchA;
        (void)batchB;
        return nbatch_offset<C_TYPE::layout>(nbatchC_, nbatchNext_++, t.CLayoutInfoN, t.CLayoutInfoG,
                                             t.CLayoutInfoS2, t.CLayoutInfoS1);
    }

    void unsupported(const char* what, const char* api, const akgen_sim::loc_t& loc) {
        akgen_sim::fail("SIM-UNSUPPORTED", akgen_sim::fmt("%s: %s is not emulated yet", api, what), loc,
                        "api_mismatch", api);
    }

    // batchC products into gm (or *local), each batch as its layout stores it
    void run_batch(const GlobalTensor<DstT>& gm, const LocalTensor<DstT>* local, uint32_t batchA, uint32_t batchB,
                   bool seqWrite, uint32_t strideA, uint32_t strideB, uint8_t enAtomic, const char* api,
                   const akgen_sim::loc_t& loc) {
        MM& m = mm();
        m.ready(api, loc);
        const TCubeTiling& t = m.t_;
        if constexpr (A_TYPE::format == CubeFormat::NZ || B_TYPE::format == CubeFormat::NZ ||
                      C_TYPE::format == CubeFormat::NZ) {
            unsupported("a batch of NZ inputs or outputs", api, loc);
        }
        if (m.quant_ != 0) unsupported("the quantised batch Matmul", api, loc);
        if (seqWrite && local == nullptr) unsupported("the sequential write of a batch to GM", api, loc);
        if constexpr (C_TYPE::layout != LayoutMode::NORMAL && C_TYPE::layout != LayoutMode::NONE) {
            if ((t.CLayoutInfoG == 1 && (t.ALayoutInfoG > 1 || t.BLayoutInfoG > 1)) ||
                (t.CLayoutInfoN == 1 && (t.ALayoutInfoN > 1 || t.BLayoutInfoN > 1)) ||
                (t.CLayoutInfoB == 1 && (t.ALayoutInfoB > 1 || t.BLayoutInfoB > 1))) {
                unsupported("the reduce of a batch over a C layout axis of 1 (the G / N / B reduce)", api, loc);
            }
        }
        if (batchA == 0 || batchB == 0) return;
        const uint32_t batchC = std::max(batchA, batchB);
        const uint64_t M = uint64_t(m.singleM_), N = uint64_t(m.singleN_), K = uint64_t(m.singleK_);
        // the stored matrices: A is M x K (K x M transposed), B K x N (N x K transposed), C M x N
        const BatchGeo ga = batch_geo<A_TYPE::layout>(t.ALayoutInfoB, t.ALayoutInfoS, t.ALayoutInfoN,
                                                      t.ALayoutInfoG, t.ALayoutInfoD, m.transA_ ? K : M,
                                                      m.transA_ ? uint64_t(m.orgM_) : uint64_t(m.orgKa_), strideA);
        const BatchGeo gb = batch_geo<B_TYPE::layout>(t.BLayoutInfoB, t.BLayoutInfoS, t.BLayoutInfoN,
                                                      t.BLayoutInfoG, t.BLayoutInfoD, m.transB_ ? N : K,
                                                      m.transB_ ? uint64_t(m.orgKb_) : uint64_t(m.orgN_), strideB);
        const BatchGeo gc = batch_geo<C_TYPE::layout>(t.CLayoutInfoB, t.CLayoutInfoS1, t.CLayoutInfoN,
                                                      t.CLayoutInfoG, t.CLayoutInfoS2, M, m.c_stride(), 0);
        // NORMAL / BNGS1S2: a whole matrix per batch, of the org shape's rows
        const uint64_t stepA = A_TYPE::layout == LayoutMode::BSNGD || A_TYPE::layout == LayoutMode::SBNGD
            ? ga.step : (strideA > 0 ? strideA : uint64_t(m.orgM_) * uint64_t(m.orgKa_));
        const uint64_t stepB = B_TYPE::layout == LayoutMode::BSNGD || B_TYPE::layout == LayoutMode::SBNGD
            ? gb.step : (strideB > 0 ? strideB : uint64_t(m.orgKb_) * uint64_t(m.orgN_));
        const uint64_t stepC = C_TYPE::layout == LayoutMode::BSNGD || C_TYPE::layout == LayoutMode::SBNGD
            ? gc.step : uint64_t(m.orgM_) * m.c_stride();
        const auto a0 = m.a_, b0 = m.b_, bias0 = m.bias_;
        const int32_t orgM = m.orgM_, orgN = m.orgN_, orgKa = m.orgKa_, orgKb = m.orgKb_, orgKc = m.orgKc_;
        // the row strides through the org shape: A(m, k) at m * orgKa + k (k * orgM + m transposed), B(k, n) at
        // k * orgN + n (n * orgKb + k), C rows orgKc apart
        if (m.transA_) m.orgM_ = int32_t(ga.stride); else m.orgKa_ = int32_t(ga.stride);
        if (m.transB_) m.orgKb_ = int32_t(gb.stride); else m.orgN_ = int32_t(gb.stride);
        m.orgKc_ = int32_t(gc.stride);
        const uint32_t localStride = local != nullptr ? MM::local_stride(m.singleN_) : 0;
        for (uint32_t c = 0; c < batchC; ++c) {
            const uint64_t ia = batch_src<A_TYPE::layout>(c, batchA, batchC, t.ALayoutInfoN, t.ALayoutInfoG,
                                                          t.ALayoutInfoB, t.BLayoutInfoN, t.BLayoutInfoG,
                                                          t.BLayoutInfoB);
            const uint64_t ib = batch_src<B_TYPE::layout>(c, batchB, batchC, t.BLayoutInfoN, t.BLayoutInfoG,
                                                          t.BLayoutInfoB, t.ALayoutInfoN, t.ALayoutInfoG,
                                                          t.ALayoutInfoB);
            m.a_ = shifted(a0, ia * stepA);
            m.b_ = shifted(b0, ib * stepB);
            m.bias_ = bias_per_batch<MM_CFG>() ? shifted(bias0, uint64_t(c) * N) : bias0;
            if (local != nullptr) {  // batch after batch, each singleCoreM rows of singleCoreN aligned to 32 bytes
                const uint64_t off = uint64_t(c) * M * localStride;
                akgen_sim::check_local(*local, "ubCmatrix", api,
                                       (off + (M - 1) * localStride + N) * sizeof(DstT), loc,
                                       is_ub_position(local->pos_));
                m.compute(0, 0, int32_t(M), int32_t(N), local->addr_ + off, localStride, enAtomic, api, loc);
                continue;
            }
            const GlobalTensor<DstT> cg = gm[c * stepC];
            m.check_c_gm(cg, 0, 0, int32_t(M), int32_t(N), api, loc, enAtomic);
            m.compute(0, 0, int32_t(M), int32_t(N), cg.addr_, m.c_stride(), enAtomic, api, loc);
        }
        m.a_ = a0;
        m.b_ = b0;
        m.bias_ = bias0;
        m.orgM_ = orgM;
        m.orgN_ = orgN;
        m.orgKa_ = orgKa;
        m.orgKb_ = orgKb;
        m.orgKc_ = orgKc;
    }
};

}  // namespace AscendC::mm_detail
