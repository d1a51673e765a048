// The tiling data of axpb: the element count of each block and the coefficients of y = a * x + b.
#pragma once
#include <cstdint>

struct AxpbTilingData {
    uint32_t blockLength;
    uint32_t tileLength;
    float a;
    float b;
};
