// akgen sim host side: the gert::TilingContext subset a TilingFunc uses (shapes, dtypes, attributes, block dim,
// tiling key, raw tiling buffer, workspace sizes), filled by the host runner from the manifest.
#pragma once

#include <climits>
#include <cstring>
#include <initializer_list>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "compile_info.h"
#include "graph.h"

// ge::Status and its general codes, as CANN's ge_common/api_error_codes.h defines them (GE_ERRORNO: SUCCESS is 0,
// FAILED is all ones); CANN's exe_graph/runtime/tiling_context.h includes that header, so a TilingFunc that writes
// `using namespace ge;` may compare against a bare SUCCESS.
namespace ge {
using Status = uint32_t;
constexpr Status SUCCESS = 0U;
constexpr Status FAILED = 0xFFFFFFFFU;
}  // namespace ge

namespace fe {
enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };

// What fe::PlatFormInfos answers (the host runner fills it from the arch profile, like platform_ascendc's profile).
struct PlatformFigures {
    uint32_t cores = 48;  // vector cores: what a vector op's TilingFunc asks GetCoreNum for
    uint64_t mem[8] = {65536, 65536, 131072, 524288, 201326592, 196608, 68719476736ull, 0};  // by LocalMemType
};
inline PlatformFigures& platform_figures() { static PlatformFigures f; return f; }

class PlatFormInfos {
public:
    // The resource tables (label -> key -> value) a kernel UT's tiling harness fills (SoCInfo, AICoreSpec, version):
    // kept and given back; the figures a TilingFunc asks for come from the run's arch profile, as elsewhere.
    bool Init() { return true; }
    void SetPlatformRes(const std::string& label, std::map<std::string, std::string>& res) { res_[label] = res; }
    bool GetPlatformRes(const std::string& label, const std::string& key, std::string& value) const {
        auto t = res_.find(label);
        if (t == res_.end()) return false;
        auto v = t->second.find(key);
        if (v == t->second.end()) return false;
        value = v->second;
        return true;
    }
    bool GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& value) const {
        return GetPlatformRes(label, key, value);
    }
    bool GetPlatformRes(const std::string& label, std::map<std::string, std::string>& res) const {
        auto t = res_.find(label);
        if (t == res_.end()) return false;
        res = t->second;
        return true;
    }
    void SetCoreNumByCoreType(const std::string&) {}
    uint32_t GetCoreNumByType(const std::string&) const { return GetCoreNum(); }
    uint32_t GetCoreNum() const { return platform_figures().cores; }
    void GetLocalMemSize(const LocalMemType& t, uint64_t& size) const {
        size_t i = static_cast<size_t>(t);
        size = i < 8 ? platform_figures().mem[i] : 0;
    }
    void GetLocalMemBw(const LocalMemType&, uint64_t& bw) const { bw = 0; }

private:
    std::map<std::string, std::map<std::string, std::string>> res_;
};
}  // namespace fe

