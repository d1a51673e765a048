// akgen bench: just enough of CANN's host side (ge, gert, platform_ascendc, OpDef) to run an op_host TilingFunc on
// the CPU. This is the bench's stand-in until the sim toolchain runs op_host code itself (see
// akgen_lsp/bench/host_tiling.py). OpDef registration is inert data, except that SetTiling remembers the TilingFunc
// and Attr remembers attribute names and defaults so that attributes can be filled by name.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <type_traits>
#include <initializer_list>
#include <string>
#include <vector>

namespace ge {
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
enum DataType : int {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13, DT_COMPLEX64 = 16,
    DT_COMPLEX128 = 17, DT_BF16 = 27, DT_UNDEFINED = 28, DT_MAX = 100
};
enum Format : int { FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2, FORMAT_NC1HWC0 = 3, FORMAT_FRACTAL_Z = 4,
                    FORMAT_FRACTAL_NZ = 29, FORMAT_RESERVED = 40 };
inline int GetSizeByDataType(DataType dt) {
    switch (dt) {
        case DT_FLOAT: case DT_INT32: case DT_UINT32: return 4;
        case DT_FLOAT16: case DT_BF16: case DT_INT16: case DT_UINT16: return 2;
        case DT_INT8: case DT_UINT8: case DT_BOOL: return 1;
        case DT_INT64: case DT_UINT64: case DT_DOUBLE: case DT_COMPLEX64: return 8;
        case DT_COMPLEX128: return 16;
        default: return -1;
    }
}
class AscendString {
public:
    AscendString(const char* s = "") : s_(s ? s : "") {}
    const char* GetString() const { return s_.c_str(); }
private:
    std::string s_;
};
}  // namespace ge

namespace fe { class PlatFormInfos {}; }

