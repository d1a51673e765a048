// akgen sim host runner: runs an op_host TilingFunc on the shapes, dtypes and attributes of a run.
//
// Linked with the op_host source (compiled against our register/op_def_registry.h), whose OP_ADD recorded the op's
// attributes and TilingFunc. Usage: host_runner SPEC. Spec lines:
//   op NAME | aiv N | aic N | ub BYTES | l1 BYTES | soc 910b|310p
//   input NAME DT_x d0 d1 ... | output NAME DT_x d0 ... | attr NAME int|float|bool|str|list_int|list_float VALUE
// Consecutive input (output) lines with the same NAME are the tensors of one dynamic (list) input: one IR input with
// that many instances, as GetDynamicInputShape(ir, k) / GetComputeNodeInfo()->GetInputInstanceInfo(ir) see it.
// `absent NAME`: an optional input left out (an IR input with no instance).
// `infer`: run the op's InferShape / InferDataType (if registered) on the inputs before the TilingFunc and report the
// outputs they give (`"infer": {"shape": ok|failed|none, "dtype": ..., "outputs": [{"shape", "dtype"}]}`); the
// TilingFunc still sees the spec's output shapes, as CANN's sees the tensors the caller allocated. `infer_only`: the
// same without running the TilingFunc (an op with no TilingFunc is fine then).
// Prints one JSON object: status, block_dim, tiling_key, workspace sizes, tiling bytes (hex), message.
// Sandbox as for kernels: the spec is read in an init-priority-101 constructor, then rlimits and seccomp apply
// before any code of the op_host source runs.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__linux__) && defined(__x86_64__)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#define AKGEN_HAVE_SECCOMP 1
#endif

#include "register/op_def_registry.h"

namespace {

#include "sandbox.h"

struct HostState {
    std::string op;
    std::vector<std::string> lines;
    std::string error;
};
HostState& hs() { static HostState s; return s; }

std::vector<std::string> words(const std::string& s) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && s[i] == ' ') ++i;
        size_t j = i;
        while (j < s.size() && s[j] != ' ') ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

ge::DataType dtype_of(const std::string& s) {
    static const std::pair<const char*, ge::DataType> table[] = {
        {"DT_FLOAT", ge::DT_FLOAT}, {"DT_FLOAT16", ge::DT_FLOAT16}, {"DT_BF16", ge::DT_BF16}, {"DT_INT8", ge::DT_INT8},
        {"DT_UINT8", ge::DT_UINT8}, {"DT_INT16", ge::DT_INT16}, {"DT_UINT16", ge::DT_UINT16},
        {"DT_INT32", ge::DT_INT32}, {"DT_UINT32", ge::DT_UINT32}, {"DT_INT64", ge::DT_INT64},
        {"DT_UINT64", ge::DT_UINT64}, {"DT_DOUBLE", ge::DT_DOUBLE}, {"DT_BOOL", ge::DT_BOOL},
        {"DT_COMPLEX64", ge::DT_COMPLEX64}, {"DT_COMPLEX128", ge::DT_COMPLEX128},
    };
    for (const auto& [name, t] : table) {
        if (s == name) return t;
    }
    return ge::DT_UNDEFINED;
}

__attribute__((constructor(101))) void host_early(int argc, char** argv, char**) {
    if (argc < 2) {
        hs().error = "usage: host_runner SPEC";
        return;
    }
    FILE* f = std::fopen(argv[1], "rb");
    if (!f) {
        hs().error = std::string("cannot read the host spec ") + argv[1];
        return;
    }
    char buf[4096];
    std::string text;
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    std::fclose(f);
    size_t a = 0;
    while (a < text.size()) {
        size_t b = text.find('\n', a);
        if (b == std::string::npos) b = text.size();
        hs().lines.push_back(text.substr(a, b - a));
        a = b + 1;
    }
    set_limit(RLIMIT_CPU, 10);
    set_limit(RLIMIT_AS, 4ull << 30);
    set_limit(RLIMIT_FSIZE, 1 << 20);
    set_limit(RLIMIT_CORE, 0);
    try_unshare_net();
    install_seccomp();
}

void json_str(std::string& out, const std::string& s) {
    out += '"';
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) >= 0x20) out += c;
    }
    out += '"';
}

