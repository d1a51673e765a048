// akgen sim host side: OpDef registration as inert data. OP_ADD records the op's inputs, outputs, attributes (in
// declaration order, which is the index order of TilingContext::GetAttrs) and its TilingFunc for the host runner.
#pragma once

#include <deque>
#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "graph.h"
#include "tiling_context.h"

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3 };
enum class AttrType { OPTIONAL = 0, REQUIRED = 1 };
using TilingFunc = ge::graphStatus (*)(gert::TilingContext*);
// The op's shape and dtype inference (any callable of these signatures; one of another signature is ignored).
using InferShapeFunc = std::function<ge::graphStatus(gert::InferShapeContext*)>;
using InferDataTypeFunc = std::function<ge::graphStatus(gert::InferDataTypeContext*)>;
template <typename F> InferShapeFunc infer_shape_func(F f) {
    if constexpr (std::is_invocable_r_v<ge::graphStatus, F, gert::InferShapeContext*>) return InferShapeFunc(f);
    else return nullptr;
}
template <typename F> InferDataTypeFunc infer_dtype_func(F f) {
    if constexpr (std::is_invocable_r_v<ge::graphStatus, F, gert::InferDataTypeContext*>) return InferDataTypeFunc(f);
    else return nullptr;
}

struct OpInfo {
    std::string name;
    std::vector<std::string> inputs, outputs, attrs;
    std::vector<gert::AttrValue> attr_defaults;
    TilingFunc tiling = nullptr;
    InferShapeFunc infer_shape;
    InferDataTypeFunc infer_dtype;
};

inline std::vector<OpInfo>& op_registry() { static std::vector<OpInfo> r; return r; }

class OpParamDef {
public:
    OpParamDef& ParamType(Option) { return *this; }
    OpParamDef& DataType(std::vector<ge::DataType>) { return *this; }
    OpParamDef& DataTypeList(std::vector<ge::DataType>) { return *this; }
    OpParamDef& Format(std::vector<ge::Format>) { return *this; }
    OpParamDef& FormatList(std::vector<ge::Format>) { return *this; }
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format>) { return *this; }
    OpParamDef& ValueDepend(Option) { return *this; }
    OpParamDef& AutoContiguous() { return *this; }
    OpParamDef& IgnoreContiguous() { return *this; }
    OpParamDef& Scalar() { return *this; }
    OpParamDef& ScalarList() { return *this; }
    OpParamDef& To(const char*) { return *this; }
    OpParamDef& To(ge::DataType) { return *this; }
    OpParamDef& InitValue(uint64_t) { return *this; }
    OpParamDef& Follow(const char*) { return *this; }
    OpParamDef& OutputShapeDependOnCompute() { return *this; }
};

class OpAttrDef {
public:
    explicit OpAttrDef(gert::AttrValue* v) : v_(v) {}
    OpAttrDef& AttrType(Option) { return *this; }
    OpAttrDef& Int(int64_t x = 0) { v_->kind = gert::AttrValue::INT; v_->i = x; return *this; }
    OpAttrDef& Float(float x = 0) { v_->kind = gert::AttrValue::FLOAT; v_->f = x; return *this; }
    OpAttrDef& Bool(bool x = false) { v_->kind = gert::AttrValue::BOOL; v_->b = x; return *this; }
    OpAttrDef& String(const char* x = "") { v_->kind = gert::AttrValue::STR; v_->s = x; return *this; }
    OpAttrDef& ListInt(std::vector<int64_t> x = {}) {
        v_->kind = gert::AttrValue::LIST_INT;
        v_->li.v_ = x;
        return *this;
    }
    OpAttrDef& ListFloat(std::vector<float> x = {}) {
        v_->kind = gert::AttrValue::LIST_FLOAT;
        v_->lf.v_ = x;
        return *this;
    }
    OpAttrDef& Comment(const char*) { return *this; }

private:
    gert::AttrValue* v_;
};

class OpAICoreConfig {
public:
    OpAICoreConfig() = default;
    explicit OpAICoreConfig(const char*) {}
    OpParamDef& Input(const char*) { static OpParamDef p; return p; }
    OpParamDef& Output(const char*) { static OpParamDef p; return p; }
    OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
    OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
    OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
    OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
    OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
    OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
    OpAICoreConfig& ExtendCfgInfo(const char*, const char*) { return *this; }
};

class OpAICoreDef {
public:
    explicit OpAICoreDef(OpInfo* info) : info_(info) {}
    OpAICoreDef& SetTiling(TilingFunc f) { info_->tiling = f; return *this; }
    template <typename F> OpAICoreDef& SetTilingParse(F f) {
        akgen_sim::host::compile_info_state().parse = [f]() {
            gert::TilingParseContext ctx;
            return f(&ctx) == ge::GRAPH_SUCCESS;
        };
        return *this;
    }
    template <typename F> OpAICoreDef& SetCheckSupport(F) { return *this; }
    template <typename F> OpAICoreDef& SetOpSelectFormat(F) { return *this; }
    OpAICoreDef& AddConfig(const char*) { return *this; }
    OpAICoreDef& AddConfig(const char*, OpAICoreConfig&) { return *this; }

private:
    OpInfo* info_;
};

