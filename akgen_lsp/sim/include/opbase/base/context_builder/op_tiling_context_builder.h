// akgen sim host side: gert::OpTilingContextBuilder (CANN's base/context_builder/op_tiling_context_builder.h), the
// builder the operator repositories' kernel-UT harness (tests/ut/common/tiling_context_faker.h, ExecuteTiling) makes a
// TilingContext with: the node's type and input/output counts (or instance counts of dynamic inputs), its attributes
// in order, input and output tensors (shape, dtype, format, a const input's values), the compile info and platform
// info objects, a tiling data buffer and a workspace list. Build() gives a ContextHolder that owns the context; the
// harness then calls the op's registered TilingFunc on it (base/registry/op_impl_space_registry_v2.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exe_graph/runtime/tiling_context.h"
#include "op_context_builder_base.h"

namespace gert {

class OpTilingContextBuilder : public OpContextBuilderBase<OpTilingContextBuilder> {
public:
    OpTilingContextBuilder& OpType(const char* type) {
        type_ = type ? type : "";
        return *this;
    }
    OpTilingContextBuilder& OpName(const char* name) {
        name_ = name ? name : "";
        return *this;
    }
    // one instance per IR input/output
    OpTilingContextBuilder& IONum(size_t inputs, size_t outputs) {
        in_num_ = inputs;
        out_num_ = outputs;
        in_inst_.clear();
        out_inst_.clear();
        return *this;
    }
    // instances per IR input/output (a dynamic input's list length; 0: an absent optional input)
    OpTilingContextBuilder& IOInstanceNum(const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs) {
        in_inst_ = inputs;
        out_inst_ = outputs;
        in_num_ = inputs.size();
        out_num_ = outputs.size();
        return *this;
    }
    OpTilingContextBuilder& InputTensors(const std::vector<Tensor*>& tensors) {
        inputs_ = tensors;
        return *this;
    }
    OpTilingContextBuilder& OutputTensors(const std::vector<Tensor*>& tensors) {
        outputs_ = tensors;
        return *this;
    }
    OpTilingContextBuilder& CompileInfo(const void* info) {
        compile_info_ = info;
        return *this;
    }
    OpTilingContextBuilder& PlatformInfo(const void* info) {
        platform_ = static_cast<fe::PlatFormInfos*>(const_cast<void*>(info));
        return *this;
    }
    OpTilingContextBuilder& Deterministic(int32_t on) {
        deterministic_ = on;
        return *this;
    }
    OpTilingContextBuilder& DeterministicLevel(int32_t level) {
        deterministic_level_ = level;
        return *this;
    }
    // the capacity of the tiling data the TilingFunc may write (the context keeps its own buffer of that size)
    OpTilingContextBuilder& TilingData(const gert::TilingData* data) {
        tiling_cap_ = data ? data->GetCapacity() : 0;
        return *this;
    }
    OpTilingContextBuilder& Workspace(const ContinuousVector*) { return *this; }

    ContextHolder<TilingContext> Build() {
        auto ctx = std::make_unique<TilingContext>();
        ctx->name_ = !name_.empty() ? name_ : type_;
        for (size_t i = 0; i < inputs_.size(); ++i) ctx->inputs_.push_back(inputs_[i] ? *inputs_[i] : Tensor());
        for (size_t i = 0; i < outputs_.size(); ++i) ctx->outputs_.push_back(outputs_[i] ? *outputs_[i] : Tensor());
        for (const Tensor& t : ctx->inputs_) ctx->in_desc_.push_back(desc_of(t));
        for (const Tensor& t : ctx->outputs_) ctx->out_desc_.push_back(desc_of(t));
        ctx->ir_in_ = anchors(in_inst_);
        ctx->ir_out_ = anchors(out_inst_);
        ctx->attrs_ = attrs_;
        if (tiling_cap_ > 0) ctx->tiling_.buf_.assign(tiling_cap_, 0);
        ctx->compile_info_ = compile_info_;
        ctx->platform_ = platform_;
        ctx->deterministic_ = deterministic_;
        return ContextHolder<TilingContext>(std::move(ctx));
    }

private:
    static CompileTimeTensorDesc desc_of(const Tensor& t) {
        CompileTimeTensorDesc d;
        d.dtype_ = t.GetDataType();
        return d;
    }
    static std::vector<AnchorInstanceInfo> anchors(const std::vector<uint32_t>& counts) {
        std::vector<AnchorInstanceInfo> out;
        size_t start = 0;
        for (uint32_t n : counts) {
            out.emplace_back(start, n);
            start += n;
        }
        return out;
    }
    std::string type_, name_;
    size_t in_num_ = 0, out_num_ = 0;
    std::vector<uint32_t> in_inst_, out_inst_;
    std::vector<Tensor*> inputs_, outputs_;
    const void* compile_info_ = nullptr;
    fe::PlatFormInfos* platform_ = nullptr;
    int32_t deterministic_ = 0;
    int32_t deterministic_level_ = 0;
    size_t tiling_cap_ = 0;
};

}  // namespace gert