const char* dtype_name(ge::DataType t) {
    static const std::pair<const char*, ge::DataType> table[] = {
        {"DT_FLOAT", ge::DT_FLOAT}, {"DT_FLOAT16", ge::DT_FLOAT16}, {"DT_BF16", ge::DT_BF16}, {"DT_INT8", ge::DT_INT8},
        {"DT_UINT8", ge::DT_UINT8}, {"DT_INT16", ge::DT_INT16}, {"DT_UINT16", ge::DT_UINT16},
        {"DT_INT32", ge::DT_INT32}, {"DT_UINT32", ge::DT_UINT32}, {"DT_INT64", ge::DT_INT64},
        {"DT_UINT64", ge::DT_UINT64}, {"DT_DOUBLE", ge::DT_DOUBLE}, {"DT_BOOL", ge::DT_BOOL},
        {"DT_COMPLEX64", ge::DT_COMPLEX64}, {"DT_COMPLEX128", ge::DT_COMPLEX128},
    };
    for (const auto& [name, v] : table) {
        if (v == t) return name;
    }
    return nullptr;
}

// The op's InferShape and InferDataType on the context's inputs and attributes: the "infer" member of the result.
std::string run_inference(gert::TilingContext& ctx, const ops::InferShapeFunc& shape_fn,
                          const ops::InferDataTypeFunc& dtype_fn) {
    const gert::ComputeNodeInfo* node = ctx.GetComputeNodeInfo();
    gert::InferShapeContext sc;
    sc.node_ = node;
    for (const gert::Tensor& t : ctx.inputs_) sc.inputs_.push_back(t.GetOriginShape());
    sc.outputs_.resize(ctx.outputs_.size());
    sc.attrs_ = &ctx.attrs_;
    sc.tensors_ = &ctx.inputs_;
    gert::InferDataTypeContext dc;
    dc.node_ = node;
    for (const gert::CompileTimeTensorDesc& d : ctx.in_desc_) dc.inputs_.push_back(d.dtype_);
    dc.outputs_.assign(ctx.outputs_.size(), ge::DT_UNDEFINED);
    dc.attrs_ = &ctx.attrs_;
    const char* shape_st = "none";
    const char* dtype_st = "none";
    if (shape_fn) shape_st = shape_fn(&sc) == ge::GRAPH_SUCCESS ? "ok" : "failed";
    if (dtype_fn) dtype_st = dtype_fn(&dc) == ge::GRAPH_SUCCESS ? "ok" : "failed";
    std::string out = "{\"shape\":\"";
    out += shape_st;
    out += "\",\"dtype\":\"";
    out += dtype_st;
    out += "\",\"outputs\":[";
    for (size_t i = 0; i < sc.outputs_.size(); ++i) {
        out += i ? ",{\"shape\":" : "{\"shape\":";
        if (shape_fn) {
            out += "[";
            const gert::Shape& s = sc.outputs_[i];
            for (size_t d = 0; d < s.GetDimNum(); ++d) out += (d ? "," : "") + std::to_string(s.GetDim(d));
            out += "]";
        } else {
            out += "null";
        }
        out += ",\"dtype\":";
        const char* dt = dtype_fn ? dtype_name(dc.outputs_[i]) : nullptr;
        if (dt) json_str(out, dt);
        else out += "null";
        out += "}";
    }
    out += "]}";
    return out;
}

}  // namespace

