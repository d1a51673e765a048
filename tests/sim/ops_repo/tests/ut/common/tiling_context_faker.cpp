#include "tiling_context_faker.h"

namespace gert {
TilingContextFaker& TilingContextFaker::SetOpType(const std::string& type)
{
    OpType(type.c_str()).OpName(type.c_str());
    return *this;
}
TilingContextFaker& TilingContextFaker::NodeIoNum(size_t inputs, size_t outputs)
{
    IONum(inputs, outputs);
    return *this;
}
}  // namespace gert
