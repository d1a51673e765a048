// akgen sim: lib/matmul_types.h, the types of the high-level Matmul (lib/matmul_intf.h): MatmulType, the static
// tiling GetMatmulApiTiling, callbacks, MatrixOffset, the policies, and the block product the Matmul computes with.
#pragma once

#include "../kernel_operator.h"
#include "../akgen_sim/adv_tiling.h"
#include "matmul_config.h"

namespace AscendC {

// GetMatmulApiTiling<A, B, C, BIAS>(cfg): the static tiling from the config's single-core and basic shapes. As in
// CANN, without all three single-core sizes only the base block (and isBias) is set. The L1 factors are our own
// rule: stepM = stepN = 1, stepKa = stepKb = min(K blocks, 4) lowered until A and B (double-buffered) fit l1Size.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& cfg, int32_t l1Size = 512 * 1024) {
    MatmulApiStaticTiling t;
    t.cfg = cfg;
    if (cfg.basicM != 0 && cfg.basicN != 0 && cfg.basicK != 0) {
        t.baseM = static_cast<int32_t>(cfg.basicM);
        t.baseN = static_cast<int32_t>(cfg.basicN);
        t.baseK = static_cast<int32_t>(cfg.basicK);
        t.isBias = cfg.enableSetBias ? 1 : 0;
    }
    if (cfg.singleCoreM == 0 || cfg.singleCoreN == 0 || cfg.singleCoreK == 0 || t.baseK <= 0) return t;
    t.M = t.singleCoreM = static_cast<int32_t>(cfg.singleCoreM);
    t.N = t.singleCoreN = static_cast<int32_t>(cfg.singleCoreN);
    t.Ka = t.Kb = t.singleCoreK = static_cast<int32_t>(cfg.singleCoreK);
    t.stepM = t.stepN = 1;
    const int32_t kBlocks = (t.singleCoreK + t.baseK - 1) / t.baseK;
    const int32_t aBlock = t.baseM * t.baseK * static_cast<int32_t>(sizeof(typename A_TYPE::T));
    const int32_t bBlock = t.baseN * t.baseK * static_cast<int32_t>(sizeof(typename B_TYPE::T));
    int32_t stepK = kBlocks < 4 ? kBlocks : 4;
    while (stepK > 1 && (aBlock + bBlock) * stepK * (stepK < kBlocks ? 2 : 1) > l1Size) --stepK;
    t.stepKa = t.stepKb = stepK;
    t.depthA1 = t.depthB1 = stepK < kBlocks ? stepK * 2 : stepK;
    t.iterateOrder = cfg.iterateOrder == IterateOrder::ORDER_N ? 1 : 0;
    t.dbL0A = t.dbL0B = 2;
    t.dbL0C = t.baseM * t.baseN * 4 * 2 <= 128 * 1024 ? 2 : 1;
    t.shareMode = 0;
    t.transLength = 0;
    return t;
}

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
    constexpr static TPosition srcPos = SRCPOS;
};

template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr> struct MatmulCallBackFunc {};

struct MatrixOffset {
    int32_t offset = 0;
    int32_t row = 0, col = 0;
    int32_t height = 0, width = 0;
};

namespace mm_detail {

template <typename T> struct Src {
    const T* ptr = nullptr;
    const GlobalTensor<T>* gm = nullptr;  // for the bounds checks
    GlobalTensor<T> g;
    bool set = false;
};

template <typename S> using acc_t = std::conditional_t<std::is_same_v<S, int8_t>, int32_t, float>;

// acc (ml x nl, zeroed by the caller) = a (ml x K) x b (K x nl), blocked: columns in tiles of 256 and k in tiles of
// 256 (a tile of b stays in L2), every acc element still summed over k in order.
template <typename Acc>
inline void gemm_blocked(Acc* acc, const Acc* a, const Acc* b, int32_t ml, int32_t nl, int32_t kl) {
    constexpr int32_t NT = 256, KT = 256;
    std::vector<Acc> tile;
    for (int32_t n0 = 0; n0 < nl; n0 += NT) {
        const int32_t nn = std::min(NT, nl - n0);
        tile.assign(size_t(ml) * size_t(nn), Acc(0));
        for (int32_t k0 = 0; k0 < kl; k0 += KT) {
            ::akgen_sim::mac_rows(tile.data(), a, size_t(kl), b + n0, size_t(nl), ml, nn, k0,
                                  std::min(kl, k0 + KT));
        }
        for (int32_t m = 0; m < ml; ++m) {
            std::memcpy(acc + size_t(m) * nl + n0, tile.data() + size_t(m) * nn, size_t(nn) * sizeof(Acc));
        }
    }
}

// A block of C (ml x nl row-major in blk, at rows m0.. and columns n0.. of C) stored into an NZ C in GM: fractals of 16
// rows x c0 columns, column block after column block over `rows` (the org M aligned to 16); `add` accumulates.
template <typename T>
inline void store_nz(const GlobalTensor<T>& gm, const T* blk, int32_t m0, int32_t n0, int32_t ml, int32_t nl,
                     uint64_t rows, uint32_t c0, bool add, const char* api, const ::akgen_sim::loc_t& loc) {
    for (int32_t r = 0; r < ml; ++r) {
        for (int32_t c = 0, end = 0; c < nl; c = end) {
            const uint64_t col = uint64_t(n0 + c), at = col / c0 * rows * c0 + uint64_t(m0 + r) * c0 + col % c0;
            end = std::min(nl, c + int32_t(c0 - col % c0));
            gm.check_access(at, uint64_t(end - c), true, api, loc);
            for (int32_t k = c; k < end; ++k) {
                T& o = gm.addr_[at + uint64_t(k - c)];
                const T v = blk[size_t(r) * size_t(nl) + size_t(k)];
                o = add ? static_cast<T>(static_cast<float>(o) + static_cast<float>(v)) : v;
            }
        }
    }
}

}  // namespace mm_detail

// The policies of MATMUL_POLICY (CANN's matmul_policy.h, template <const auto& MM_CFG, IMPL, A, B, C, BIAS>). They
// choose buffering and scheduling, which the emulation does not model, except which base blocks are computed: the
// triangular ones compute a base block (mi, ni) of the single-core shape only where mi <= ni (upper) or mi >= ni
// (lower); the others are neither computed nor written (C keeps what it held).
namespace Impl {
constexpr int32_t QUEUE_DEPTH = 1;  // CANN's matmul_config_utils.h: the depth of the Matmul's queues
}
namespace Impl::Detail {
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct MatmulPolicy {
    constexpr static int kTriangle = 0;  // 0 every block, 1 upper, 2 lower
};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct NBuffer33MatmulPolicy : public MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianUpperMatmulPolicy : public MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {
    constexpr static int kTriangle = 1;
};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianLowerMatmulPolicy : public MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {
    constexpr static int kTriangle = 2;
};
}  // namespace Impl::Detail

namespace mm_detail {
// kTriangle of a policy (0 for one that does not say)
template <class P> constexpr int triangle_of() {
    if constexpr (requires { P::kTriangle; }) {
        return P::kTriangle;
    } else {
        return 0;
    }
}
}  // namespace mm_detail

// The data type of L0C for an input type (CANN's GetMmDstType): int32_t for int8_t, float otherwise.
template <typename T> struct GetMmDstType {
    using Type = std::conditional_t<std::is_same_v<T, int8_t>, int32_t, float>;
};

}  // namespace AscendC