namespace gert {

// gert::Shape as CANN's exe_graph/runtime/shape.h lays it out: a fixed array of kMaxDimNum dims and a dim count.
// operator[] gives a writable reference (op_host code writes `shape[i] = v`), SetDimNum only changes the count,
// SetDim raises the count to the index (CANN's own rule), AppendDim ignores a dim past kMaxDimNum.
class Shape {
public:
    static constexpr size_t kMaxDimNum = 25;
    static constexpr int64_t kInvalidDimValue = INT64_MIN;
    Shape() = default;
    Shape(std::initializer_list<int64_t> d) { assign(d.begin(), d.size()); }
    explicit Shape(const std::vector<int64_t>& d) { assign(d.data(), d.size()); }
    size_t GetDimNum() const { return dim_num_; }
    int64_t GetDim(size_t i) const { return i < kMaxDimNum ? dims_[i] : kInvalidDimValue; }
    void SetDim(size_t i, int64_t v) {
        if (i >= kMaxDimNum) return;
        dims_[i] = v;
        dim_num_ = dim_num_ < i ? i : dim_num_;
    }
    void SetDimNum(size_t n) { dim_num_ = n < kMaxDimNum ? n : kMaxDimNum; }
    Shape& AppendDim(int64_t v) {
        if (dim_num_ < kMaxDimNum) dims_[dim_num_++] = v;
        return *this;
    }
    void SetScalar() { dim_num_ = 0; }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (size_t i = 0; i < dim_num_; ++i) n *= dims_[i];
        return n;
    }
    bool IsScalar() const { return dim_num_ == 0; }
    const int64_t& operator[](size_t i) const { return dims_[i < kMaxDimNum ? i : kMaxDimNum - 1]; }
    int64_t& operator[](size_t i) { return dims_[i < kMaxDimNum ? i : kMaxDimNum - 1]; }
    bool operator==(const Shape& o) const {
        if (dim_num_ != o.dim_num_) return false;
        for (size_t i = 0; i < dim_num_; ++i)
            if (dims_[i] != o.dims_[i]) return false;
        return true;
    }
    bool operator!=(const Shape& o) const { return !(*this == o); }
    std::vector<int64_t> GetDims() const { return std::vector<int64_t>(dims_, dims_ + dim_num_); }
    const int64_t* begin() const { return dims_; }
    const int64_t* end() const { return dims_ + dim_num_; }

private:
    void assign(const int64_t* d, size_t n) {
        if (n > kMaxDimNum) return;  // CANN leaves such a shape empty
        for (size_t i = 0; i < n; ++i) dims_[i] = d[i];
        dim_num_ = n;
    }
    size_t dim_num_ = 0;
    int64_t dims_[kMaxDimNum] = {};
};

