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

namespace gert {

// Owns a built context; GetContext() stays valid while the holder lives (it may be moved).
template <typename T> class ContextHolder {
public:
    ContextHolder() = default;
    explicit ContextHolder(std::unique_ptr<T> ctx) : ctx_(std::move(ctx)) {}
    T* GetContext() const { return ctx_.get(); }
    T* operator->() const { return ctx_.get(); }

private:
    std::unique_ptr<T> ctx_;
};

class OpTilingContextBuilder {
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
    // the capacity of the tiling data the TilingFunc may write (the context keeps its own buffer of that size)
    OpTilingContextBuilder& TilingData(const gert::TilingData* data) {
        tiling_cap_ = data ? data->GetCapacity() : 0;
        return *this;
    }
    OpTilingContextBuilder& Workspace(const ContinuousVector*) { return *this; }

    // Attributes in the order of the op's definition (GetAttrs()->GetAttrPointer<T>(i) reads the i-th).
    OpTilingContextBuilder& AppendAttr(bool v) { return add([&](AttrValue& a) { a.kind = AttrValue::BOOL; a.b = v; a.i = v; }); }
    OpTilingContextBuilder& AppendAttr(int64_t v) { return add([&](AttrValue& a) { a.kind = AttrValue::INT; a.i = v; }); }
    OpTilingContextBuilder& AppendAttr(float v) { return add([&](AttrValue& a) { a.kind = AttrValue::FLOAT; a.f = v; }); }
    OpTilingContextBuilder& AppendAttr(const ge::AscendString& v) {
        return add([&](AttrValue& a) { a.kind = AttrValue::STR; a.s = v.GetString(); });
    }
    OpTilingContextBuilder& AppendAttr(const std::vector<int64_t>& v) {
        return add([&](AttrValue& a) { a.kind = AttrValue::LIST_INT; a.li.v_ = v; });
    }
    // a list of bools is read back as int64 values here (0 / 1)
    OpTilingContextBuilder& AppendAttr(const std::vector<bool>& v) {
        return add([&](AttrValue& a) { a.kind = AttrValue::LIST_INT; a.li.v_.assign(v.begin(), v.end()); });
    }
    OpTilingContextBuilder& AppendAttr(const std::vector<float>& v) {
        return add([&](AttrValue& a) { a.kind = AttrValue::LIST_FLOAT; a.lf.v_ = v; });
    }
    // a list of strings: the first one is what GetStr answers (no list-of-strings reader here)
    OpTilingContextBuilder& AppendAttr(const std::vector<ge::AscendString>& v) {
        return add([&](AttrValue& a) { a.kind = AttrValue::STR; a.s = v.empty() ? "" : v.front().GetString(); });
    }
    // a list of int lists: flattened into one int list (no nested-list reader here)
    OpTilingContextBuilder& AppendAttr(const std::vector<std::vector<int64_t>>& v) {
        return add([&](AttrValue& a) {
            a.kind = AttrValue::LIST_INT;
            for (const auto& row : v) a.li.v_.insert(a.li.v_.end(), row.begin(), row.end());
        });
    }

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
    template <typename F> OpTilingContextBuilder& add(F fill) {
        attrs_.v_.emplace_back();
        fill(attrs_.v_.back());
        return *this;
    }
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
    RuntimeAttrs attrs_;
    const void* compile_info_ = nullptr;
    fe::PlatFormInfos* platform_ = nullptr;
    int32_t deterministic_ = 0;
    size_t tiling_cap_ = 0;
};

}  // namespace gert
