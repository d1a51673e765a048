// akgen sim host side: log/log.h (and op_common/log/log.h) of CANN's operator base library, which the TilingFuncs of
// ops-math and ops-nn include. Built on error/ops_error.h: debug and info logs are dropped, warnings and errors go to
// stderr. The check macros run their expression (a `return ge::GRAPH_FAILED`) when the condition holds, as the
// library documents; the report macros (OP_LOGE_FOR_INVALID_*) print their arguments as one error line.
//
// This folder (include/opbase) is searched after the op's own folders and the repository's include folders: a
// repository header of the same name (ops-nn's common/inc/op_host/tiling_util.h) wins.
#ifndef AKGEN_SIM_OPBASE_LOG_H
#define AKGEN_SIM_OPBASE_LOG_H

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "error/ops_error.h"
#include "register/op_def_registry.h"
#include "securec.h"  // memset_s / memcpy_s: CANN's log headers bring the secure C functions to op_host code

namespace Ops {
namespace Base {
// the name an op_host log line starts with: a context's node name, or the string given
template <typename T> inline std::string LogName(const T& v) {
    if constexpr (std::is_pointer_v<std::decay_t<T>> && !std::is_same_v<std::decay_t<T>, const char*> &&
                  !std::is_same_v<std::decay_t<T>, char*>) {
        if (v == nullptr) return "nil";
        const char* n = v->GetNodeName();
        return n ? n : "nil";
    } else {
        std::ostringstream s;
        s << v;
        return s.str();
    }
}
// a value as text (shapes as [d0, d1, ...], vectors likewise)
template <typename T> inline std::string ToString(const T& v) {
    std::ostringstream s;
    if constexpr (requires { v.GetDimNum(); v.GetDim(0); }) {
        s << "[";
        for (size_t i = 0; i < v.GetDimNum(); ++i) s << (i ? ", " : "") << v.GetDim(i);
        s << "]";
    } else if constexpr (requires { v.begin(); v.end(); } && !std::is_convertible_v<T, std::string>) {
        s << "[";
        bool first = true;
        for (const auto& e : v) {
            s << (first ? "" : ", ") << e;
            first = false;
        }
        s << "]";
    } else {
        s << v;
    }
    return s.str();
}
template <typename... A> inline void ReportError(const std::string& name, const char* what, const A&... args) {
    std::ostringstream s;
    ((s << " " << args), ...);
    std::fprintf(stderr, "[ERROR] %s: %s:%s\n", name.c_str(), what, s.str().c_str());
}
}  // namespace Base
}  // namespace Ops

#define AKGEN_OPBASE_ERR(name, ...) AKGEN_OPS_ERR(::Ops::Base::LogName(name).c_str(), __VA_ARGS__)
#undef OP_LOGE
#define OP_LOGE(name, ...) AKGEN_OPBASE_ERR(name, __VA_ARGS__)
#undef OP_LOGW
#define OP_LOGW(name, ...) AKGEN_OPBASE_ERR(name, __VA_ARGS__)
#ifndef OP_LOGE_WITHOUT_REPORT
#define OP_LOGE_WITHOUT_REPORT(name, ...) AKGEN_OPBASE_ERR(name, __VA_ARGS__)
#endif
#ifndef OP_EVENT
#define OP_EVENT(name, ...) AKGEN_OPS_NOLOG(name, __VA_ARGS__)
#endif
#ifndef OP_CHECK_IF
#define OP_CHECK_IF(cond, logExpr, retExpr)                                                                            \
    do {                                                                                                               \
        if (cond) {                                                                                                    \
            logExpr;                                                                                                   \
            retExpr;                                                                                                   \
        }                                                                                                              \
    } while (0)
#endif
#ifndef OPS_ERR_IF
#define OPS_ERR_IF(cond, logExpr, retExpr) OP_CHECK_IF(cond, logExpr, retExpr)
#endif
#ifndef OP_LOGE_IF
#define OP_LOGE_IF(cond, ret, name, ...)                                                                               \
    do {                                                                                                               \
        if (cond) {                                                                                                    \
            OP_LOGE(name, __VA_ARGS__);                                                                                \
            return ret;                                                                                                \
        }                                                                                                              \
    } while (0)
