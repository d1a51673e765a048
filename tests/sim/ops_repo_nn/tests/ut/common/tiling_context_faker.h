// The repository's tiling context faker (ours, in the shape of ops-nn's): CANN's tiling context builder and the
// context holder; tensors filled field by field, attributes through the builders' common base.
#pragma once
#include <string>
#include <vector>
#include "kernel_run_context_holder.h"

namespace gert {
class TilingContextFaker : public OpTilingContextBuilder, public KernelRunContextHolder {
public:
    TilingContextFaker& SetOpType(const std::string& type);
    TilingContextFaker& NodeIoNum(size_t inputs, size_t outputs);
    TilingContextFaker& NodeInputTd(size_t index, ge::DataType dtype, ge::Format origin, ge::Format storage,
                                    const std::vector<int64_t>& dims);
    TilingContextFaker& NodeOutputTd(size_t index, ge::DataType dtype, ge::Format origin, ge::Format storage,
                                     const std::vector<int64_t>& dims);
    TilingContextFaker& ConstInput(size_t index, const void* data);
    TilingContextFaker& InputTensors(const std::vector<TensorV2*>& tensors);  // the newer tensor type's overload
    template <typename T> TilingContextFaker& Attr(const std::string&, T value)
    {
        OpContextBuilderBase::AppendAttr(value);
        return *this;
    }
    KernelRunContextHolder Build();
};
}  // namespace gert