class StorageShape {
public:
    StorageShape() = default;
    explicit StorageShape(Shape s) : origin_(s), storage_(s) {}
    // {{origin dims}, {storage dims}}, as a UT's tensor description writes it
    StorageShape(std::initializer_list<int64_t> origin, std::initializer_list<int64_t> storage)
        : origin_(origin), storage_(storage) {}
    const Shape& GetOriginShape() const { return origin_; }
    const Shape& GetStorageShape() const { return storage_; }
    const Shape& GetShape() const { return storage_; }  // the runtime (storage) shape
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

// Where a tensor's data lives and its format (gert::TensorPlacement, StorageFormat, ExpandDimsType): what a UT's
// tiling harness passes when it makes a Tensor; the format is kept, the placement does not matter on the host here.
enum TensorPlacement { kOnDeviceHbm = 0, kOnHost = 1, kFollowing = 2, kTensorPlacementEnd };
class ExpandDimsType {
public:
    ExpandDimsType() = default;
    explicit ExpandDimsType(const char*) {}
    explicit ExpandDimsType(int64_t) {}
};
class StorageFormat {
public:
    StorageFormat() = default;
    StorageFormat(ge::Format origin, ge::Format storage, const ExpandDimsType& = ExpandDimsType())
        : origin_(origin), storage_(storage) {}
    ge::Format GetOriginFormat() const { return origin_; }
    ge::Format GetStorageFormat() const { return storage_; }
    ge::Format origin_ = ge::FORMAT_ND, storage_ = ge::FORMAT_ND;
};

// The bytes of one element of a dtype (0: a sub-byte or unknown type), by ge::DataType's numbers (graph.h): the
// kernel side's DT_* macros (kernel_type.h) may be live here when a UT includes a kernel before this header.
inline size_t dtype_bytes(ge::DataType t) {
    switch (static_cast<int32_t>(t)) {
        case 2: case 4: case 12: case 18: case 21: return 1;  // int8, uint8, bool, qint8, quint8
        case 1: case 6: case 7: case 27: return 2;            // float16, int16, uint16, bf16
        case 0: case 3: case 8: case 33: return 4;            // float, int32, uint32, complex32
        case 9: case 10: case 11: case 16: return 8;          // int64, uint64, double, complex64
        case 17: return 16;                                   // complex128
        default: return 0;
    }
}

// A tensor's data by address (gert::TensorData), as a harness sets a const input's values.
class TensorData {
public:
    TensorData() = default;
    explicit TensorData(const void* addr) : addr_(addr) {}
    const void* GetAddr() const { return addr_; }

private:
    const void* addr_ = nullptr;
};

class Tensor {
public:
    Tensor() = default;
    // A tensor of `shape` and `dtype`; `data` (may be null) holds its values on the host (a const input the TilingFunc
    // reads): shape size x element size bytes are copied.
    Tensor(const StorageShape& shape, const StorageFormat& format, TensorPlacement, ge::DataType dtype,
           const void* data)
        : dtype_(dtype), shape_(shape), format_(format) {
        size_t n = static_cast<size_t>(shape.GetStorageShape().GetShapeSize()) * dtype_bytes(dtype);
        if (data != nullptr && n > 0) {
            const uint8_t* p = static_cast<const uint8_t*>(data);
            data_.assign(p, p + n);
        }
    }
    ge::Format GetOriginFormat() const { return format_.origin_; }
    ge::Format GetStorageFormat() const { return format_.storage_; }
    ge::DataType GetDataType() const { return dtype_; }
    const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
    const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
    int64_t GetShapeSize() const { return shape_.GetOriginShape().GetShapeSize(); }
    // A small input's values (a value-depend input such as Fill's dims); nullptr when the runner passed none.
    template <typename T> const T* GetData() const {
        if (ext_ != nullptr) return static_cast<const T*>(ext_);
        return data_.empty() ? nullptr : reinterpret_cast<const T*>(data_.data());
    }
    const void* GetAddr() const { return ext_ ? ext_ : data_.empty() ? nullptr : data_.data(); }
    // What ops-nn's UT harness sets on a tensor it fills field by field (tests/ut/common/tiling_context_faker.cpp).
    void SetDataType(ge::DataType t) { dtype_ = t; }
    void SetOriginFormat(ge::Format f) { format_.origin_ = f; }
    void SetStorageFormat(ge::Format f) { format_.storage_ = f; }
    Shape& MutableOriginShape() { return shape_.MutableOriginShape(); }
    Shape& MutableStorageShape() { return shape_.MutableStorageShape(); }
    // the data of a const input, by address (not copied: it lives as long as the harness keeps it)
    void SetData(const TensorData& d) { ext_ = d.GetAddr(); }
    ge::DataType dtype_ = ge::DT_FLOAT;
    StorageShape shape_;
    StorageFormat format_;
    std::vector<uint8_t> data_;
    const void* ext_ = nullptr;
};
// gert's newer tensor type, which ops-nn's harness hands over as Tensor (its own overload, so a type apart)
class TensorV2 : public Tensor {
public:
    using Tensor::Tensor;
};

class TilingData {
public:
    TilingData() = default;
    explicit TilingData(size_t cap) : buf_(cap, 0) {}
    // A tiling data object of capacity `cap` in a byte buffer (CANN's layout: the object heads the buffer). The
    // buffer's owner frees the bytes only: the object's own buffer is not freed (a test process's few KiB).
    static std::unique_ptr<uint8_t[]> CreateCap(size_t cap) {
        std::unique_ptr<uint8_t[]> p(new uint8_t[sizeof(TilingData)]);
        new (p.get()) TilingData(cap);
        return p;
    }
    void* GetData() { return buf_.data(); }
    const void* GetData() const { return buf_.data(); }
    size_t GetCapacity() const { return buf_.size(); }
    void SetDataSize(size_t n) { size_ = n; }
    size_t GetDataSize() const { return size_; }
    std::vector<uint8_t> buf_ = std::vector<uint8_t>(64 * 1024, 0);
    size_t size_ = 0;
};

template <typename T> class TypedContinuousVector {
public:
    // A vector of capacity `cap` of U in a byte buffer, as CANN's ContinuousVector::Create<U>(cap) (a workspace-size
    // list for a tiling context); the same caveat as TilingData::CreateCap.
    template <typename U> static std::unique_ptr<uint8_t[]> Create(size_t cap) {
        std::unique_ptr<uint8_t[]> p(new uint8_t[sizeof(TypedContinuousVector<T>)]);
        auto* v = new (p.get()) TypedContinuousVector<T>();
        v->v_.reserve(cap);
        return p;
    }
    size_t GetCapacity() const { return v_.capacity(); }
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
        // CANN hands back a pointer into the attribute's own int64 storage; a narrower integer type reads its low
        // bytes (little endian), so two GetAttrPointer<uint32_t> calls give two live pointers, not one shared temp.
        else if constexpr (std::is_integral_v<T> && sizeof(T) <= sizeof(int64_t)) return reinterpret_cast<const T*>(&a.i);
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

// How many instances an IR input/output has (a dynamic one: the tensors of its list) and where they start among the
// node's inputs/outputs.
class AnchorInstanceInfo {
public:
    AnchorInstanceInfo() = default;
    AnchorInstanceInfo(size_t start, size_t num) : start_(start), num_(num) {}
    size_t GetInstanceStart() const { return start_; }
    size_t GetInstanceNum() const { return num_; }
    size_t start_ = 0, num_ = 0;
};

// The IR view of a node: `ir_in` / `ir_out` hold one AnchorInstanceInfo per IR input/output; the "index" of
// GetInputShape/GetInputDesc is an instance index (the tensors of all lists counted one by one), the "ir index" of
// GetDynamic*/GetOptional*/GetRequired* is the position in the OpDef.
class ComputeNodeInfo {
public:
    size_t GetInputsNum() const { return inputs_num; }
    size_t GetOutputsNum() const { return outputs_num; }
    size_t GetIrInputsNum() const { return ir_in.size(); }
    size_t GetIrOutputsNum() const { return ir_out.size(); }
    const AnchorInstanceInfo* GetInputInstanceInfo(size_t ir) const { return ir < ir_in.size() ? &ir_in[ir] : nullptr; }
    const AnchorInstanceInfo* GetOutputInstanceInfo(size_t ir) const {
        return ir < ir_out.size() ? &ir_out[ir] : nullptr;
    }
    const CompileTimeTensorDesc* GetInputTdInfo(size_t i) const {
        return in_desc && i < in_desc->size() ? &(*in_desc)[i] : nullptr;
    }
    const CompileTimeTensorDesc* GetOutputTdInfo(size_t i) const {
        return out_desc && i < out_desc->size() ? &(*out_desc)[i] : nullptr;
    }
    const char* GetNodeName() const { return name ? name->c_str() : ""; }
    const char* GetNodeType() const { return GetNodeName(); }
    std::vector<AnchorInstanceInfo> ir_in, ir_out;
    size_t inputs_num = 0, outputs_num = 0;
    const std::vector<CompileTimeTensorDesc>* in_desc = nullptr;
    const std::vector<CompileTimeTensorDesc>* out_desc = nullptr;
    const std::string* name = nullptr;
};

class TilingContext {
public:
    // Instance index (every tensor of a list counts): what CANN's GetInputShape/GetInputDesc/GetInputTensor take.
    const StorageShape* GetInputShape(size_t i) const { return i < inputs_.size() ? &inputs_[i].shape_ : nullptr; }
    const StorageShape* GetOutputShape(size_t i) const { return i < outputs_.size() ? &outputs_[i].shape_ : nullptr; }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return i < in_desc_.size() ? &in_desc_[i] : nullptr; }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const {
        return i < out_desc_.size() ? &out_desc_[i] : nullptr;
    }
    const Tensor* GetInputTensor(size_t i) const { return i < inputs_.size() ? &inputs_[i] : nullptr; }
    // IR index (+ the position inside a dynamic input's list): nullptr past the list's end or for an absent optional.
    const StorageShape* GetOptionalInputShape(size_t ir) const { return GetDynamicInputShape(ir, 0); }
    const StorageShape* GetRequiredInputShape(size_t ir) const { return GetDynamicInputShape(ir, 0); }
    const StorageShape* GetDynamicInputShape(size_t ir, size_t k) const { return GetInputShape(in_instance(ir, k)); }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const { return GetDynamicInputDesc(ir, 0); }
    const CompileTimeTensorDesc* GetRequiredInputDesc(size_t ir) const { return GetDynamicInputDesc(ir, 0); }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t k) const {
        return GetInputDesc(in_instance(ir, k));
    }
    const Tensor* GetOptionalInputTensor(size_t ir) const { return GetDynamicInputTensor(ir, 0); }
    const Tensor* GetRequiredInputTensor(size_t ir) const { return GetDynamicInputTensor(ir, 0); }
    const Tensor* GetDynamicInputTensor(size_t ir, size_t k) const { return GetInputTensor(in_instance(ir, k)); }
    const StorageShape* GetOptionalOutputShape(size_t ir) const { return GetDynamicOutputShape(ir, 0); }
    const StorageShape* GetRequiredOutputShape(size_t ir) const { return GetDynamicOutputShape(ir, 0); }
    const StorageShape* GetDynamicOutputShape(size_t ir, size_t k) const {
        return GetOutputShape(out_instance(ir, k));
    }
    const CompileTimeTensorDesc* GetDynamicOutputDesc(size_t ir, size_t k) const {
        return GetOutputDesc(out_instance(ir, k));
    }
    const ComputeNodeInfo* GetComputeNodeInfo() const {
        node_.ir_in = ir_in_view();
        node_.ir_out = ir_out_view();
        node_.inputs_num = inputs_.size();
        node_.outputs_num = outputs_.size();
        node_.in_desc = &in_desc_;
        node_.out_desc = &out_desc_;
        node_.name = &name_;
        return &node_;
    }
    const AnchorInstanceInfo* GetIrInputInstanceInfo(size_t ir) const {
        GetComputeNodeInfo();
        return node_.GetInputInstanceInfo(ir);
    }
    const AnchorInstanceInfo* GetIrOutputInstanceInfo(size_t ir) const {
        GetComputeNodeInfo();
        return node_.GetOutputInstanceInfo(ir);
    }
    size_t GetComputeNodeOutputNum() const { return outputs_.size(); }
    const RuntimeAttrs* GetAttrs() const { return &attrs_; }
    TilingData* GetRawTilingData() { return &tiling_; }
    // the tiling data as the struct T, written in place: the raw buffer holds sizeof(T) bytes from now on (nullptr when
    // its capacity is smaller)
    template <typename T> T* GetTilingData() {
        if (tiling_.GetCapacity() < sizeof(T)) return nullptr;
        tiling_.SetDataSize(sizeof(T));
        return static_cast<T*>(tiling_.GetData());
    }
    fe::PlatFormInfos* GetPlatformInfo() const {
        static fe::PlatFormInfos p;
        return platform_ ? platform_ : &p;
    }
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
    // the UB the kernel may use beyond what it declares (a launch hint; the simulator's UB is the arch profile's)
    ge::graphStatus SetLocalMemorySize(uint32_t) { return ge::GRAPH_SUCCESS; }
    // atomic clean of the outputs before the launch: the simulator starts every output zeroed anyway
    ge::graphStatus SetNeedAtomic(bool) { return ge::GRAPH_SUCCESS; }
    template <typename T> const T* GetCompileInfo() const {
        if (compile_info_) return static_cast<const T*>(compile_info_);  // a UT's context builder gave it
        if (void* p = akgen_sim::host::compile_info_ready()) return static_cast<const T*>(p);
        static T t{};
        return &t;
    }
    const void* GetCompileInfo() const {
        if (compile_info_) return compile_info_;
        static char blank[4096] = {};
        void* p = akgen_sim::host::compile_info_ready();
        return p ? p : blank;
    }
    const void* GetCompiledInfo() const { return GetCompileInfo(); }
    bool GetDeterministic() const { return deterministic_ != 0; }