#endif
#ifndef OP_CHECK_NULL_WITH_CONTEXT
#define OP_CHECK_NULL_WITH_CONTEXT(context, ptr)                                                                       \
    do {                                                                                                               \
        if ((ptr) == nullptr) {                                                                                        \
            OP_LOGE(context, "%s is nullptr", #ptr);                                                                   \
            return ge::GRAPH_FAILED;                                                                                   \
        }                                                                                                              \
    } while (0)
#endif
#ifndef OPS_CHECK_NULL_WITH_CONTEXT_BOOL
#define OPS_CHECK_NULL_WITH_CONTEXT_BOOL(context, ptr)                                                                 \
    do {                                                                                                               \
        if ((ptr) == nullptr) {                                                                                        \
            OP_LOGE(context, "%s is nullptr", #ptr);                                                                   \
            return false;                                                                                              \
        }                                                                                                              \
    } while (0)
#endif
#ifndef OP_CHECK_NULL
#define OP_CHECK_NULL(ptr, retExpr)                                                                                    \
    do {                                                                                                               \
        if ((ptr) == nullptr) {                                                                                        \
            std::fprintf(stderr, "[ERROR] %s is nullptr\n", #ptr);                                                     \
            retExpr;                                                                                                   \
        }                                                                                                              \
    } while (0)
#endif
// the reports of invalid inputs: one error line with the entity and the arguments (the library also files them with
// the error manager, which the simulator has not)
#define AKGEN_OPBASE_REPORT(what, name, ...) ::Ops::Base::ReportError(::Ops::Base::LogName(name), what, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_VALUE(name, ...) AKGEN_OPBASE_REPORT("invalid value", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_VALUES(name, ...) AKGEN_OPBASE_REPORT("invalid values", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_VALUE_WITH_REASON(name, ...) AKGEN_OPBASE_REPORT("invalid value", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_VALUES_WITH_REASON(name, ...) AKGEN_OPBASE_REPORT("invalid values", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_DTYPE(name, ...) AKGEN_OPBASE_REPORT("invalid dtype", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_DTYPES(name, ...) AKGEN_OPBASE_REPORT("invalid dtypes", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_DTYPE_WITH_REASON(name, ...) AKGEN_OPBASE_REPORT("invalid dtype", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_DTYPES_WITH_REASON(name, ...) AKGEN_OPBASE_REPORT("invalid dtypes", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPE(name, ...) AKGEN_OPBASE_REPORT("invalid shape", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPES(name, ...) AKGEN_OPBASE_REPORT("invalid shapes", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPE_WITH_REASON(name, ...) AKGEN_OPBASE_REPORT("invalid shape", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPES_WITH_REASON(name, ...) AKGEN_OPBASE_REPORT("invalid shapes", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPEDIM(name, ...) AKGEN_OPBASE_REPORT("invalid shape dim", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPEDIMS(name, ...) AKGEN_OPBASE_REPORT("invalid shape dims", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPEDIM_WITH_REASON(name, ...) AKGEN_OPBASE_REPORT("invalid shape dim", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPEDIMS_WITH_REASON(name, ...) AKGEN_OPBASE_REPORT("invalid shape dims", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPESIZE(name, ...) AKGEN_OPBASE_REPORT("invalid shape size", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPESIZES(name, ...) AKGEN_OPBASE_REPORT("invalid shape sizes", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPESIZE_WITH_REASON(name, ...) AKGEN_OPBASE_REPORT("invalid shape size", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPESIZES_WITH_REASON(name, ...) AKGEN_OPBASE_REPORT("invalid shape sizes", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_FORMAT(name, ...) AKGEN_OPBASE_REPORT("invalid format", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_FORMATS(name, ...) AKGEN_OPBASE_REPORT("invalid formats", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_FORMAT_WITH_REASON(name, ...) AKGEN_OPBASE_REPORT("invalid format", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_FORMATS_WITH_REASON(name, ...) AKGEN_OPBASE_REPORT("invalid formats", name, __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_LISTSIZE(name, ...) AKGEN_OPBASE_REPORT("invalid list size", name, __VA_ARGS__)
#define OP_LOGE_WITH_INVALID_ATTR(name, ...) AKGEN_OPBASE_REPORT("invalid attribute", name, __VA_ARGS__)
#define OP_LOGE_WITH_INVALID_ATTR_SIZE(name, ...) AKGEN_OPBASE_REPORT("invalid attribute size", name, __VA_ARGS__)
#define OP_LOGE_WITH_INVALID_INPUT(name, ...) AKGEN_OPBASE_REPORT("invalid input", name, __VA_ARGS__)
#define OP_LOGE_WITH_INVALID_INPUT_SHAPE(name, ...) AKGEN_OPBASE_REPORT("invalid input shape", name, __VA_ARGS__)
#define OP_LOGE_WITH_INVALID_INPUT_SHAPESIZE(name, ...) AKGEN_OPBASE_REPORT("invalid input shape size", name, __VA_ARGS__)
#define OP_LOGE_WITH_INVALID_INPUT_FORMAT(name, ...) AKGEN_OPBASE_REPORT("invalid input format", name, __VA_ARGS__)
#define OP_LOGE_WITH_INVALID_INPUT_DTYPE(name, ...) AKGEN_OPBASE_REPORT("invalid input dtype", name, __VA_ARGS__)

#endif
