// akgen sim: tensor lists (CANN's TensorList) on the kernel side: AscendC::ListTensorDesc and AscendC::TensorDesc<T>.
//
// A dynamic (list) input or output reaches the kernel as ONE GM_ADDR pointing at a descriptor in GM (the launcher
// builds it; see akgen_lsp/sim/tensorlist.py): uint64 words, word 0 = byte offset of the data-pointer array; per
// tensor k one word (dim | k << 32) followed by its dim sizes; then one data pointer per tensor. ListTensorDesc decodes
// it as on A2/A3: the dim of the FIRST tensor fixes the per-tensor stride (the decoder assumes every tensor has that
// many dims), the count comes from the high half of the first header word or else from the last header's index + 1.
// Reading past the descriptor (an index >= GetSize()) is reported, as CANN's ASSERTs do in its CPU debug mode.
#ifndef AKGEN_SIM_LIST_TENSOR_H
#define AKGEN_SIM_LIST_TENSOR_H

#include <cstdint>

#include "runtime.h"
#include "tensor.h"

namespace AscendC {

class ListTensorDesc;

template <class T> class TensorDesc {
public:
    TensorDesc() = default;
    void SetShapeAddr(uint64_t* shapePtr, AKGEN_LOC) {
        if (shapePtr == nullptr) {
            akgen_sim::fail("SIM-LIST-DESC", "TensorDesc::SetShapeAddr: the shape buffer is null (give it room for the "
                                             "tensor's dims before GetDesc)", loc, "logic", "SetShapeAddr");
        }
        shape_ = shapePtr;
    }
    uint64_t GetDim() const { return dim_; }
    uint64_t GetIndex() const { return index_; }
    uint64_t GetShape(uint32_t offset, AKGEN_LOC) const {
        if (offset >= dim_ || shape_ == nullptr) {
            akgen_sim::fail("SIM-LIST-DESC", akgen_sim::fmt("TensorDesc::GetShape(%u): the tensor has %llu dims", offset,
                                                            static_cast<unsigned long long>(dim_)),
                            loc, "logic", "GetShape");
        }
        return shape_[offset];
    }
    __gm__ T* GetDataPtr() const { return ptr_; }
    GlobalTensor<T> GetDataObj(AKGEN_LOC) const {
        GlobalTensor<T> g;
        uint64_t n = 1;
        for (uint64_t i = 0; i < dim_; ++i) n *= shape_[i];
        g.SetGlobalBuffer(ptr_, n, loc);
        return g;
    }

private:
    friend class ListTensorDesc;
    uint64_t dim_ = 0;
    uint64_t index_ = 0;
    uint64_t* shape_ = nullptr;
    __gm__ T* ptr_ = nullptr;
};

class ListTensorDesc {
public:
    ListTensorDesc() = default;
    ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff, AKGEN_LOC) {
        Init(data, length, shapeSize, loc);
    }
    void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff, AKGEN_LOC) {
        akgen_sim::touch("ListTensorDesc", loc);
        if (data == nullptr) {
            akgen_sim::fail("SIM-LIST-DESC", "ListTensorDesc: the descriptor address is null (pass the kernel's "
                                             "tensor-list GM_ADDR)", loc, "scope", "ListTensorDesc");
        }
        auto* words = static_cast<__gm__ uint64_t*>(data);
        uint64_t ptr_offset = words[0];
        shape_start_ = words + 1;
        data_ptr_ = words + ptr_offset / sizeof(uint64_t);
        dim_ = static_cast<uint32_t>(shape_start_[0] & 0xffffffffu);
        uint32_t count_hint = static_cast<uint32_t>(shape_start_[0] >> 32);
        stride_ = dim_ == 0 ? 2 : 1 + dim_;
        count_ = count_hint != 0 ? count_hint : static_cast<uint32_t>((*(data_ptr_ - stride_) >> 32) + 1);
        bool consistent = dim_ != 0 ? count_ == (ptr_offset - sizeof(uint64_t)) / (stride_ * sizeof(uint64_t))
                                    : (shape_start_[1] == 0xffffffffu && ptr_offset == 24);
        if (!consistent) {
            akgen_sim::warn("SIM-LIST-LAYOUT",
                            akgen_sim::fmt("ListTensorDesc: the descriptor does not have the uniform layout the decoder "
                                           "assumes (%u tensors of %u dims each); GetDesc shapes may be wrong (tensors "
                                           "of different ranks in one list?)", count_, dim_),
                            loc, "logic", "ListTensorDesc");
        }
        if (length != 0xffffffff && shapeSize != 0xffffffff &&
            (count_ != shapeSize || length != ptr_offset + count_ * sizeof(uint64_t))) {
            akgen_sim::fail("SIM-LIST-DESC", akgen_sim::fmt("ListTensorDesc: length %u / shapeSize %u do not match the "
                                                            "descriptor (%u tensors, %llu bytes)", length, shapeSize,
                                                            count_, static_cast<unsigned long long>(
                                                                ptr_offset + count_ * sizeof(uint64_t))),
                            loc, "logic", "ListTensorDesc");
        }
        akgen_sim::charge_scalar(10);
    }
    template <class T> void GetDesc(TensorDesc<T>& desc, uint32_t index, AKGEN_LOC) {
        check_index(index, "GetDesc", loc);
        if (dim_ == 0) {
            akgen_sim::fail("SIM-LIST-DESC", "ListTensorDesc::GetDesc: the list carries no shape information (dim 0)",
                            loc, "logic", "GetDesc");
        }
        if (desc.shape_ == nullptr) {
            akgen_sim::fail("SIM-LIST-DESC", "ListTensorDesc::GetDesc: call desc.SetShapeAddr(buffer) first; GetDesc "
                                             "writes the shape there", loc, "logic", "GetDesc");
        }
        desc.dim_ = dim_;
        desc.index_ = index;
        desc.ptr_ = reinterpret_cast<__gm__ T*>(data_ptr_[index]);
        const uint64_t* dims = shape_start_ + static_cast<uint64_t>(index) * stride_ + 1;
        for (uint32_t i = 0; i < dim_; ++i) desc.shape_[i] = dims[i];
        akgen_sim::charge_scalar(10);
    }
    template <class T> __gm__ T* GetDataPtr(uint32_t index, AKGEN_LOC) {
        check_index(index, "GetDataPtr", loc);
        akgen_sim::charge_scalar(10);
        return reinterpret_cast<__gm__ T*>(data_ptr_[index]);
    }
    uint32_t GetSize() const { return count_; }

private:
    void check_index(uint32_t index, const char* api, const akgen_sim::loc_t& loc) const {
        akgen_sim::touch(api, loc);
        if (data_ptr_ == nullptr) {
            akgen_sim::fail("SIM-LIST-DESC", akgen_sim::fmt("ListTensorDesc::%s: Init was not called", api), loc,
                            "scope", api);
        }
        if (index >= count_) {
            akgen_sim::fail("SIM-LIST-INDEX", akgen_sim::fmt("ListTensorDesc::%s(%u): the list holds %u tensors", api,
                                                             index, count_), loc, "memory", api);
        }
    }
    __gm__ uint64_t* data_ptr_ = nullptr;
    __gm__ uint64_t* shape_start_ = nullptr;
    uint32_t dim_ = 0;
    uint32_t stride_ = 0;
    uint32_t count_ = 0;
};

}  // namespace AscendC

#endif
