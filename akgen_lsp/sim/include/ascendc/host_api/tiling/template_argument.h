// akgen sim: the tiling-key templates (Utils API "Tiling模板编程"): an operator declares its template parameters
// once (ASCENDC_TPL_ARGS_DECL), the combinations it builds (ASCENDC_TPL_SEL / ASCENDC_TPL_ARGS_SEL), and its host
// TilingFunc encodes the chosen values into the tiling key (GET_TPL_TILING_KEY, ASCENDC_TPL_SEL_PARAM).
//
// Kernel side (a build that includes kernel_operator.h first, as every sim kernel build does, or one that defines
// ASCENDC_TPL_KERNEL as CANN's kernel build does): the declarations expand to nothing; the kernel is a template
// whose arguments the launch names (`acos<float>`, `kernel<1, 0>`), and TypeFromId<DT_X>::type maps a data-type
// parameter to its C++ type.
//
// Host side (and a kernel UT under __CCE_KT_TEST__, whose test encodes keys): the declarations are ParamStruct lists (g_tilingDeclareParams / g_tilingSelectParams), and the key is
// the parameters' codes side by side from bit 0 in declaration order, each in its bit width: a UINT parameter's code
// is the index of its value in the declared value list (a RANGE declaration [lo, hi] pairs expanded in order, a MIX
// one the ranges then the listed values); a DTYPE / FORMAT (8 bits) and a BOOL (1 bit) parameter's code is its value.
// A value that is not declared, or more than 64 bits of key, gives INVALID_TILING_KEY and an error line on stdout.
#ifndef AKGEN_SIM_TEMPLATE_ARGUMENT_H
#define AKGEN_SIM_TEMPLATE_ARGUMENT_H

#include <cstdint>

#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 4
#define ASCENDC_TPL_MIX_AIC_1_0 5
#define ASCENDC_TPL_MIX_AIC_1_1 6
#define ASCENDC_TPL_MIX_AIC_1_2 7
#define ASCENDC_TPL_AICORE 8
#define ASCENDC_TPL_VECTORCORE 9
#define ASCENDC_TPL_MIX_AICORE 10
#define ASCENDC_TPL_MIX_VECTOR_CORE 11
#define ASCENDC_TPL_MAX 12

#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8

// parameter kinds
#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
#define ASCENDC_TPL_KERNEL_TYPE 4
#define ASCENDC_TPL_DETERMINISTIC 5
#define ASCENDC_TPL_SHARED_KERNEL_TYPE 6

// a DATATYPE / FORMAT parameter that follows an input's or output's type
#define ASCENDC_TPL_INPUT_BIAS 100000000
#define ASCENDC_TPL_OUTPUT_BIAS 900000000
#define ASCENDC_TPL_INPUT(x) (ASCENDC_TPL_INPUT_BIAS + (x))
#define ASCENDC_TPL_OUTPUT(x) (ASCENDC_TPL_OUTPUT_BIAS + (x))

// how a UINT parameter lists its values
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2

#if defined(ASCENDC_TPL_KERNEL) || defined(AKGEN_SIM_KERNEL_OPERATOR_H)

#include "../../../graph/c_types.h"

template <int dataTypeId>
struct TypeFromId {
    using type = void;
};
template <> struct TypeFromId<C_DT_FLOAT> { using type = float; };
template <> struct TypeFromId<C_DT_FLOAT16> { using type = half; };
template <> struct TypeFromId<C_DT_BF16> { using type = bfloat16_t; };
template <> struct TypeFromId<C_DT_INT8> { using type = int8_t; };
template <> struct TypeFromId<C_DT_UINT8> { using type = uint8_t; };
template <> struct TypeFromId<C_DT_INT16> { using type = int16_t; };
template <> struct TypeFromId<C_DT_UINT16> { using type = uint16_t; };
template <> struct TypeFromId<C_DT_INT32> { using type = int32_t; };
template <> struct TypeFromId<C_DT_UINT32> { using type = uint32_t; };
template <> struct TypeFromId<C_DT_INT64> { using type = int64_t; };
template <> struct TypeFromId<C_DT_UINT64> { using type = uint64_t; };
template <> struct TypeFromId<C_DT_DOUBLE> { using type = double; };
template <> struct TypeFromId<C_DT_BOOL> { using type = bool; };

// A kernel UT (CANN's CPU debug, __CCE_KT_TEST__) computes its tiling keys in the test itself
// (`ICPU_SET_TILING_KEY(GET_TPL_TILING_KEY(...))`, after including the kernel): there the declarations are the host
// side's ParamStruct lists and GET_TPL_TILING_KEY encodes as on the host (below).
#if defined(__CCE_KT_TEST__)
#define AKGEN_TPL_ENCODER 1
#else
#define ASCENDC_TPL_DTYPE_DECL(...)
#define ASCENDC_TPL_DATATYPE_DECL(...)
#define ASCENDC_TPL_FORMAT_DECL(...)
#define ASCENDC_TPL_UINT_DECL(...)
#define ASCENDC_TPL_BOOL_DECL(...)
#define ASCENDC_TPL_KERNEL_TYPE_DECL(...)
#define ASCENDC_TPL_ARGS_DECL(...)
#endif
#define ASCENDC_TPL_DTYPE_SEL(...)
#define ASCENDC_TPL_DATATYPE_SEL(...)
#define ASCENDC_TPL_FORMAT_SEL(...)
#define ASCENDC_TPL_UINT_SEL(...)
#define ASCENDC_TPL_BOOL_SEL(...)
#define ASCENDC_TPL_TILING_STRUCT_SEL(...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_DETERMINISTIC_SEL(...)
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_ARGS_SEL(...)
#define ASCENDC_TPL_ARGS_DSEL(...)
#define ASCENDC_TPL_SEL(...)