class OpDef {
public:
    explicit OpDef(const char* name) : aicore_(&info_) { info_.name = name; }
    OpParamDef& Input(const char* name) { info_.inputs.push_back(name); params_.emplace_back(); return params_.back(); }
    OpParamDef& Output(const char* name) { info_.outputs.push_back(name); params_.emplace_back(); return params_.back(); }
    OpAttrDef& Attr(const char* name) {
        info_.attrs.push_back(name);
        defaults_.emplace_back();
        attr_defs_.emplace_back(&defaults_.back());
        return attr_defs_.back();
    }
    template <typename F> OpDef& SetInferShape(F f) { info_.infer_shape = infer_shape_func(f); return *this; }
    template <typename F> OpDef& SetInferShapeRange(F) { return *this; }
    template <typename F> OpDef& SetInferDataType(F f) { info_.infer_dtype = infer_dtype_func(f); return *this; }
    OpAICoreDef& AICore() { return aicore_; }
    OpAICoreDef& MC2() { return aicore_; }
    void Register() {
        info_.attr_defaults.assign(defaults_.begin(), defaults_.end());
        op_registry().push_back(info_);
    }
    OpInfo info_;

private:
    std::deque<OpParamDef> params_;
    std::deque<OpAttrDef> attr_defs_;
    std::deque<gert::AttrValue> defaults_;
    OpAICoreDef aicore_;
};

template <typename T> struct OpRegistrar {
    explicit OpRegistrar(const char* name) {
        static T op(name);
        op.Register();
    }
};

// IMPL_OP_OPTILING(Op).Tiling(f) / IMPL_OP_INFERSHAPE(Op).InferShape(f): the other way to register a TilingFunc.
struct ImplOp {
    std::string name;
    TilingFunc tiling = nullptr;
    InferShapeFunc infer_shape;
    InferDataTypeFunc infer_dtype;
    ImplOp& Tiling(TilingFunc f) { tiling = f; return *this; }
    // TilingParse<CompileInfo>(parse): the compile info object and the function that fills it (compile_info.h).
    template <typename... T, typename F> ImplOp& TilingParse(F f) {
        if constexpr (sizeof...(T) == 1) (akgen_sim::host::compile_info_object<T>(), ...);
        akgen_sim::host::compile_info_state().parse = [f]() {
            gert::TilingParseContext ctx;
            return f(&ctx) == ge::GRAPH_SUCCESS;
        };
        return *this;
    }
    template <typename F> ImplOp& InferShape(F f) { infer_shape = infer_shape_func(f); return *this; }
    template <typename F> ImplOp& InferDataType(F f) { infer_dtype = infer_dtype_func(f); return *this; }
    template <typename F> ImplOp& InferShapeRange(F) { return *this; }
    template <typename... A> ImplOp& InputsDataDependency(A...) { return *this; }
    template <typename... A> ImplOp& TilingInputsDataDependency(A...) { return *this; }
    // ...({1}): a braced list of input indices (the values the TilingFunc reads are always given here).
    ImplOp& InputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    ImplOp& TilingInputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    template <typename... A> ImplOp& PrivateAttr(A...) { return *this; }
};
inline std::deque<ImplOp>& impl_registry() { static std::deque<ImplOp> r; return r; }
inline ImplOp& impl_op(const char* name) {
    for (ImplOp& o : impl_registry()) {
        if (o.name == name) return o;
    }
    impl_registry().push_back(ImplOp{name, nullptr, nullptr, nullptr});
    return impl_registry().back();
}

}  // namespace ops

// Host entry points with C linkage (metadef's macro), e.g. `ASCENDC_EXTERN_C ge::graphStatus TilingForOp(...)`.
#ifndef ASCENDC_EXTERN_C
#define ASCENDC_EXTERN_C extern "C"
#endif

#define AKGEN_CAT2(a, b) a##b
#define AKGEN_CAT(a, b) AKGEN_CAT2(a, b)
#define IMPL_OP_OPTILING(op) [[maybe_unused]] static ::ops::ImplOp& AKGEN_CAT(akgen_impl_op_, __COUNTER__) = ::ops::impl_op(#op)
#define IMPL_OP_INFERSHAPE(op) [[maybe_unused]] static ::ops::ImplOp& AKGEN_CAT(akgen_impl_op_, __COUNTER__) = ::ops::impl_op(#op)
#define IMPL_OP(op) [[maybe_unused]] static ::ops::ImplOp& AKGEN_CAT(akgen_impl_op_, __COUNTER__) = ::ops::impl_op(#op)

#define OP_ADD(opType, ...) static ::ops::OpRegistrar<opType> g_akgen_op_registrar_##opType(#opType)
