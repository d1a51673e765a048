// akgen sim: the debugging dumps that take a shape or an offset: DumpTensor(tensor, desc, dumpSize, shapeInfo) prints
// the data row by row of the shape's last dimension, and DumpAccChkPoint(tensor, index, countOff, dumpSize) the
// dumpSize elements from element countOff on, in CANN's format (misc.h dump_print; CANN prints them to the device
// log, here to stdout). They never change
// data or time; an element past the tensor is not read (the dump stops there, as CANN's checks would).
#pragma once

#include <cstdio>

#include "misc.h"
#include "shape_info.h"

namespace AscendC {
template <typename T>
inline void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize, const ShapeInfo& shapeInfo) {
    uint64_t n = dumpSize < t.GetSize() ? dumpSize : t.GetSize();
    ::akgen_sim::dump_print(desc, ::akgen_sim::dump_local_addr(t), ::akgen_sim::dump_position(t), t.addr_, n,
                            shapeInfo.shapeDim ? shapeInfo.shape[shapeInfo.shapeDim - 1] : 0);
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize, const ShapeInfo& shapeInfo) {
    uint64_t n = t.GetSize() ? (dumpSize < t.GetSize() ? dumpSize : t.GetSize()) : dumpSize;
    ::akgen_sim::dump_print(desc, reinterpret_cast<uint64_t>(t.addr_), "GM", t.addr_, n,
                            shapeInfo.shapeDim ? shapeInfo.shape[shapeInfo.shapeDim - 1] : 0);
}
// CANN prints a check point as a DumpTensor whose desc is the index, from the element countOff on.
template <typename T>
inline void DumpAccChkPoint(const LocalTensor<T>& t, uint32_t index, uint32_t countOff, uint32_t dumpSize) {
    uint64_t size = t.GetSize();
    uint64_t n = countOff >= size ? 0 : (dumpSize < size - countOff ? dumpSize : size - countOff);
    ::akgen_sim::dump_print(index, ::akgen_sim::dump_local_addr(t, countOff), ::akgen_sim::dump_position(t),
                            t.addr_ + countOff, n);
}
template <typename T>
inline void DumpAccChkPoint(const GlobalTensor<T>& t, uint32_t index, uint32_t countOff, uint32_t dumpSize) {
    uint64_t size = t.GetSize();
    uint64_t n = size == 0 ? dumpSize : countOff >= size ? 0 : (dumpSize < size - countOff ? dumpSize : size - countOff);
    ::akgen_sim::dump_print(index, reinterpret_cast<uint64_t>(t.addr_ + countOff), "GM", t.addr_ + countOff, n);
}
}  // namespace AscendC
