// akgen sim host side: what CANN's context builders (base/context_builder/: tiling, tiling-parse, infer-shape,
// infer-shape-range, infer-datatype) share: the op's attributes in order (OpContextBuilderBase<Derived>::AppendAttr,
// which ops-nn's UT harness calls by that qualified name) and ContextHolder, which owns a built context.
#pragma once

#include <memory>
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

template <typename Derived> class OpContextBuilderBase {
public:
    // Attributes in the order of the op's definition (GetAttrs()->GetAttrPointer<T>(i) reads the i-th).
    Derived& AppendAttr(bool v) { return add([&](AttrValue& a) { a.kind = AttrValue::BOOL; a.b = v; a.i = v; }); }
    Derived& AppendAttr(int64_t v) { return add([&](AttrValue& a) { a.kind = AttrValue::INT; a.i = v; }); }
    Derived& AppendAttr(float v) { return add([&](AttrValue& a) { a.kind = AttrValue::FLOAT; a.f = v; }); }
    Derived& AppendAttr(const ge::AscendString& v) {
        return add([&](AttrValue& a) { a.kind = AttrValue::STR; a.s = v.GetString(); });
    }
    Derived& AppendAttr(const std::vector<int64_t>& v) {
        return add([&](AttrValue& a) { a.kind = AttrValue::LIST_INT; a.li.v_ = v; });
    }
    // a list of bools is read back as int64 values here (0 / 1)
    Derived& AppendAttr(const std::vector<bool>& v) {
        return add([&](AttrValue& a) { a.kind = AttrValue::LIST_INT; a.li.v_.assign(v.begin(), v.end()); });
    }
    Derived& AppendAttr(const std::vector<float>& v) {
        return add([&](AttrValue& a) { a.kind = AttrValue::LIST_FLOAT; a.lf.v_ = v; });
    }
    // a list of strings: the first one is what GetStr answers (no list-of-strings reader here)
    Derived& AppendAttr(const std::vector<ge::AscendString>& v) {
        return add([&](AttrValue& a) { a.kind = AttrValue::STR; a.s = v.empty() ? "" : v.front().GetString(); });
    }
    // a list of int lists: flattened into one int list (no nested-list reader here)
    Derived& AppendAttr(const std::vector<std::vector<int64_t>>& v) {
        return add([&](AttrValue& a) {
            a.kind = AttrValue::LIST_INT;
            for (const auto& row : v) a.li.v_.insert(a.li.v_.end(), row.begin(), row.end());
        });
    }


protected:
    template <typename F> Derived& add(F fill) {
        attrs_.v_.emplace_back();
        fill(attrs_.v_.back());
        return static_cast<Derived&>(*this);
    }
    RuntimeAttrs attrs_;
};

}  // namespace gert