namespace gert {
class Shape {
public:
    Shape() = default;
    Shape(std::initializer_list<int64_t> d) : dims_(d) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    void SetDimNum(size_t n) { dims_.resize(n, 1); }
    void SetDim(size_t i, int64_t v) { if (i >= dims_.size()) dims_.resize(i + 1, 1); dims_[i] = v; }
    Shape& AppendDim(int64_t v) { dims_.push_back(v); return *this; }
    int64_t GetShapeSize() const { int64_t n = 1; for (auto d : dims_) n *= d; return n; }
    bool IsScalar() const { return dims_.empty(); }
    int64_t operator[](size_t i) const { return GetDim(i); }
    bool operator==(const Shape& o) const { return dims_ == o.dims_; }
    bool operator!=(const Shape& o) const { return dims_ != o.dims_; }
    std::vector<int64_t> dims_;
};
class StorageShape {
public:
    StorageShape() = default;
    explicit StorageShape(const Shape& s) : origin_(s), storage_(s) {}
    const Shape& GetStorageShape() const { return storage_; }
    const Shape& GetOriginShape() const { return origin_; }
    Shape& MutableStorageShape() { return storage_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape origin_, storage_;
};
class CompileTimeTensorDesc {
public:
    ge::DataType GetDataType() const { return dt_; }
    ge::Format GetStorageFormat() const { return ge::FORMAT_ND; }
    ge::Format GetOriginFormat() const { return ge::FORMAT_ND; }
    ge::DataType dt_ = ge::DT_FLOAT;
};
class Tensor {
public:
    ge::DataType GetDataType() const { return dt_; }
    int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
    const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
    const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
    const Shape& GetShape() const { return shape_.GetStorageShape(); }
    ge::Format GetStorageFormat() const { return ge::FORMAT_ND; }
    ge::Format GetOriginFormat() const { return ge::FORMAT_ND; }
    template <typename T> const T* GetData() const { return nullptr; }
    ge::DataType dt_ = ge::DT_FLOAT;
    StorageShape shape_;
};
template <typename T> class TypedContinuousVector {
public:
    size_t GetSize() const { return v_.size(); }
    const T* GetData() const { return v_.data(); }
    std::vector<T> v_;
};
using ContinuousVector = TypedContinuousVector<int64_t>;
struct AttrValue {
    bool set = false;
    float f = 0;
    int64_t i = 0;
    bool b = false;
    double d = 0;
    std::string s;
    TypedContinuousVector<int64_t> li;
    TypedContinuousVector<float> lf;
};
class RuntimeAttrs {
public:
    size_t GetAttrNum() const { return v_.size(); }
    const AttrValue* at(size_t i) const { return i < v_.size() && v_[i].set ? &v_[i] : nullptr; }
    const float* GetFloat(size_t i) const { auto a = at(i); return a ? &a->f : nullptr; }
    const int64_t* GetInt(size_t i) const { auto a = at(i); return a ? &a->i : nullptr; }
    const bool* GetBool(size_t i) const { auto a = at(i); return a ? &a->b : nullptr; }
    const char* GetStr(size_t i) const { auto a = at(i); return a ? a->s.c_str() : nullptr; }
    const TypedContinuousVector<int64_t>* GetListInt(size_t i) const { auto a = at(i); return a ? &a->li : nullptr; }
    const TypedContinuousVector<float>* GetListFloat(size_t i) const { auto a = at(i); return a ? &a->lf : nullptr; }
    template <typename T> const T* GetAttrPointer(size_t i) const {
        auto a = at(i);
        if (!a) return nullptr;
        if constexpr (std::is_same_v<T, float>) return &a->f;
        else if constexpr (std::is_same_v<T, double>) return &a->d;
        else if constexpr (std::is_same_v<T, bool>) return &a->b;
        else if constexpr (std::is_same_v<T, char>) return a->s.c_str();
        else if constexpr (std::is_same_v<T, TypedContinuousVector<int64_t>>) return &a->li;
        else if constexpr (std::is_same_v<T, TypedContinuousVector<float>>) return &a->lf;
        else if constexpr (std::is_integral_v<T> && sizeof(T) == 8) return reinterpret_cast<const T*>(&a->i);
        else { static thread_local T tmp; tmp = static_cast<T>(a->i); return &tmp; }
    }
    std::vector<AttrValue> v_;
};
class TilingData {
public:
    void* GetData() { return buf_; }
    size_t GetCapacity() const { return sizeof(buf_); }
    void SetDataSize(size_t n) { size_ = n; }
    size_t GetDataSize() const { return size_; }
    alignas(8) uint8_t buf_[65536] = {};
    size_t size_ = 0;
};

class TilingContext {
public:
    const StorageShape* GetInputShape(size_t i) const { return i < in_.size() ? &in_[i].shape_ : nullptr; }
    const StorageShape* GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
    const StorageShape* GetDynamicInputShape(size_t i, size_t j) const { return GetInputShape(i + j); }
    const StorageShape* GetOutputShape(size_t i) const { return i < out_.size() ? &out_[i].shape_ : nullptr; }
    const Tensor* GetInputTensor(size_t i) const { return i < in_.size() ? &in_[i] : nullptr; }
    const Tensor* GetOptionalInputTensor(size_t i) const { return GetInputTensor(i); }
    const Tensor* GetDynamicInputTensor(size_t i, size_t j) const { return GetInputTensor(i + j); }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return i < in_desc_.size() ? &in_desc_[i] : nullptr; }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t i) const { return GetInputDesc(i); }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t i, size_t j) const { return GetInputDesc(i + j); }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const { return i < out_desc_.size() ? &out_desc_[i] : nullptr; }
    size_t GetComputeNodeInputNum() const { return in_.size(); }
    size_t GetComputeNodeOutputNum() const { return out_.size(); }
    const RuntimeAttrs* GetAttrs() const { return &attrs_; }
    fe::PlatFormInfos* GetPlatformInfo() const { return nullptr; }
    const char* GetNodeName() const { return name_.c_str(); }
    const char* GetNodeType() const { return name_.c_str(); }
    ge::graphStatus SetBlockDim(uint32_t n) { block_dim_ = n; return ge::GRAPH_SUCCESS; }
    uint32_t GetBlockDim() const { return block_dim_; }
    ge::graphStatus SetTilingKey(uint64_t k) { tiling_key_ = k; return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const { return tiling_key_; }
    ge::graphStatus SetScheduleMode(uint32_t) { return ge::GRAPH_SUCCESS; }
    ge::graphStatus SetNeedAtomic(bool) { return ge::GRAPH_SUCCESS; }
    TilingData* GetRawTilingData() { return &tiling_; }
    size_t* GetWorkspaceSizes(size_t n) { if (ws_.size() < n) ws_.resize(n, 0); return ws_.data(); }
    size_t GetWorkspaceNum() const { return ws_.size(); }
    template <typename T> const T* GetCompileInfo() const { return nullptr; }
    const void* GetCompileInfo() const { return nullptr; }
    std::vector<Tensor> in_, out_;
    std::vector<CompileTimeTensorDesc> in_desc_, out_desc_;
    RuntimeAttrs attrs_;
    std::string name_ = "op";
    uint32_t block_dim_ = 0;
    uint64_t tiling_key_ = 0;
    TilingData tiling_;
    std::vector<size_t> ws_;
};
class InferShapeContext {
public:
    const Shape* GetInputShape(size_t) const { return nullptr; }
    const Shape* GetOptionalInputShape(size_t) const { return nullptr; }
    const Shape* GetDynamicInputShape(size_t, size_t) const { return nullptr; }
    Shape* GetOutputShape(size_t) { return nullptr; }
    const Tensor* GetInputTensor(size_t) const { return nullptr; }
    const RuntimeAttrs* GetAttrs() const { return nullptr; }
    const char* GetNodeName() const { return "op"; }
    size_t GetComputeNodeInputNum() const { return 0; }
};
class InferDataTypeContext {
public:
    ge::DataType GetInputDataType(size_t) const { return ge::DT_FLOAT; }
    ge::DataType GetOptionalInputDataType(size_t) const { return ge::DT_FLOAT; }
    ge::DataType GetDynamicInputDataType(size_t, size_t) const { return ge::DT_FLOAT; }
    ge::graphStatus SetOutputDataType(size_t, ge::DataType) { return ge::GRAPH_SUCCESS; }
    const RuntimeAttrs* GetAttrs() const { return nullptr; }
    const char* GetNodeName() const { return "op"; }
};
class InferShapeRangeContext {};
class TilingParseContext {};
using OpImplRegisterFunc = ge::graphStatus (*)(TilingContext*);
}  // namespace gert

namespace akgen_bench_host {
using TilingFn = ge::graphStatus (*)(gert::TilingContext*);
inline TilingFn& tiling_fn() { static TilingFn f = nullptr; return f; }
struct AttrDecl { std::string name; gert::AttrValue def; };
inline std::vector<AttrDecl>& attr_decls() { static std::vector<AttrDecl> v; return v; }
}  // namespace akgen_bench_host
