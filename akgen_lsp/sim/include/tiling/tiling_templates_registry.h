// akgen sim host side: tiling/tiling_templates_registry.h of the CANN op repositories. REGISTER_TILING_TEMPLATE(op,
// Class, priority) records a tiling strategy; TilingRegistry::GetInstance().DoTilingImpl(context) tries the op's
// strategies from the lowest priority number up and returns the first status that is not GRAPH_PARAM_INVALID
// (a strategy that is not capable of the case), or GRAPH_FAILED when none applies.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tiling_base.h"

namespace optiling {

using TilingClassCreator = std::function<std::unique_ptr<TilingBaseClass>(gert::TilingContext*)>;

class TilingRegistry {
public:
    static TilingRegistry& GetInstance() {
        static TilingRegistry r;
        return r;
    }
    template <typename T> void RegisterTilingTemplate(const std::string& opType, int32_t priority) {
        templates_[opType][priority] = [](gert::TilingContext* c) { return std::unique_ptr<TilingBaseClass>(new T(c)); };
    }
    ge::graphStatus DoTilingImpl(gert::TilingContext* context) {
        const std::map<int32_t, TilingClassCreator>* list = Find(context);
        if (list == nullptr) return ge::GRAPH_FAILED;
        for (const auto& [priority, create] : *list) {
            (void)priority;
            std::unique_ptr<TilingBaseClass> t = create(context);
            if (t == nullptr) continue;
            ge::graphStatus status = t->DoTiling();
            if (status != ge::GRAPH_PARAM_INVALID) return status;
        }
        return ge::GRAPH_FAILED;
    }
    // The strategies of the given priorities only, in the order given.
    ge::graphStatus DoTilingImpl(gert::TilingContext* context, const std::vector<int32_t>& priorities) {
        const std::map<int32_t, TilingClassCreator>* list = Find(context);
        if (list == nullptr) return ge::GRAPH_FAILED;
        for (int32_t p : priorities) {
            auto it = list->find(p);
            if (it == list->end()) continue;
            std::unique_ptr<TilingBaseClass> t = it->second(context);
            ge::graphStatus status = t->DoTiling();
            if (status != ge::GRAPH_PARAM_INVALID) return status;
        }
        return ge::GRAPH_FAILED;
    }

private:
    // The op's strategies: by the context's op type, or the only op registered (one op per host build).
    const std::map<int32_t, TilingClassCreator>* Find(gert::TilingContext* context) const {
        const char* type = context ? context->GetNodeType() : nullptr;
        if (type != nullptr && *type != '\0') {
            auto it = templates_.find(type);
            if (it != templates_.end()) return &it->second;
        }
        return templates_.size() == 1 ? &templates_.begin()->second : nullptr;
    }
    std::map<std::string, std::map<int32_t, TilingClassCreator>> templates_;
};

class TilingRegister {
public:
    explicit TilingRegister(std::string opType) : opType_(std::move(opType)) {}
    template <typename T> TilingRegister& tiling(int32_t priority) {
        TilingRegistry::GetInstance().RegisterTilingTemplate<T>(opType_, priority);
        return *this;
    }

private:
    std::string opType_;
};

}  // namespace optiling

#define AKGEN_TILING_REG_CAT2(a, b) a##b
#define AKGEN_TILING_REG_CAT(a, b) AKGEN_TILING_REG_CAT2(a, b)
#define REGISTER_TILING_TEMPLATE(opType, className, priority)                                                \
    [[maybe_unused]] static ::optiling::TilingRegister AKGEN_TILING_REG_CAT(akgen_tiling_reg_, __COUNTER__) = \
        ::optiling::TilingRegister(opType).tiling<className>(priority)
