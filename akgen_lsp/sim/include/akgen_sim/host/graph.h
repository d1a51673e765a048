// akgen sim host side: ge:: types of custom-op projects (DataType, Format, graphStatus) as plain C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

// The kernel side's DT_* macros (akgen_sim/kernel_type.h) must not rename this enum when a kernel includes a host
// header after them: they are set aside for this file and restored at its end.
#pragma push_macro("DT_FLOAT")
#undef DT_FLOAT
#pragma push_macro("DT_FLOAT16")
#undef DT_FLOAT16
#pragma push_macro("DT_INT8")
#undef DT_INT8
#pragma push_macro("DT_INT32")
#undef DT_INT32
#pragma push_macro("DT_UINT8")
#undef DT_UINT8
#pragma push_macro("DT_INT16")
#undef DT_INT16
#pragma push_macro("DT_UINT16")
#undef DT_UINT16
#pragma push_macro("DT_UINT32")
#undef DT_UINT32
#pragma push_macro("DT_INT64")
#undef DT_INT64
#pragma push_macro("DT_UINT64")
#undef DT_UINT64
#pragma push_macro("DT_DOUBLE")
#undef DT_DOUBLE
#pragma push_macro("DT_BOOL")
#undef DT_BOOL
#pragma push_macro("DT_STRING")
#undef DT_STRING
#pragma push_macro("DT_COMPLEX64")
#undef DT_COMPLEX64
#pragma push_macro("DT_COMPLEX128")
#undef DT_COMPLEX128
#pragma push_macro("DT_BF16")
#undef DT_BF16
#pragma push_macro("DT_UNDEFINED")
#undef DT_UNDEFINED
#pragma push_macro("DT_INT4")
#undef DT_INT4
#pragma push_macro("DT_COMPLEX32")
#undef DT_COMPLEX32

namespace ge {

enum DataType : int32_t {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7, DT_UINT32 = 8,
    DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13, DT_DUAL_SUB_INT8 = 14,
    DT_DUAL_SUB_UINT8 = 15, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_QINT8 = 18, DT_QINT16 = 19, DT_QINT32 = 20,
    DT_QUINT8 = 21, DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24, DT_DUAL = 25, DT_VARIANT = 26,
    DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29, DT_UINT1 = 30, DT_INT2 = 31, DT_UINT2 = 32, DT_COMPLEX32 = 33,
    DT_MAX
};

enum Format : int32_t {
    FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2, FORMAT_NC1HWC0 = 3, FORMAT_FRACTAL_Z = 4, FORMAT_NC1C0HWPAD = 5,
    FORMAT_NHWC1C0 = 6, FORMAT_FSR_NCHW = 7, FORMAT_FRACTAL_DECONV = 8, FORMAT_C1HWNC0 = 9,
    FORMAT_FRACTAL_DECONV_TRANSPOSE = 10, FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS = 11, FORMAT_NC1HWC0_C04 = 12,
    FORMAT_FRACTAL_Z_C04 = 13, FORMAT_CHWN = 14, FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS = 15, FORMAT_HWCN = 16,
    FORMAT_NC1KHKWHWC0 = 17, FORMAT_BN_WEIGHT = 18, FORMAT_FILTER_HWCK = 19, FORMAT_HASHTABLE_LOOKUP_LOOKUPS = 20,
    FORMAT_HASHTABLE_LOOKUP_KEYS = 21, FORMAT_HASHTABLE_LOOKUP_VALUE = 22, FORMAT_HASHTABLE_LOOKUP_OUTPUT = 23,
    FORMAT_HASHTABLE_LOOKUP_HITS = 24, FORMAT_C1HWNCoC0 = 25, FORMAT_MD = 26, FORMAT_NDHWC = 27,
    FORMAT_FRACTAL_ZZ = 28, FORMAT_FRACTAL_NZ = 29, FORMAT_NCDHW = 30, FORMAT_DHWCN = 31, FORMAT_NDC1HWC0 = 32,
    FORMAT_FRACTAL_Z_3D = 33, FORMAT_CN = 34, FORMAT_NC = 35, FORMAT_DHWNC = 36, FORMAT_FRACTAL_Z_3D_TRANSPOSE = 37,
    FORMAT_FRACTAL_ZN_LSTM = 38, FORMAT_FRACTAL_Z_G = 39, FORMAT_RESERVED = 40, FORMAT_ALL = 41, FORMAT_NULL = 42,
    FORMAT_MAX = 0xff
};

// ge::Shape (graph/types.h): the dims of a tensor, as host tiling code builds them for the adv-API tiling helpers
// (AscendC::TensorShape is this type).
class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    uint32_t SetDim(size_t i, int64_t v) {
        if (i >= dims_.size()) return 1;
        dims_[i] = v;
        return 0;
    }
    std::vector<int64_t> GetDims() const { return dims_; }
    int64_t GetShapeSize() const {
        if (dims_.empty()) return 0;
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }

private:
    std::vector<int64_t> dims_;
};