    std::vector<Tensor> inputs_, outputs_;
    std::vector<CompileTimeTensorDesc> in_desc_, out_desc_;
    RuntimeAttrs attrs_;
    TilingData tiling_;
    uint32_t block_dim_ = 0;
    uint64_t key_ = 0;
    std::vector<size_t> workspace_;
    std::string name_;
    // IR inputs/outputs as (first instance, instance count); empty = one instance per IR input (no lists).
    std::vector<AnchorInstanceInfo> ir_in_, ir_out_;
    // what a UT's context builder (OpTilingContextBuilder) hands over: its compile info and platform info objects
    const void* compile_info_ = nullptr;
    fe::PlatFormInfos* platform_ = nullptr;
    int32_t deterministic_ = 0;

private:
    static std::vector<AnchorInstanceInfo> one_each(size_t n) {
        std::vector<AnchorInstanceInfo> v;
        for (size_t i = 0; i < n; ++i) v.emplace_back(i, 1);
        return v;
    }
    std::vector<AnchorInstanceInfo> ir_in_view() const { return ir_in_.empty() ? one_each(inputs_.size()) : ir_in_; }
    std::vector<AnchorInstanceInfo> ir_out_view() const {
        return ir_out_.empty() ? one_each(outputs_.size()) : ir_out_;
    }
    static constexpr size_t kNone = static_cast<size_t>(-1);
    static size_t instance(const std::vector<AnchorInstanceInfo>& ir, size_t i, size_t k) {
        if (ir.empty()) return i + k;  // no IR view: instance index = ir index (+ k, as before lists existed)
        if (i >= ir.size() || k >= ir[i].num_) return kNone;
        return ir[i].start_ + k;
    }
    size_t in_instance(size_t ir, size_t k) const { return instance(ir_in_, ir, k); }
    size_t out_instance(size_t ir, size_t k) const { return instance(ir_out_, ir, k); }
    mutable ComputeNodeInfo node_;
};

