// akgen sim host side: gert::DefaultOpImplSpaceRegistryV2 (CANN's base/registry/op_impl_space_registry_v2.h), where a
// kernel UT's tiling harness looks up an op's TilingFunc by op type: here the TilingFuncs the op's own op_host sources
// registered (IMPL_OP_OPTILING(Op).Tiling(f), or OpDef's AICore().SetTiling(f) for OP_ADD(Op)).
#pragma once

#include <cstring>
#include <deque>
#include <memory>
#include <string>

#include "register/op_impl_registry.h"

namespace gert {

struct OpImplFunctionsV2 {
    ops::TilingFunc tiling = nullptr;
    ops::InferShapeFunc infer_shape;
    ops::InferDataTypeFunc infer_datatype;
};

// the older registry's name of the same record (ops-nn's tests/ut/common/op_impl_registry.h names it)
struct OpImplKernelRegistry {
    using OpImplFunctions = OpImplFunctionsV2;
};

class OpImplSpaceRegistryV2 {
public:
    // the op's functions, or nullptr when no source of this program registered `type`
    const OpImplFunctionsV2* GetOpImpl(const char* type) {
        if (type == nullptr) return nullptr;
        OpImplFunctionsV2 f;
        for (const ops::ImplOp& o : ops::impl_registry()) {
            if (o.name == type) {
                f.tiling = o.tiling;
                f.infer_shape = o.infer_shape;
                f.infer_datatype = o.infer_dtype;
            }
        }
        for (const ops::OpInfo& o : ops::op_registry()) {
            if (o.name == type) {
                if (!f.tiling) f.tiling = o.tiling;
                if (!f.infer_shape) f.infer_shape = o.infer_shape;
                if (!f.infer_datatype) f.infer_datatype = o.infer_dtype;
            }
        }
        if (!f.tiling && !f.infer_shape && !f.infer_datatype) return nullptr;
        found_.push_back(f);
        return &found_.back();
    }

private:
    std::deque<OpImplFunctionsV2> found_;
};

class DefaultOpImplSpaceRegistryV2 {
public:
    static DefaultOpImplSpaceRegistryV2& GetInstance() {
        static DefaultOpImplSpaceRegistryV2 r;
        return r;
    }
    std::shared_ptr<OpImplSpaceRegistryV2> GetSpaceRegistry() {
        if (!space_) space_ = std::make_shared<OpImplSpaceRegistryV2>();
        return space_;
    }

private:
    std::shared_ptr<OpImplSpaceRegistryV2> space_;
};

}  // namespace gert
