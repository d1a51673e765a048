// akgen sim host side: the gert::TilingContext subset a TilingFunc uses (shapes, dtypes, attributes, block dim,
// tiling key, raw tiling buffer, workspace sizes), filled by the host runner from the manifest.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "graph.h"

namespace fe { class PlatFormInfos {}; }

namespace gert {

class Shape {
public:
    Shape() = default;
    Shape(std::initializer_list<int64_t> d) : dims_(d) {}
    explicit Shape(std::vector<int64_t> d) : dims_(std::move(d)) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    void SetDim(size_t i, int64_t v) { if (i < dims_.size()) dims_[i] = v; }
    void SetDimNum(size_t n) { dims_.resize(n, 1); }
    void AppendDim(int64_t v) { dims_.push_back(v); }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }
    bool IsScalar() const { return dims_.empty(); }
    int64_t operator[](size_t i) const { return GetDim(i); }
    bool operator==(const Shape& o) const { return dims_ == o.dims_; }
    const std::vector<int64_t>& GetDims() const { return dims_; }
    bool operator!=(const Shape& o) const { return dims_ != o.dims_; }
    std::vector<int64_t>::const_iterator begin() const { return dims_.begin(); }
    std::vector<int64_t>::const_iterator end() const { return dims_.end(); }

private:
    std::vector<int64_t> dims_;
};

