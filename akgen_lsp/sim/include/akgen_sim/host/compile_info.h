// akgen sim host side: the op's compile info, as CANN keeps it. `IMPL_OP_OPTILING(Op).TilingParse<CompileInfo>(parse)`
// (or OpAICoreDef::SetTilingParse) registers the parse function and the CompileInfo type; before the first tiling the
// framework runs the parse function once on a gert::TilingParseContext, whose GetCompiledInfo<T>() is the object to
// fill (core count, UB size from the platform), and every gert::TilingContext::GetCompileInfo() then returns that same
// object. Here the parse runs lazily, the first time a TilingFunc asks for the compile info.
#pragma once

#include <functional>
#include <memory>

namespace akgen_sim::host {

struct CompileInfoState {
    std::shared_ptr<void> info;     // the op's CompileInfo object
    std::function<bool()> parse;    // runs the registered parse function; false when it returned a failure
    bool parsed = false;
    bool parse_ok = true;
};
inline CompileInfoState& compile_info_state() {
    static CompileInfoState s;
    return s;
}
// The compile info object of type T (created on first use; the registration creates it with the registered type).
template <typename T> inline T* compile_info_object() {
    CompileInfoState& s = compile_info_state();
    if (!s.info) s.info = std::make_shared<T>();
    return static_cast<T*>(s.info.get());
}
// The compile info after the parse function ran (once); nullptr when no op registered one.
inline void* compile_info_ready() {
    CompileInfoState& s = compile_info_state();
    if (!s.parsed && s.parse) {
        s.parsed = true;
        s.parse_ok = s.parse();
    }
    return s.info.get();
}

}  // namespace akgen_sim::host
