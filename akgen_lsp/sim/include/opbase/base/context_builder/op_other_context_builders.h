// akgen sim host side: the context builders of CANN's base/context_builder/ besides the tiling one (tiling-parse,
// infer-shape, infer-shape-range, infer-datatype), as far as an operator repository's kernel-UT harness needs them:
// ops-nn's tests/ut/common/kernel_run_context_holder.h holds one ContextHolder of each kind, and its fakers derive
// from these builders. A kernel UT builds only the tiling context (ExecuteTiling); these build empty contexts of
// their kind with the op's type, input/output counts and attributes, which the simulator's InferShape path does
// not use (it runs the op's InferShape from the op definition: akgen_sim/host).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "op_context_builder_base.h"

namespace gert {

// A [min, max] pair of pointers (a shape range, a tensor range), as gert::Range names it.
template <typename T> class Range {
public:
    Range() = default;
    Range(T* min, T* max) : min_(min), max_(max) {}
    const T* GetMin() const { return min_; }
    const T* GetMax() const { return max_; }
    T* GetMin() { return min_; }
    T* GetMax() { return max_; }
    void SetMin(T* v) { min_ = v; }
    void SetMax(T* v) { max_ = v; }

private:
    T* min_ = nullptr;
    T* max_ = nullptr;
};

// The op's InferShapeRange context: the inputs' and outputs' shape ranges.
class InferShapeRangeContext : public ExtendedKernelContext {
public:
    std::vector<Range<Shape>> inputs_, outputs_;
};

// The common part: op type and name, input/output counts; Build() makes an empty context of the kind.
template <typename Derived, typename Context> class OpSimpleContextBuilder : public OpContextBuilderBase<Derived> {
public:
    Derived& OpType(const char* type) {
        type_ = type ? type : "";
        return self();
    }
    Derived& OpName(const char* name) {
        name_ = name ? name : "";
        return self();
    }
    Derived& IONum(size_t inputs, size_t outputs) {
        in_inst_.assign(inputs, 1);
        out_inst_.assign(outputs, 1);
        return self();
    }
    Derived& IOInstanceNum(const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs) {
        in_inst_ = inputs;
        out_inst_ = outputs;
        return self();
    }
    ContextHolder<Context> Build() { return ContextHolder<Context>(std::make_unique<Context>()); }

protected:
    Derived& self() { return static_cast<Derived&>(*this); }
    std::string type_, name_;
    std::vector<uint32_t> in_inst_, out_inst_;
};

class OpTilingParseContextBuilder : public OpSimpleContextBuilder<OpTilingParseContextBuilder, TilingParseContext> {
public:
    OpTilingParseContextBuilder& CompileJson(const char*) { return *this; }
    OpTilingParseContextBuilder& PlatformInfo(void*) { return *this; }
    OpTilingParseContextBuilder& CompileInfoCreatorFunc(void*) { return *this; }
    OpTilingParseContextBuilder& CompileInfoDeleterFunc(void*) { return *this; }
};
class OpInferShapeContextBuilder : public OpSimpleContextBuilder<OpInferShapeContextBuilder, InferShapeContext> {
public:
    OpInferShapeContextBuilder& InputTensors(const std::vector<Tensor*>&) { return *this; }
    OpInferShapeContextBuilder& OutputShapes(const std::vector<StorageShape*>&) { return *this; }
};
class OpInferShapeRangeContextBuilder
    : public OpSimpleContextBuilder<OpInferShapeRangeContextBuilder, InferShapeRangeContext> {};
class OpInferDataTypeContextBuilder
    : public OpSimpleContextBuilder<OpInferDataTypeContextBuilder, InferDataTypeContext> {
public:
    OpInferDataTypeContextBuilder& InputDataTypes(const std::vector<ge::DataType*>&) { return *this; }
    OpInferDataTypeContextBuilder& OutputDataTypes(const std::vector<ge::DataType*>&) { return *this; }
};

}  // namespace gert