class StorageShape {
public:
    StorageShape() = default;
    explicit StorageShape(Shape s) : origin_(s), storage_(s) {}
    const Shape& GetOriginShape() const { return origin_; }
    const Shape& GetStorageShape() const { return storage_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape& MutableStorageShape() { return storage_; }
    bool operator==(const StorageShape& o) const { return origin_ == o.origin_ && storage_ == o.storage_; }
    bool operator!=(const StorageShape& o) const { return !(*this == o); }

private:
    Shape origin_, storage_;
};

class CompileTimeTensorDesc {
public:
    ge::DataType GetDataType() const { return dtype_; }
    ge::Format GetOriginFormat() const { return ge::FORMAT_ND; }
    ge::Format GetStorageFormat() const { return ge::FORMAT_ND; }
    ge::DataType dtype_ = ge::DT_FLOAT;
};

class Tensor {
public:
    ge::DataType GetDataType() const { return dtype_; }
    const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
    const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
    int64_t GetShapeSize() const { return shape_.GetOriginShape().GetShapeSize(); }
    template <typename T> const T* GetData() const { return nullptr; }
    ge::DataType dtype_ = ge::DT_FLOAT;
    StorageShape shape_;
};

class TilingData {
public:
    void* GetData() { return buf_.data(); }
    size_t GetCapacity() const { return buf_.size(); }
    void SetDataSize(size_t n) { size_ = n; }
    size_t GetDataSize() const { return size_; }
    std::vector<uint8_t> buf_ = std::vector<uint8_t>(64 * 1024, 0);
    size_t size_ = 0;
};

template <typename T> class TypedContinuousVector {
public:
    size_t GetSize() const { return v_.size(); }
    const T* GetData() const { return v_.data(); }
    std::vector<T> v_;
};
using ContinuousVector = TypedContinuousVector<int64_t>;

struct AttrValue {
    enum Kind { INT, FLOAT, BOOL, STR, LIST_INT, LIST_FLOAT } kind = INT;
    int64_t i = 0;
    float f = 0;
    bool b = false;
    std::string s;
    TypedContinuousVector<int64_t> li;
    TypedContinuousVector<float> lf;
};

class RuntimeAttrs {
public:
    template <typename T> const T* GetAttrPointer(size_t i) const {
        if (i >= v_.size()) return nullptr;
        const AttrValue& a = v_[i];
        if constexpr (std::is_same_v<T, float>) return &a.f;
        else if constexpr (std::is_same_v<T, bool>) return &a.b;
        else if constexpr (std::is_same_v<T, char>) return a.s.c_str();
        else if constexpr (std::is_same_v<T, int64_t>) return &a.i;
        else if constexpr (std::is_same_v<T, ContinuousVector>) return &a.li;
        else if constexpr (std::is_same_v<T, TypedContinuousVector<float>>) return &a.lf;
        else {
            static thread_local T tmp;
            tmp = static_cast<T>(a.i);
            return &tmp;
        }
    }
    const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
    const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
    const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
    const char* GetStr(size_t i) const { return GetAttrPointer<char>(i); }
    const ContinuousVector* GetListInt(size_t i) const { return GetAttrPointer<ContinuousVector>(i); }
    const TypedContinuousVector<float>* GetListFloat(size_t i) const {
        return GetAttrPointer<TypedContinuousVector<float>>(i);
    }
    size_t GetAttrNum() const { return v_.size(); }
    std::vector<AttrValue> v_;
};

class TilingContext {
public:
    const StorageShape* GetInputShape(size_t i) const { return i < inputs_.size() ? &inputs_[i].shape_ : nullptr; }
    const StorageShape* GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
    const StorageShape* GetDynamicInputShape(size_t i, size_t) const { return GetInputShape(i); }
    const StorageShape* GetOutputShape(size_t i) const { return i < outputs_.size() ? &outputs_[i].shape_ : nullptr; }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return i < in_desc_.size() ? &in_desc_[i] : nullptr; }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t i) const { return GetInputDesc(i); }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t i, size_t j) const { return GetInputDesc(i + j); }
    const Tensor* GetDynamicInputTensor(size_t i, size_t j) const { return GetInputTensor(i + j); }
    const StorageShape* GetRequiredInputShape(size_t i) const { return GetInputShape(i); }
    const CompileTimeTensorDesc* GetRequiredInputDesc(size_t i) const { return GetInputDesc(i); }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const {
        return i < out_desc_.size() ? &out_desc_[i] : nullptr;
    }
    const Tensor* GetInputTensor(size_t i) const { return i < inputs_.size() ? &inputs_[i] : nullptr; }
    const Tensor* GetOptionalInputTensor(size_t i) const { return GetInputTensor(i); }
    const RuntimeAttrs* GetAttrs() const { return &attrs_; }
    TilingData* GetRawTilingData() { return &tiling_; }
    fe::PlatFormInfos* GetPlatformInfo() const { static fe::PlatFormInfos p; return &p; }
    ge::graphStatus SetBlockDim(uint32_t n) { block_dim_ = n; return ge::GRAPH_SUCCESS; }
    uint32_t GetBlockDim() const { return block_dim_; }
    ge::graphStatus SetTilingKey(uint64_t k) { key_ = k; return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const { return key_; }
    size_t* GetWorkspaceSizes(size_t n) {
        if (workspace_.size() < n) workspace_.resize(n, 0);
        return workspace_.data();
    }
    size_t GetWorkspaceNum() const { return workspace_.size(); }
    const char* GetNodeName() const { return name_.c_str(); }
    const char* GetNodeType() const { return name_.c_str(); }
    size_t GetComputeNodeInputNum() const { return inputs_.size(); }
    ge::graphStatus SetScheduleMode(uint32_t) { return ge::GRAPH_SUCCESS; }
    template <typename T> const T* GetCompileInfo() const { static T t{}; return &t; }
    const void* GetCompileInfo() const { static char blank[4096] = {}; return blank; }
    const void* GetCompiledInfo() const { return GetCompileInfo(); }
    bool GetDeterministic() const { return false; }

    std::vector<Tensor> inputs_, outputs_;
    std::vector<CompileTimeTensorDesc> in_desc_, out_desc_;
    RuntimeAttrs attrs_;
    TilingData tiling_;
    uint32_t block_dim_ = 0;
    uint64_t key_ = 0;
    std::vector<size_t> workspace_;
    std::string name_;
};

// Shape/dtype inference contexts: declared so op_host files compile; the simulator takes shapes from the manifest.
class InferShapeContext {
public:
    const Shape* GetInputShape(size_t) const { static Shape s; return &s; }
    Shape* GetOutputShape(size_t) { static Shape s; return &s; }
    const Shape* GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
    const RuntimeAttrs* GetAttrs() const { static RuntimeAttrs a; return &a; }
    const Tensor* GetInputTensor(size_t) const { static Tensor t; return &t; }
    const char* GetNodeName() const { return ""; }
    size_t GetComputeNodeInputNum() const { return 0; }
    size_t GetComputeNodeOutputNum() const { return 0; }
};
class InferDataTypeContext {
public:
    ge::DataType GetInputDataType(size_t) const { return ge::DT_FLOAT; }
    ge::graphStatus SetOutputDataType(size_t, ge::DataType) { return ge::GRAPH_SUCCESS; }
    const RuntimeAttrs* GetAttrs() const { static RuntimeAttrs a; return &a; }
    const char* GetNodeName() const { return ""; }
};
class TilingParseContext {
public:
    fe::PlatFormInfos* GetPlatformInfo() const { static fe::PlatFormInfos p; return &p; }
    template <typename T> T* GetCompiledInfo() { static T t{}; return &t; }
};

}  // namespace gert
