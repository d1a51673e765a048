// akgen sim: the high-level Select with a byte mask (CANN's lib/select; older name SelectWithBytesMask).
// dst[r][j] = mask[r][j] == 0 ? src0 : src1 for the firstAxis rows x srcLastAxis columns (mask rows are
// maskLastAxis elements apart, extra mask columns are ignored); one of src0 / src1 is a scalar. The mask is not
// modified (CANN may rewrite it when the last axes differ and isReuseMask is true). sharedTmpBuffer is accepted and
// not needed by the emulation.
#pragma once

#include "vec_cmpsel.h"

namespace AscendC {

struct SelectWithBytesMaskShapeInfo {
    SelectWithBytesMaskShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

}  // namespace AscendC

namespace akgen_sim {

template <typename T, typename U>
inline void select_bytes(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& t, T s, bool tensor_first,
                         const AscendC::LocalTensor<U>& mask, const AscendC::SelectWithBytesMaskShapeInfo& info,
                         const loc_t& loc) {
    const char* api = "Select";
    touch(api, loc);
    if constexpr (!(std::is_same_v<T, half> || std::is_same_v<T, float>)) {
        fail("SIM-DTYPE", "Failed to check dtype in Select, current api support dtype combination is half, float", loc,
             "dtype", api);
    }
    uint32_t rows = info.firstAxis, cols = info.srcLastAxis, mcols = info.maskLastAxis;
    if (rows == 0 || cols == 0) return;
    if (mcols < cols) {
        fail("SIM-SELECT-SHAPE", fmt("Select: maskLastAxis %u is smaller than srcLastAxis %u; the mask needs at least "
                                     "one value per source element", mcols, cols), loc, "api_mismatch", api);
    }
    if ((uint64_t(cols) * sizeof(T)) % 32 != 0 || (uint64_t(mcols) * sizeof(U)) % 32 != 0) {
        fail("SIM-SELECT-SHAPE", fmt("Select: the last axes must be 32-byte aligned (srcLastAxis %u x %zu B, "
                                     "maskLastAxis %u x %zu B)", cols, sizeof(T), mcols, sizeof(U)), loc,
             "api_mismatch", api);
    }
    check_local(dst, "dst", api, uint64_t(rows) * cols * sizeof(T), loc);
    check_local(t, tensor_first ? "src0" : "src1", api, uint64_t(rows) * cols * sizeof(T), loc);
    check_local(mask, "mask", api, uint64_t(rows) * mcols * sizeof(U), loc);
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t j = 0; j < cols; ++j) {
            bool zero = mask.addr_[uint64_t(r) * mcols + j] == U(0);
            T tv = t.addr_[uint64_t(r) * cols + j];
            dst.addr_[uint64_t(r) * cols + j] = tensor_first ? (zero ? tv : s) : (zero ? s : tv);
        }
    }
    vec_charge("select", api, double((uint64_t(rows) * cols * sizeof(T) + 255) / 256) * 3, dst.slot_,
               {t.slot_, mask.slot_}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    ::akgen_sim::select_bytes(dst, src0, src1, true, mask, info, loc);
}
template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    ::akgen_sim::select_bytes(dst, src1, src0, false, mask, info, loc);
}
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1,
                                const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                const SelectWithBytesMaskShapeInfo& info, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    ::akgen_sim::select_bytes(dst, src0, src1, true, mask, info, loc);
}
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1,
                                const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                const SelectWithBytesMaskShapeInfo& info, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    ::akgen_sim::select_bytes(dst, src1, src0, false, mask, info, loc);
}

}  // namespace AscendC