#else  // host side
#define AKGEN_TPL_ENCODER 1
#endif  // kernel side

#ifdef AKGEN_TPL_ENCODER  // host side, and a kernel UT's test

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <utility>
#include <vector>

#include "../../../graph/c_types.h"

namespace akgen_sim_tpl {
constexpr uint64_t INVALID_KEY = 0xFFFFFFFFFFFFFFFFULL;
constexpr uint32_t MAX_KEY_BITS = 64;
}  // namespace akgen_sim_tpl

struct ParamStruct {
    const char* name;
    uint32_t paramType;
    uint8_t bitWidth;
    std::vector<uint64_t> vals;
    const char* macroType;
    ParamStruct(const char* inName, uint32_t inParamType, uint8_t inBitWidth, std::vector<uint64_t> inVals,
                const char* inMacroType)
        : name(inName), paramType(inParamType), bitWidth(inBitWidth), vals(std::move(inVals)), macroType(inMacroType) {
        if (paramType == ASCENDC_TPL_UINT) Expand();
    }
    // a UINT parameter's values as one list: LIST keeps them; RANGE (count, then [lo, hi] pairs) expands the pairs;
    // MIX expands its pairs, then appends the values after them
    void Expand() {
        if (vals.empty()) return;
        uint64_t how = vals[0];
        if (how == ASCENDC_TPL_UI_LIST) {
            vals.erase(vals.begin());
            return;
        }
        std::vector<uint64_t> out;
        size_t pairs = vals.size() > 1 ? static_cast<size_t>(vals[1]) : 0;
        size_t i = 2;
        for (size_t p = 0; p < pairs && i + 1 < vals.size(); ++p, i += 2) {
            for (uint64_t v = vals[i]; v <= vals[i + 1]; ++v) out.push_back(v);
        }
        if (how == ASCENDC_TPL_UI_MIX) {
            for (; i < vals.size(); ++i) out.push_back(vals[i]);
        }
        vals = std::move(out);
    }
};
using TilingDeclareParams = std::vector<ParamStruct>;
using TilingSelectParams = std::vector<std::vector<ParamStruct>>;

#define ASCENDC_TPL_DTYPE_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_FORMAT_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) ParamStruct{#x, ASCENDC_TPL_UINT, bw, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_BOOL_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...)                                                                          \
    ParamStruct{#x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_ARGS_DECL(x, ...) static TilingDeclareParams g_tilingDeclareParams{__VA_ARGS__}

// the selections only say which combinations are built: the encoding needs none of them
#define ASCENDC_TPL_DTYPE_SEL(...)
#define ASCENDC_TPL_DATATYPE_SEL(...)
#define ASCENDC_TPL_FORMAT_SEL(...)
#define ASCENDC_TPL_UINT_SEL(...)
#define ASCENDC_TPL_BOOL_SEL(...)
#define ASCENDC_TPL_TILING_STRUCT_SEL(...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_DETERMINISTIC_SEL(...)
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_ARGS_SEL(...)
#define ASCENDC_TPL_ARGS_DSEL(...)
#define ASCENDC_TPL_SEL(...)

namespace AscendC {
inline uint64_t FastEncodeTilingKeyDirect(const TilingDeclareParams& decl, std::initializer_list<uint64_t> args) {
    uint64_t key = 0;
    uint32_t bits = 0;
    auto arg = args.begin();
    for (size_t i = 0; i < decl.size() && arg != args.end(); ++i, ++arg) {
        const ParamStruct& p = decl[i];
        uint64_t code = *arg;
        if (p.paramType == ASCENDC_TPL_UINT) {
            auto it = std::find(p.vals.begin(), p.vals.end(), code);
            if (it == p.vals.end()) {
                std::printf("[ERROR] tiling key: the value %llu of template parameter %s is not one it declares "
                            "(ASCENDC_TPL_UINT_DECL)\n", static_cast<unsigned long long>(code), p.name);
                return akgen_sim_tpl::INVALID_KEY;
            }
            code = static_cast<uint64_t>(it - p.vals.begin());
        }
        if (bits < 64) key |= code << bits;
        bits += p.bitWidth;
    }
    if (bits > akgen_sim_tpl::MAX_KEY_BITS) {
        std::printf("[ERROR] tiling key: the template parameters need %u bits, more than %u\n", bits,
                    akgen_sim_tpl::MAX_KEY_BITS);
        return akgen_sim_tpl::INVALID_KEY;
    }
    return key;
}
}  // namespace AscendC

#define GET_TPL_TILING_KEY(...) AscendC::FastEncodeTilingKeyDirect(g_tilingDeclareParams, {__VA_ARGS__})
#define ASCENDC_TPL_SEL_PARAM(context, ...)                                                                           \
    do {                                                                                                               \
        uint64_t akgen_tpl_key_ = GET_TPL_TILING_KEY(__VA_ARGS__);                                                     \
        (context)->SetTilingKey(akgen_tpl_key_);                                                                       \
    } while (0)

#endif  // AKGEN_TPL_ENCODER
#endif
