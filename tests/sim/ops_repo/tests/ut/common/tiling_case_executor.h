// ExecuteTiling: run the op's registered TilingFunc on a context made from a TilingContextPara and hand back what the
// kernel launch needs (tiling key, block count, workspace sizes, the tiling data bytes).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "tiling_context_faker.h"

struct TilingInfo {
    int64_t tilingKey = -1;
    std::vector<int64_t> workspaceSizes;
    std::unique_ptr<uint8_t[]> tilingData;
    size_t tilingDataSize = 0;
    size_t blockNum = 0;
};

bool ExecuteTiling(const gert::TilingContextPara& para, TilingInfo& info);
