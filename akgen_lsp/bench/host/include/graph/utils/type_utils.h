// akgen bench: graph/utils/type_utils.h on the CPU (only what op_host tiling code uses).
#pragma once
#include <string>
#include "../../akgen_bench_host.h"
namespace ge {
class TypeUtils {
public:
    static std::string DataTypeToSerialString(DataType dt) { return std::to_string(static_cast<int>(dt)); }
};
}  // namespace ge