using graphStatus = uint32_t;
constexpr int64_t UNKNOWN_DIM = -1;
constexpr int64_t UNKNOWN_DIM_NUM = -2;
using char_t = char;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;
constexpr graphStatus GRAPH_NOT_CHANGED = 1343242304;

inline int GetSizeByDataType(DataType t) {
    switch (t) {
        case DT_FLOAT: case DT_INT32: case DT_UINT32: return 4;
        case DT_FLOAT16: case DT_BF16: case DT_INT16: case DT_UINT16: return 2;
        case DT_INT8: case DT_UINT8: case DT_BOOL: case DT_QINT8: case DT_QUINT8: return 1;
        case DT_INT64: case DT_UINT64: case DT_DOUBLE: case DT_COMPLEX64: return 8;
        case DT_COMPLEX128: return 16;
        default: return -1;
    }
}

// The primary format of a format value (its low 8 bits; the rest carries a sub-format and C0).
inline Format GetPrimaryFormat(int32_t format) { return static_cast<Format>(format & 0xff); }

class TypeUtils {
public:
    static bool GetDataTypeLength(DataType t, uint32_t& length) {
        int n = GetSizeByDataType(t);
        if (n <= 0) return false;
        length = static_cast<uint32_t>(n);
        return true;
    }
    // a format's name as ge writes it ("ND", "NCHW", ...; the primary format of a format with sub-format bits)
    static std::string FormatToSerialString(Format f) {
        switch (static_cast<int32_t>(f) & 0xff) {
            case FORMAT_NCHW: return "NCHW";
            case FORMAT_NHWC: return "NHWC";
            case FORMAT_ND: return "ND";
            case FORMAT_NC1HWC0: return "NC1HWC0";
            case FORMAT_FRACTAL_Z: return "FRACTAL_Z";
            case FORMAT_HWCN: return "HWCN";
            case FORMAT_NDHWC: return "NDHWC";
            case FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
            case FORMAT_NCDHW: return "NCDHW";
            case FORMAT_DHWCN: return "DHWCN";
            case FORMAT_NDC1HWC0: return "NDC1HWC0";
            case FORMAT_FRACTAL_Z_3D: return "FRACTAL_Z_3D";
            default: return "RESERVED";
        }
    }
    static std::string DataTypeToSerialString(DataType t) {
        switch (t) {
            case DT_FLOAT: return "DT_FLOAT";
            case DT_FLOAT16: return "DT_FLOAT16";
            case DT_BF16: return "DT_BF16";
            case DT_INT8: return "DT_INT8";
            case DT_INT16: return "DT_INT16";
            case DT_INT32: return "DT_INT32";
            case DT_INT64: return "DT_INT64";
            case DT_UINT8: return "DT_UINT8";
            case DT_BOOL: return "DT_BOOL";
            default: return "DT_UNDEFINED";
        }
    }
};

// ge::AscendString (graph/ascend_string.h): the string type of the graph API, e.g. CheckSupported's result.
class AscendString {
public:
    AscendString() = default;
    AscendString(const char* s) : s_(s == nullptr ? "" : s) {}  // NOLINT: implicit as in CANN
    const char* GetString() const { return s_.c_str(); }  // "" for an empty one, as CANN's
    size_t GetLength() const { return s_.size(); }
    bool operator<(const AscendString& o) const { return s_ < o.s_; }
    bool operator==(const AscendString& o) const { return s_ == o.s_; }
    bool operator!=(const AscendString& o) const { return s_ != o.s_; }

private:
    std::string s_;
};

