// clamp_scale's tiling data: y = x * scale on the first min(total, limit) elements, in tiles of tileLength.
#pragma once
#include <cstdint>

struct ClampScaleTilingData {
    uint32_t total;
    uint32_t limit;
    uint32_t tileLength;
    float scale;
};
