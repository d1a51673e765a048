// scale_rows's tiling data: y = x * alpha on the first rowsToScale rows of a rows x cols float matrix, x elsewhere.
#pragma once
#include <cstdint>

struct ScaleRowsTilingData {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsToScale;
    float alpha;
};
