// akgen sim: the debugging dumps that take a shape or an offset: DumpTensor(tensor, desc, dumpSize, shapeInfo) prints
// the data row by row of the shape's last dimension, and DumpAccChkPoint(tensor, index, countOff, dumpSize) the
// dumpSize elements from element countOff on (CANN prints them to the device log; here to stdout). They never change
// data or time; an element past the tensor is not read (the dump stops there, as CANN's checks would).
#pragma once

#include <cstdio>

#include "misc.h"
#include "shape_info.h"

namespace akgen_sim {
template <typename T> inline void dump_values(const T* p, uint64_t n, uint32_t row) {
    for (uint64_t i = 0; i < n; ++i) {
        std::printf("%s%g", i == 0 ? "[" : (row && i % row == 0) ? "]\n[" : ", ",
                    static_cast<double>(static_cast<float>(p[i])));
    }
    std::printf(n ? "]\n" : "[]\n");
}
}  // namespace akgen_sim

namespace AscendC {
template <typename T>
inline void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize, const ShapeInfo& shapeInfo) {
    std::printf("DumpTensor: desc=%u, dump_size=%u, shape=[", desc, dumpSize);
    for (int i = 0; i < shapeInfo.shapeDim; ++i) std::printf("%s%u", i ? ", " : "", shapeInfo.shape[i]);
    std::printf("]\n");
    uint64_t n = dumpSize < t.GetSize() ? dumpSize : t.GetSize();
    ::akgen_sim::dump_values(t.addr_, n, shapeInfo.shapeDim ? shapeInfo.shape[shapeInfo.shapeDim - 1] : 0);
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize, const ShapeInfo& shapeInfo) {
    std::printf("DumpTensor: desc=%u, dump_size=%u, shape=[", desc, dumpSize);
    for (int i = 0; i < shapeInfo.shapeDim; ++i) std::printf("%s%u", i ? ", " : "", shapeInfo.shape[i]);
    std::printf("]\n");
    uint64_t n = t.GetSize() ? (dumpSize < t.GetSize() ? dumpSize : t.GetSize()) : dumpSize;
    ::akgen_sim::dump_values(t.addr_, n, shapeInfo.shapeDim ? shapeInfo.shape[shapeInfo.shapeDim - 1] : 0);
}
template <typename T>
inline void DumpAccChkPoint(const LocalTensor<T>& t, uint32_t index, uint32_t countOff, uint32_t dumpSize) {
    std::printf("DumpAccChkPoint: index=%u, offset=%u, dump_size=%u\n", index, countOff, dumpSize);
    uint64_t size = t.GetSize();
    uint64_t n = countOff >= size ? 0 : (dumpSize < size - countOff ? dumpSize : size - countOff);
    ::akgen_sim::dump_values(t.addr_ + countOff, n, 0);
}
template <typename T>
inline void DumpAccChkPoint(const GlobalTensor<T>& t, uint32_t index, uint32_t countOff, uint32_t dumpSize) {
    std::printf("DumpAccChkPoint: index=%u, offset=%u, dump_size=%u\n", index, countOff, dumpSize);
    uint64_t size = t.GetSize();
    uint64_t n = size == 0 ? dumpSize : countOff >= size ? 0 : (dumpSize < size - countOff ? dumpSize : size - countOff);
    ::akgen_sim::dump_values(t.addr_ + countOff, n, 0);
}
}  // namespace AscendC
