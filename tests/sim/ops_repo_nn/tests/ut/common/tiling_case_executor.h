// ExecuteTiling (ours, in the shape of ops-nn's tests/ut/common/tiling_case_executor.h): the op's registered
// TilingFunc on a context the faker builds; what the launch needs comes back.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "tiling_context_faker.h"

struct ScaleRowsCase {
    std::string opName;
    std::vector<int64_t> dims;
    float alpha;
    const int64_t* rowsToScale;  // a const input's value
    void* compileInfo;
};

struct TilingInfo {
    int64_t tilingKey = -1;
    size_t blockNum = 0;
    std::vector<uint8_t> tilingData;
};

bool ExecuteTiling(const ScaleRowsCase& c, TilingInfo& info);