// What InferShape/InferDataType code asks of the node (CANN's ExtendedKernelContext, the base of both contexts;
// ScatterList reinterpret_casts its InferShapeContext to it for the output count): the node's input/output counts
// (instances: an absent optional input does not count), its IR view and its name. `node_` is the first member so
// that such a cast reads it.
class ExtendedKernelContext {
public:
    size_t GetComputeNodeInputNum() const { return node_ ? node_->inputs_num : 0; }
    size_t GetComputeNodeOutputNum() const { return node_ ? node_->outputs_num : 0; }
    const ComputeNodeInfo* GetComputeNodeInfo() const {
        static ComputeNodeInfo blank;
        return node_ ? node_ : &blank;
    }
    const AnchorInstanceInfo* GetIrInputInstanceInfo(size_t ir) const {
        return GetComputeNodeInfo()->GetInputInstanceInfo(ir);
    }
    const AnchorInstanceInfo* GetIrOutputInstanceInfo(size_t ir) const {
        return GetComputeNodeInfo()->GetOutputInstanceInfo(ir);
    }
    const char* GetNodeName() const { return GetComputeNodeInfo()->GetNodeName(); }
    const char* GetNodeType() const { return GetNodeName(); }
    const ComputeNodeInfo* node_ = nullptr;

protected:
    // IR index (+ k inside a dynamic list) -> instance index; kNone past the list or for an absent optional input
    static constexpr size_t kNone = static_cast<size_t>(-1);
    size_t in_instance(size_t ir, size_t k) const {
        const AnchorInstanceInfo* a = node_ ? node_->GetInputInstanceInfo(ir) : nullptr;
        return a && k < a->GetInstanceNum() ? a->GetInstanceStart() + k : kNone;
    }
};

