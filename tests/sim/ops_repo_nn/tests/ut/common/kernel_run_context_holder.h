// The repository's context holder (ours, in the shape of ops-nn's tests/ut/common/kernel_run_context_holder.h): one
// holder of each context kind CANN's builders make, kept alive with the tensors the context points to.
#pragma once
#include <string>
#include <utility>
#include <vector>
#include "op_tiling_parse_context_builder.h"
#include "op_tiling_context_builder.h"
#include "op_infer_shape_context_builder.h"
#include "op_infer_shape_range_context_builder.h"
#include "op_infer_datatype_context_builder.h"

namespace gert {
class KernelRunContextHolder {
public:
    KernelRunContextHolder() = default;
    KernelRunContextHolder(KernelRunContextHolder&&) = default;
    KernelRunContextHolder& operator=(KernelRunContextHolder&&) = default;
    template <typename T> T* GetContext() { return static_cast<T*>(context_); }

protected:
    void* context_ = nullptr;
    std::vector<Tensor> inputTensors_, outputTensors_;
    std::vector<Range<Tensor>> inputTensorRanges_;
    std::vector<uint32_t> inputInstanceNum_, outputInstanceNum_;
    ContextHolder<TilingContext> tilingContextHolder_;
    ContextHolder<TilingParseContext> tilingParseContextHolder_;
    ContextHolder<InferShapeContext> inferShapeContextHolder_;
    ContextHolder<InferShapeRangeContext> inferShapeRangeContextHolder_;
    ContextHolder<InferDataTypeContext> inferDataTypeContextHolder_;
};
}  // namespace gert
