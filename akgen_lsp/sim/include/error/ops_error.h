// akgen sim host side: error/ops_error.h of the CANN op repositories: the logging and checking macros of op_host code.
// Debug and info logs are dropped, warnings and errors go to stderr; the CHECK macros run their expression (usually a
// `return ge::GRAPH_FAILED`) when the condition holds, as CANN's do. Each macro is defined only if the op did not
// define its own.
#pragma once

#include <cstdio>

#include "../akgen_sim/host/graph.h"

#define AKGEN_OPS_ERR(name, ...) (std::fprintf(stderr, "[ERROR] %s: ", static_cast<const char*>(name)), \
                                  std::fprintf(stderr, __VA_ARGS__), std::fprintf(stderr, "\n"))
#define AKGEN_OPS_NOLOG(name, ...) ((void)(name))

#ifndef OPS_LOG_D
#define OPS_LOG_D(name, ...) AKGEN_OPS_NOLOG(name, __VA_ARGS__)
#endif
#ifndef OPS_LOG_I
#define OPS_LOG_I(name, ...) AKGEN_OPS_NOLOG(name, __VA_ARGS__)
#endif
#ifndef OPS_LOG_W
#define OPS_LOG_W(name, ...) AKGEN_OPS_ERR(name, __VA_ARGS__)
#endif
#ifndef OPS_LOG_E
#define OPS_LOG_E(name, ...) AKGEN_OPS_ERR(name, __VA_ARGS__)
#endif
#ifndef OP_LOGD
#define OP_LOGD(name, ...) AKGEN_OPS_NOLOG(name, __VA_ARGS__)
#endif
#ifndef OP_LOGI
#define OP_LOGI(name, ...) AKGEN_OPS_NOLOG(name, __VA_ARGS__)
#endif
#ifndef OP_LOGW
#define OP_LOGW(name, ...) AKGEN_OPS_ERR(name, __VA_ARGS__)
#endif
#ifndef OP_LOGE
#define OP_LOGE(name, ...) AKGEN_OPS_ERR(name, __VA_ARGS__)
#endif
#ifndef OPS_REPORT_VECTOR_INNER_ERR
#define OPS_REPORT_VECTOR_INNER_ERR(name, ...) AKGEN_OPS_ERR(name, __VA_ARGS__)
#endif
#ifndef VECTOR_INNER_ERR_REPORT_TILIING
#define VECTOR_INNER_ERR_REPORT_TILIING(name, ...) AKGEN_OPS_ERR(name, __VA_ARGS__)
#endif
#ifndef VECTOR_INFER_SHAPE_INNER_ERR_REPORT
#define VECTOR_INFER_SHAPE_INNER_ERR_REPORT(name, msg) AKGEN_OPS_ERR(name, "%s", msg)
#endif
#ifndef OPS_CHECK
#define OPS_CHECK(cond, log_func, expr) \
    do {                                \
        if (cond) {                     \
            log_func;                   \
            expr;                       \
        }                               \
    } while (0)
#endif
#ifndef OP_CHECK
#define OP_CHECK(cond, log_func, expr) OPS_CHECK(cond, log_func, expr)
#endif
#ifndef OP_TILING_CHECK
#define OP_TILING_CHECK(cond, log_func, expr) OPS_CHECK(cond, log_func, expr)
#endif
#ifndef OPS_LOG_E_IF_NULL
#define OPS_LOG_E_IF_NULL(context, ptr, expr)                                  \
    do {                                                                       \
        if ((ptr) == nullptr) {                                                \
            AKGEN_OPS_ERR((context)->GetNodeName(), "%s is nullptr", #ptr);    \
            expr;                                                              \
        }                                                                      \
    } while (0)
#endif
#ifndef OPS_CHECK_NULL_WITH_CONTEXT
#define OPS_CHECK_NULL_WITH_CONTEXT(context, ptr) OPS_LOG_E_IF_NULL(context, ptr, return ge::GRAPH_FAILED)
#endif
#ifndef OPS_CHECK_NULL_WITH_CONTEXT_RET
#define OPS_CHECK_NULL_WITH_CONTEXT_RET(context, ptr, ret) OPS_LOG_E_IF_NULL(context, ptr, return ret)
#endif