// The op's InferShape (OpDef::SetInferShape / IMPL_OP_INFERSHAPE(...).InferShape): input shapes (origin shapes),
// writable output shapes (blank until the function sets them), attributes and the values of small inputs. The
// host runner fills it from the same spec as the TilingContext and reports the output shapes the function wrote.
class InferShapeContext : public ExtendedKernelContext {
public:
    const Shape* GetInputShape(size_t i) const { return i < inputs_.size() ? &inputs_[i] : nullptr; }
    const Shape* GetOptionalInputShape(size_t ir) const { return GetDynamicInputShape(ir, 0); }
    const Shape* GetRequiredInputShape(size_t ir) const { return GetDynamicInputShape(ir, 0); }
    const Shape* GetDynamicInputShape(size_t ir, size_t k) const { return GetInputShape(in_instance(ir, k)); }
    Shape* GetOutputShape(size_t i) { return i < outputs_.size() ? &outputs_[i] : nullptr; }
    const Shape* GetOutputShape(size_t i) const { return i < outputs_.size() ? &outputs_[i] : nullptr; }
    const RuntimeAttrs* GetAttrs() const {
        static RuntimeAttrs blank;
        return attrs_ ? attrs_ : &blank;
    }
    const Tensor* GetInputTensor(size_t i) const { return tensors_ && i < tensors_->size() ? &(*tensors_)[i] : nullptr; }
    const Tensor* GetOptionalInputTensor(size_t ir) const { return GetInputTensor(in_instance(ir, 0)); }
    const Tensor* GetRequiredInputTensor(size_t ir) const { return GetInputTensor(in_instance(ir, 0)); }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return GetComputeNodeInfo()->GetInputTdInfo(i); }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const { return GetInputDesc(in_instance(ir, 0)); }

    std::vector<Shape> inputs_, outputs_;
    const RuntimeAttrs* attrs_ = nullptr;
    const std::vector<Tensor>* tensors_ = nullptr;
};