// ge::TensorDesc and ge::Operator (graph/tensor.h, graph/operator.h): the graph-mode node that CheckSupported /
// OpSelectFormat callbacks read. The simulator never calls those callbacks (it runs the TilingFunc on the manifest's
// shapes), so an Operator here has no inputs, outputs or attributes: lookups give empty descs and GRAPH_FAILED.
class TensorDesc {
public:
    TensorDesc() = default;
    TensorDesc(Shape shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT)
        : shape_(std::move(shape)), format_(format), dtype_(dt) {}
    Shape GetShape() const { return shape_; }
    void SetShape(const Shape& s) { shape_ = s; }
    Shape GetOriginShape() const { return shape_; }
    Format GetFormat() const { return format_; }
    Format GetOriginFormat() const { return format_; }
    DataType GetDataType() const { return dtype_; }
    void SetDataType(DataType dt) { dtype_ = dt; }

private:
    Shape shape_;
    Format format_ = FORMAT_ND;
    DataType dtype_ = DT_FLOAT;
};

// ge::Tensor (graph/tensor.h): a TensorDesc and its bytes (value-depend data, constant inputs).
class Tensor {
public:
    Tensor() = default;
    explicit Tensor(const TensorDesc& desc) : desc_(desc) {}
    Tensor(const TensorDesc& desc, const uint8_t* data, size_t size) : desc_(desc) { SetData(data, size); }
    TensorDesc GetTensorDesc() const { return desc_; }
    graphStatus SetTensorDesc(const TensorDesc& desc) { desc_ = desc; return GRAPH_SUCCESS; }
    const uint8_t* GetData() const { return data_.data(); }
    uint8_t* GetData() { return data_.data(); }
    size_t GetSize() const { return data_.size(); }
    graphStatus SetData(const uint8_t* data, size_t size) {
        if (data == nullptr && size != 0) return GRAPH_FAILED;
        data_.assign(data, data + size);
        return GRAPH_SUCCESS;
    }

private:
    TensorDesc desc_;
    std::vector<uint8_t> data_;
};

class Operator {
public:
    Operator() = default;
    explicit Operator(const char* type) : type_(type == nullptr ? "" : type) {}
    TensorDesc GetInputDescByName(const char*) const { return TensorDesc(); }
    TensorDesc GetOutputDescByName(const char*) const { return TensorDesc(); }
    TensorDesc GetInputDesc(uint32_t) const { return TensorDesc(); }
    TensorDesc GetOutputDesc(uint32_t) const { return TensorDesc(); }
    size_t GetInputsSize() const { return 0; }
    size_t GetOutputsSize() const { return 0; }
    graphStatus GetName(AscendString& name) const { name = AscendString(type_.c_str()); return GRAPH_SUCCESS; }
    graphStatus GetOpType(AscendString& type) const { type = AscendString(type_.c_str()); return GRAPH_SUCCESS; }
    template <typename T> graphStatus GetAttr(const char*, T&) const { return GRAPH_FAILED; }

private:
    std::string type_;
};

}  // namespace ge

#pragma pop_macro("DT_FLOAT")
#pragma pop_macro("DT_FLOAT16")
#pragma pop_macro("DT_INT8")
#pragma pop_macro("DT_INT32")
#pragma pop_macro("DT_UINT8")
#pragma pop_macro("DT_INT16")
#pragma pop_macro("DT_UINT16")
#pragma pop_macro("DT_UINT32")
#pragma pop_macro("DT_INT64")
#pragma pop_macro("DT_UINT64")
#pragma pop_macro("DT_DOUBLE")
#pragma pop_macro("DT_BOOL")
#pragma pop_macro("DT_STRING")
#pragma pop_macro("DT_COMPLEX64")
#pragma pop_macro("DT_COMPLEX128")
#pragma pop_macro("DT_BF16")
#pragma pop_macro("DT_UNDEFINED")
#pragma pop_macro("DT_INT4")
#pragma pop_macro("DT_COMPLEX32")
