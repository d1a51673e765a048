// The tiling data of twice, written by its TilingFunc (op_host/twice_tiling.cpp).
#pragma once
#include <cstdint>

struct TwiceTilingData {
    uint32_t blockLength;
    uint32_t tileLength;
};
