// The repository's tiling harness (our own, in the shape of ops-math's tests/ut/common): a test describes the op's
// tensors and compile info in a TilingContextPara; the faker is CANN's tiling context builder with the names the
// cases use.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "op_tiling_context_builder.h"

namespace gert {

class TilingContextPara {
public:
    struct TensorDescription {
        TensorDescription(const gert::StorageShape& shape, ge::DataType dtype, ge::Format format)
            : shape_(shape), dtype_(dtype), format_(format) {}
        gert::StorageShape shape_;
        ge::DataType dtype_;
        ge::Format format_;
    };
    TilingContextPara(const std::string& opName, const std::vector<TensorDescription>& inputs,
                      const std::vector<TensorDescription>& outputs, void* compileInfo = nullptr)
        : opName_(opName), inputs_(inputs), outputs_(outputs), compileInfo_(compileInfo) {}
    std::string opName_;
    std::vector<TensorDescription> inputs_, outputs_;
    void* compileInfo_;
};

class TilingContextFaker : public OpTilingContextBuilder {
public:
    TilingContextFaker& SetOpType(const std::string& type);
    TilingContextFaker& NodeIoNum(size_t inputs, size_t outputs);
};

}  // namespace gert