int main() {
    std::string out = "{";
    if (!hs().error.empty()) {
        out += "\"status\":\"error\",\"message\":";
        json_str(out, hs().error);
        std::printf("%s}\n", out.c_str());
        return 2;
    }
    gert::TilingContext ctx;
    std::vector<std::pair<std::string, gert::AttrValue>> attrs;
    platform_ascendc::PlatformProfile& prof = platform_ascendc::platform_profile();
    std::string op;
    bool infer = false, infer_only = false;
    std::string last_in = "\n", last_out = "\n";  // the previous input/output line's name (no name has a newline)
    for (const std::string& line : hs().lines) {
        auto w = words(line);
        if (w.empty()) continue;
        if (w[0] == "op" && w.size() > 1) op = w[1];
        else if (w[0] == "infer" || w[0] == "infer_only") {
            infer = true;
            infer_only = infer_only || w[0] == "infer_only";
        }
        else if (w[0] == "aiv" && w.size() > 1) prof.aiv = static_cast<uint32_t>(std::atoi(w[1].c_str()));
        else if (w[0] == "aic" && w.size() > 1) prof.aic = static_cast<uint32_t>(std::atoi(w[1].c_str()));
        else if (w[0] == "ub" && w.size() > 1) prof.ub = std::strtoull(w[1].c_str(), nullptr, 10);
        else if (w[0] == "l1" && w.size() > 1) prof.l1 = std::strtoull(w[1].c_str(), nullptr, 10);
        else if (w[0] == "soc" && w.size() > 1 && w[1] == "310p") prof.soc = platform_ascendc::SocVersion::ASCEND310P;
        else if ((w[0] == "input" || w[0] == "output") && w.size() >= 3) {
            gert::Tensor t;
            t.dtype_ = dtype_of(w[2]);
            std::vector<int64_t> dims;
            for (size_t i = 3; i < w.size(); ++i) dims.push_back(std::strtoll(w[i].c_str(), nullptr, 10));
            t.shape_ = gert::StorageShape(gert::Shape(dims));
            gert::CompileTimeTensorDesc d;
            d.dtype_ = t.dtype_;
            bool in = w[0] == "input";
            auto& tensors = in ? ctx.inputs_ : ctx.outputs_;
            auto& ir = in ? ctx.ir_in_ : ctx.ir_out_;
            std::string& last = in ? last_in : last_out;
            if (w[1] == last && !ir.empty()) {
                ++ir.back().num_;
            } else {
                ir.emplace_back(tensors.size(), 1);
            }
            last = w[1];
            tensors.push_back(t);
            (in ? ctx.in_desc_ : ctx.out_desc_).push_back(d);
        } else if (w[0] == "absent" && w.size() >= 2) {
            // An optional input the call leaves out: an IR input with no instance, as CANN builds the node (its
            // GetOptionalInputShape/Desc/Tensor are nullptr; the next inputs' instance indices do not count it).
            ctx.ir_in_.emplace_back(ctx.inputs_.size(), 0);
            last_in = "\n";
        } else if (w[0] == "data" && w.size() >= 3 && !ctx.inputs_.empty()) {
            // "data NAME HEX": the values of the input just declared (small inputs only)
            auto& bytes = ctx.inputs_.back().data_;
            for (size_t i = 0; i + 1 < w[2].size(); i += 2) {
                bytes.push_back(static_cast<uint8_t>(std::strtoul(w[2].substr(i, 2).c_str(), nullptr, 16)));
            }
        } else if (w[0] == "attr" && w.size() >= 3) {
            gert::AttrValue v;
            std::string val = w.size() > 3 ? w[3] : "";
            if (w[2] == "int") { v.kind = gert::AttrValue::INT; v.i = std::strtoll(val.c_str(), nullptr, 10); }
            else if (w[2] == "float") { v.kind = gert::AttrValue::FLOAT; v.f = std::strtof(val.c_str(), nullptr); }
            else if (w[2] == "bool") { v.kind = gert::AttrValue::BOOL; v.b = val == "1" || val == "true"; }
            else if (w[2] == "str") { v.kind = gert::AttrValue::STR; v.s = val; }
            else if (w[2] == "list_int" || w[2] == "list_float") {
                bool is_int = w[2] == "list_int";
                v.kind = is_int ? gert::AttrValue::LIST_INT : gert::AttrValue::LIST_FLOAT;
                const char* p = val.c_str();
                while (*p) {
                    if (is_int) v.li.v_.push_back(std::strtoll(p, nullptr, 10));
                    else v.lf.v_.push_back(std::strtof(p, nullptr));
                    const char* c = std::strchr(p, ',');
                    if (!c) break;
                    p = c + 1;
                }
            }
            attrs.emplace_back(w[1], v);
        }
    }
    {  // fe::PlatFormInfos (the TilingFunc's GetPlatformInfo()) answers from the same profile
        fe::PlatformFigures& f = fe::platform_figures();
        f.cores = prof.aiv;
        f.mem[static_cast<int>(fe::LocalMemType::L0_A)] = prof.l0a;
        f.mem[static_cast<int>(fe::LocalMemType::L0_B)] = prof.l0b;
        f.mem[static_cast<int>(fe::LocalMemType::L0_C)] = prof.l0c;
        f.mem[static_cast<int>(fe::LocalMemType::L1)] = prof.l1;
        f.mem[static_cast<int>(fe::LocalMemType::L2)] = prof.l2;
        f.mem[static_cast<int>(fe::LocalMemType::UB)] = prof.ub;
        f.mem[static_cast<int>(fe::LocalMemType::HBM)] = prof.hbm;
    }
    auto& reg = ops::op_registry();
    ops::OpInfo* info = nullptr;
    for (auto& o : reg) {
        if (op.empty() || o.name == op) info = &o;
    }
    // IMPL_OP_OPTILING(Op).Tiling(f) registers the TilingFunc apart from the OpDef.
    ops::OpInfo from_impl;
    for (const auto& impl : ops::impl_registry()) {
        if (impl.tiling == nullptr || (!op.empty() && impl.name != op)) continue;
        if (info != nullptr && info->name == impl.name && info->tiling == nullptr) info->tiling = impl.tiling;
        if (info == nullptr) {
            from_impl.name = impl.name;
            from_impl.tiling = impl.tiling;
            info = &from_impl;
        }
    }
    // IMPL_OP_INFERSHAPE(Op).InferShape(f).InferDataType(g): the inference registered apart from the OpDef.
    for (const auto& impl : ops::impl_registry()) {
        if (info == nullptr || impl.name != info->name) continue;
        if (!info->infer_shape && impl.infer_shape) info->infer_shape = impl.infer_shape;
        if (!info->infer_dtype && impl.infer_dtype) info->infer_dtype = impl.infer_dtype;
    }
    if (info == nullptr || (info->tiling == nullptr && !infer_only)) {
        out += "\"status\":\"error\",\"message\":";
        json_str(out, info ? "the op's OpDef has no AICore().SetTiling(...)" :
                             "no OP_ADD(...) op definition was found in the op_host source");
        std::printf("%s}\n", out.c_str());
        return 0;
    }
    ctx.name_ = info->name;
    ctx.attrs_.v_ = info->attr_defaults;
    // By name; a name that matches no attribute exactly matches one that differs only in case and underscores (the
    // task's pybind says m_list where the OpDef says mList: the aclnn call passes attributes by position).
    auto folded = [](const std::string& s) {
        std::string f;
        for (char ch : s) {
            if (ch != '_') f += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        }
        return f;
    };
    for (const auto& [name, v] : attrs) {
        bool exact = false;
        for (size_t i = 0; i < info->attrs.size(); ++i) {
            if (info->attrs[i] == name) {
                ctx.attrs_.v_[i] = v;
                exact = true;
            }
        }
        for (size_t i = 0; i < info->attrs.size() && !exact; ++i) {
            if (folded(info->attrs[i]) == folded(name)) ctx.attrs_.v_[i] = v;
        }
    }
    std::string inferred;
    if (infer) inferred = ",\"infer\":" + run_inference(ctx, info->infer_shape, info->infer_dtype);
    if (infer_only) {
        out += "\"status\":\"ok\",\"op\":";
        json_str(out, info->name);
        out += inferred + "}";
        std::fflush(stdout);
        std::printf("\n@@AKGEN_HOST_RESULT@@%s\n", out.c_str());
        return 0;
    }
    ge::graphStatus st = info->tiling(&ctx);
    size_t size = ctx.tiling_.GetDataSize();
    if (size == 0) size = 4096;
    if (size > ctx.tiling_.GetCapacity()) size = ctx.tiling_.GetCapacity();
    out += "\"status\":";
    out += st == ge::GRAPH_SUCCESS ? "\"ok\"" : "\"failed\"";
    out += ",\"op\":";
    json_str(out, info->name);
    out += ",\"block_dim\":" + std::to_string(ctx.block_dim_);
    out += ",\"tiling_key\":" + std::to_string(ctx.key_);
    out += ",\"workspace\":[";
    for (size_t i = 0; i < ctx.workspace_.size(); ++i) out += (i ? "," : "") + std::to_string(ctx.workspace_[i]);
    out += "],\"tiling_size\":" + std::to_string(ctx.tiling_.GetDataSize()) + ",\"tiling_hex\":\"";
    static const char* hex = "0123456789abcdef";
    const uint8_t* p = static_cast<const uint8_t*>(ctx.tiling_.GetData());
    for (size_t i = 0; i < size; ++i) {
        out += hex[p[i] >> 4];
        out += hex[p[i] & 15];
    }
    out += "\"" + inferred + "}";
    std::fflush(stdout);
    std::printf("\n@@AKGEN_HOST_RESULT@@%s\n", out.c_str());
    return 0;
}
