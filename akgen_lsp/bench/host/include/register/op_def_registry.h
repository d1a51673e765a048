// akgen bench: OpDef registration as inert data (see akgen_bench_host.h).
#pragma once
#include "../akgen_bench_host.h"
#include "register/tilingdata_base.h"

namespace ops {
enum Option { REQUIRED = 0, OPTIONAL = 1, DYNAMIC = 2, IGNORE = 3 };
enum class DependScope { ALL = 0, TILING = 1 };
enum class FollowType { ALL = 0, DTYPE = 1, FORMAT = 2, SHAPE = 3 };
class OpParamDef {
public:
    OpParamDef& ParamType(Option) { return *this; }
    OpParamDef& DataType(std::vector<ge::DataType>) { return *this; }
    OpParamDef& DataTypeList(std::vector<ge::DataType>) { return *this; }
    OpParamDef& Format(std::vector<ge::Format>) { return *this; }
    OpParamDef& FormatList(std::vector<ge::Format>) { return *this; }
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format>) { return *this; }
    OpParamDef& ValueDepend(Option) { return *this; }
    OpParamDef& ValueDepend(Option, DependScope) { return *this; }
    OpParamDef& AutoContiguous() { return *this; }
    OpParamDef& IgnoreContiguous() { return *this; }
    OpParamDef& Scalar() { return *this; }
    OpParamDef& ScalarList() { return *this; }
    OpParamDef& To(ge::DataType) { return *this; }
    OpParamDef& To(const char*) { return *this; }
    OpParamDef& Follow(const char*) { return *this; }
    OpParamDef& Follow(const char*, FollowType) { return *this; }
    OpParamDef& OutputShapeDependOnCompute() { return *this; }
    OpParamDef& InitValue(uint64_t) { return *this; }
    OpParamDef& InitValue(double) { return *this; }
    OpParamDef& Comment(const char*) { return *this; }
};
class OpAttrDef {
public:
    explicit OpAttrDef(size_t idx) : idx_(idx) {}
    gert::AttrValue& d() { return akgen_bench_host::attr_decls()[idx_].def; }
    OpAttrDef& AttrType(Option) { return *this; }
    OpAttrDef& Float(float v) { d().set = true; d().f = v; d().d = v; d().i = static_cast<int64_t>(v); return *this; }
    OpAttrDef& Int(int64_t v) { d().set = true; d().i = v; d().f = static_cast<float>(v); d().d = static_cast<double>(v); return *this; }
    OpAttrDef& Bool(bool v) { d().set = true; d().b = v; d().i = v; return *this; }
    OpAttrDef& String(const char* v) { d().set = true; d().s = v; return *this; }
    OpAttrDef& ListInt(std::vector<int64_t> v) { d().set = true; d().li.v_ = v; return *this; }
    OpAttrDef& ListFloat(std::vector<float> v) { d().set = true; d().lf.v_ = v; return *this; }
    OpAttrDef& ListBool(std::vector<bool>) { return *this; }
    OpAttrDef& Float() { return *this; }
    OpAttrDef& Int() { return *this; }
    OpAttrDef& Bool() { return *this; }
    OpAttrDef& String() { return *this; }
    OpAttrDef& ListInt() { return *this; }
    OpAttrDef& ListFloat() { return *this; }
    OpAttrDef& Comment(const char*) { return *this; }
    size_t idx_;
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
    OpAICoreDef& SetTiling(akgen_bench_host::TilingFn f) { akgen_bench_host::tiling_fn() = f; return *this; }
    template <typename F> OpAICoreDef& SetTilingParse(F) { return *this; }
    template <typename F> OpAICoreDef& SetCheckSupport(F) { return *this; }
    template <typename F> OpAICoreDef& SetOpSelectFormat(F) { return *this; }
    OpAICoreDef& AddConfig(const char*) { return *this; }
    OpAICoreDef& AddConfig(const char*, OpAICoreConfig&) { return *this; }
};
class OpMC2Def { public: OpMC2Def& HcclGroup(const char*) { return *this; } };
class OpDef {
public:
    explicit OpDef(const char* name) : name_(name) {}
    OpParamDef& Input(const char*) { params_.emplace_back(); return params_.back(); }
    OpParamDef& Output(const char*) { params_.emplace_back(); return params_.back(); }
    OpAttrDef& Attr(const char* name) {
        akgen_bench_host::attr_decls().push_back({name, {}});
        attrs_.emplace_back(akgen_bench_host::attr_decls().size() - 1);
        return attrs_.back();
    }
    template <typename F> OpDef& SetInferShape(F) { return *this; }
    template <typename F> OpDef& SetInferShapeRange(F) { return *this; }
    template <typename F> OpDef& SetInferDataType(F) { return *this; }
    OpAICoreDef& AICore() { return aicore_; }
    OpMC2Def& MC2() { return mc2_; }
    std::string name_;
    std::vector<OpParamDef> params_;
    std::vector<OpAttrDef> attrs_;
    OpAICoreDef aicore_;
    OpMC2Def mc2_;
};
}  // namespace ops

#define OP_ADD(opType, ...) static opType g_akgen_op_##opType(#opType)