// The op's InferDataType: the inputs' dtypes, the outputs' (DT_UNDEFINED until the function sets them).
class InferDataTypeContext : public ExtendedKernelContext {
public:
    ge::DataType GetInputDataType(size_t i) const { return i < inputs_.size() ? inputs_[i] : ge::DT_UNDEFINED; }
    ge::DataType GetOptionalInputDataType(size_t ir) const { return GetInputDataType(in_instance(ir, 0)); }
    ge::DataType GetRequiredInputDataType(size_t ir) const { return GetInputDataType(in_instance(ir, 0)); }
    ge::DataType GetDynamicInputDataType(size_t ir, size_t k) const { return GetInputDataType(in_instance(ir, k)); }
    ge::DataType GetOutputDataType(size_t i) const { return i < outputs_.size() ? outputs_[i] : ge::DT_UNDEFINED; }
    ge::graphStatus SetOutputDataType(size_t i, ge::DataType t) {
        if (i >= outputs_.size()) return ge::GRAPH_FAILED;
        outputs_[i] = t;
        return ge::GRAPH_SUCCESS;
    }
    const RuntimeAttrs* GetAttrs() const {
        static RuntimeAttrs blank;
        return attrs_ ? attrs_ : &blank;
    }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return GetComputeNodeInfo()->GetInputTdInfo(i); }

    std::vector<ge::DataType> inputs_, outputs_;
    const RuntimeAttrs* attrs_ = nullptr;
};
class TilingParseContext {
public:
    fe::PlatFormInfos* GetPlatformInfo() const { static fe::PlatFormInfos p; return &p; }
    template <typename T> T* GetCompiledInfo() { return akgen_sim::host::compile_info_object<T>(); }
    // From ExtendedKernelContext in CANN: op_host null-check macros print the node's name.
    const char* GetNodeName() const { return ""; }
    const char* GetNodeType() const { return ""; }
};

}  // namespace gert
