// akgen sim: the AscendCL host runtime (aclInit, aclrtSetDevice, streams, aclrtMalloc / aclrtMemcpy / aclrtFree, ...)
// emulated for single-source `.asc` programs run by `akgen sim run-program`.
//
// Device memory is simulator GM: every aclrtMalloc buffer is registered as a GM region (akgen_sim::gm_regions), in
// 512-byte allocation steps with guard zones on both sides, so a kernel's out-of-bounds DataCopy / GetValue / SetValue
// is reported at its line, and a write that bypassed the API checks is found when the buffer is freed or after the
// launch. The host calls check what the runtime checks (sizes against destMax and the buffers, copy directions,
// device pointers, double frees) and report a finding at the caller's line besides returning the error code.
// Return codes are AscendCL's (ACL_SUCCESS = 0, ACL_ERROR_INVALID_PARAM = 100000, ...). One device, id 0; streams
// are ordered and launches complete before they return.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <source_location>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "runtime.h"
#include "program.h"

using aclrtEvent = void*;
using aclDataBuffer = void;

enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
};

enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
};

constexpr aclError ACL_ERROR_INVALID_PARAM = 100000;
constexpr aclError ACL_ERROR_UNINITIALIZE = 100001;
constexpr aclError ACL_ERROR_REPEAT_INITIALIZE = 100002;
constexpr aclError ACL_ERROR_BAD_ALLOC = 200000;
constexpr aclError ACL_ERROR_RT_PARAM_INVALID = 107000;
constexpr aclError ACL_ERROR_RT_INVALID_DEVICEID = 107001;
constexpr aclError ACL_ERROR_RT_MEMORY_ALLOCATION = 207001;
constexpr aclError ACL_ERROR_RT_AICORE_EXCEPTION = 507015;

namespace akgen_sim::acl {

using loc_t = std::source_location;
#define AKGEN_ACL_LOC const ::std::source_location& loc = ::std::source_location::current()

// A host-side finding (no block): one JSON line on the events file, at the caller's line.
inline void host_finding(const char* code, const char* severity, const std::string& msg, const loc_t& loc,
                         const char* api) {
    write_finding(code, severity, msg, loc, -1, "host", api);
}

inline aclError error(aclError code, const char* api, const std::string& msg, const loc_t& loc) {
    host_finding("SIM-ACL", "error", std::string(api) + ": " + msg + " (returns " + std::to_string(code) + ")", loc,
                 api);
    return code;
}

constexpr uint64_t kGuard = 4096;
constexpr uint8_t kGuardByte = 0xA5;

struct DevBuf {
    uint8_t* alloc = nullptr;  // guard | body (alloc_bytes, rounded to 32) | guard
    uint8_t* data = nullptr;
    uint64_t bytes = 0;        // what the program asked for
    uint64_t alloc_bytes = 0;  // rounded up to 512 bytes, as the NPU's allocator does
    int region = -1;
    bool live = false;
    unsigned line = 0;
};
struct HostBuf { uint8_t* data; uint64_t bytes; bool live; };

struct State {
    bool inited = false;
    bool device_set = false;
    int32_t device = 0;
    int streams = 0, contexts = 0;
    std::vector<DevBuf> dev;
    std::vector<HostBuf> host;
};
inline State& state() { static State s; return s; }

// The buffer holding `p`: the live one; with live_only false and none live, the one freed last there. Addresses are
// reused after a free, so a dead record may cover the same bytes as a live one: the live one always wins (else
// freeing a buffer that got a freed one's address would look like a double free).
inline DevBuf* find_dev(const void* p, bool live_only = true) {
    const uint8_t* q = static_cast<const uint8_t*>(p);
    auto& dev = state().dev;
    for (DevBuf& b : dev) {
        if (b.live && q >= b.data && q < b.data + b.alloc_bytes) return &b;
    }
    if (live_only) return nullptr;
    for (auto it = dev.rbegin(); it != dev.rend(); ++it) {
        if (q >= it->data && q < it->data + it->alloc_bytes) return &*it;
    }
    return nullptr;
}
inline HostBuf* find_host(const void* p) {
    const uint8_t* q = static_cast<const uint8_t*>(p);
    for (HostBuf& b : state().host) {
        if (b.live && q >= b.data && q < b.data + b.bytes) return &b;
    }
    return nullptr;
}

inline std::string buf_name(const DevBuf& b) {
    return "device buffer of " + std::to_string(b.bytes) + " bytes from aclrtMalloc at line " + std::to_string(b.line);
}

// initcheck of device memory: a range the host wrote (a copy, a memset), and one it reads back (a warning for bytes
// nothing wrote: on the NPU the host would get garbage there).
inline void dev_wrote(const void* p, size_t n) {
    DevBuf* b = find_dev(p);
    if (b == nullptr || b->region < 0) return;
    GmRegion& r = akgen_sim::gm_regions()[static_cast<size_t>(b->region)];
    if (r.init == nullptr) return;
    uint64_t off = static_cast<uint64_t>(static_cast<const uint8_t*>(p) - b->data);
    if (off < b->alloc_bytes) std::memset(r.init + off, 1, std::min<uint64_t>(n, b->alloc_bytes - off));
}
inline void dev_read_check(const void* p, size_t n, const char* api, const loc_t& loc) {
    DevBuf* b = find_dev(p);
    if (b == nullptr || b->region < 0) return;
    GmRegion& r = akgen_sim::gm_regions()[static_cast<size_t>(b->region)];
    uint64_t off = static_cast<uint64_t>(static_cast<const uint8_t*>(p) - b->data);
    uint64_t stop = std::min<uint64_t>(off + n, b->bytes);
    if (r.init == nullptr || off >= stop) return;
    const void* hole = std::memchr(r.init + off, 0, stop - off);
    if (hole == nullptr) return;
    uint64_t first = static_cast<uint64_t>(static_cast<const uint8_t*>(hole) - r.init), last = first;
    while (last < stop && r.init[last] == 0) ++last;
    host_finding("SIM-INIT-GM", "warning",
                 std::string(api) + " copies bytes [" + std::to_string(first) + ", " + std::to_string(last) +
                     ") of the " + buf_name(*b) + " that nothing wrote (initcheck: no kernel and no host copy wrote "
                     "them, so on the NPU they hold garbage)", loc, api);
    std::memset(r.init + off, 1, stop - off);
}

// Bytes around a device buffer changed: a write past it that bypassed the API checks. Checked after every launch
// (memcmp with a guard-filled page: a byte loop here was 30% of a small kernel's launch in a timing loop).
inline bool guard_bytes_intact(const uint8_t* p, uint64_t n) {
    static const auto* page = [] {
        auto* g = new std::array<uint8_t, kGuard>;
        g->fill(kGuardByte);
        return g;
    }();
    for (uint64_t i = 0; i < n; i += kGuard) {
        if (std::memcmp(p + i, page->data(), std::min<uint64_t>(kGuard, n - i)) != 0) return false;
    }
    return true;
}
inline bool guard_intact(const DevBuf& b) {
    uint64_t body = (b.alloc_bytes + 31) / 32 * 32;
    return guard_bytes_intact(b.alloc, kGuard) &&
           guard_bytes_intact(b.data + b.alloc_bytes, body + kGuard - b.alloc_bytes);
}


// Every live buffer's guard zones, after a launch: a finding per damaged buffer (then the guard is restored, so it
// is reported once).
inline void check_guards(const loc_t& loc) {
    for (DevBuf& b : state().dev) {
        if (!b.live || guard_intact(b)) continue;
        host_finding("SIM-GM-GUARD", "error",
                     "bytes just outside the " + buf_name(b) + " were overwritten by this launch: a write past the "
                     "buffer that bypassed the API checks (a raw pointer?)", loc, "launch");
        uint64_t body = (b.alloc_bytes + 31) / 32 * 32;
        std::memset(b.alloc, kGuardByte, kGuard);
        std::memset(b.data + b.alloc_bytes, kGuardByte, body - b.alloc_bytes + kGuard);
    }
}

// Is [p, p + n) inside one live device buffer (its requested bytes)? Reports and returns false when not.
inline bool check_dev_range(const void* p, size_t n, const char* api, const char* role, const loc_t& loc) {
    DevBuf* b = find_dev(p);
    if (b == nullptr) {
        DevBuf* dead = find_dev(p, false);
        error(ACL_ERROR_INVALID_PARAM, api, std::string("the ") + role + (dead ? " was freed by aclrtFree already"
                                                                              : " is not device memory from aclrtMalloc"),
              loc);
        return false;
    }
    uint64_t off = static_cast<uint64_t>(static_cast<const uint8_t*>(p) - b->data);
    if (off + n > b->bytes) {
        error(ACL_ERROR_INVALID_PARAM, api,
              std::string("the ") + role + " range [" + std::to_string(off) + ", " + std::to_string(off + n) +
                  ") is outside the " + buf_name(*b), loc);
        return false;
    }
    return true;
}

inline bool check_host_range(const void* p, size_t n, const char* api, const char* role, const loc_t& loc) {
    if (p == nullptr) {
        error(ACL_ERROR_INVALID_PARAM, api, std::string("the ") + role + " is a null pointer", loc);
        return false;
    }
    if (find_dev(p) != nullptr) {
        error(ACL_ERROR_INVALID_PARAM, api, std::string("the ") + role + " is device memory, but the copy kind says "
                                                                          "host memory (check the aclrtMemcpyKind)", loc);
        return false;
    }
    HostBuf* h = find_host(p);
    if (h != nullptr && static_cast<uint64_t>(static_cast<const uint8_t*>(p) - h->data) + n > h->bytes) {
        error(ACL_ERROR_INVALID_PARAM, api, std::string("the ") + role + " range is larger than its aclrtMallocHost "
                                                                          "buffer of " + std::to_string(h->bytes) +
                                                                          " bytes", loc);
        return false;
    }
    return true;
}

}  // namespace akgen_sim::acl

// ------------------------------------------------------------------------------------------------ AscendCL API

inline aclError aclInit(const char* configPath = nullptr, AKGEN_ACL_LOC) {
    (void)configPath;
    auto& s = akgen_sim::acl::state();
    if (s.inited) return akgen_sim::acl::error(ACL_ERROR_REPEAT_INITIALIZE, "aclInit", "aclInit was called twice", loc);
    s.inited = true;
    return ACL_SUCCESS;
}
inline aclError aclFinalize() {
    akgen_sim::acl::state().inited = false;
    return ACL_SUCCESS;
}
inline const char* aclGetRecentErrMsg() { return nullptr; }
inline aclError aclrtGetDeviceCount(uint32_t* count) {
    if (count) *count = 1;
    return ACL_SUCCESS;
}
inline aclError aclrtSetDevice(int32_t deviceId, AKGEN_ACL_LOC) {
    if (deviceId != 0) {
        return akgen_sim::acl::error(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice",
                                     "device " + std::to_string(deviceId) + " does not exist (the simulator has one "
                                                                            "device, id 0)", loc);
    }
    auto& s = akgen_sim::acl::state();
    s.device_set = true;
    s.device = deviceId;
    return ACL_SUCCESS;
}
inline aclError aclrtGetDevice(int32_t* deviceId) {
    if (deviceId) *deviceId = akgen_sim::acl::state().device;
    return ACL_SUCCESS;
}
inline aclError aclrtResetDevice(int32_t deviceId) {
    (void)deviceId;
    akgen_sim::acl::state().device_set = false;
    return ACL_SUCCESS;
}
inline aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId, AKGEN_ACL_LOC) {
    if (context == nullptr) return akgen_sim::acl::error(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext", "context is null", loc);
    (void)deviceId;
    static int tag = 0;
    *context = &tag;
    ++akgen_sim::acl::state().contexts;
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyContext(aclrtContext context) {
    (void)context;
    --akgen_sim::acl::state().contexts;
    return ACL_SUCCESS;
}
inline aclError aclrtSetCurrentContext(aclrtContext context) {
    (void)context;
    return ACL_SUCCESS;
}
inline aclError aclrtCreateStream(aclrtStream* stream, AKGEN_ACL_LOC) {
    if (stream == nullptr) return akgen_sim::acl::error(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream", "stream is null", loc);
    static int tag = 0;
    *stream = &tag;
    ++akgen_sim::acl::state().streams;
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyStream(aclrtStream stream) {
    (void)stream;
    --akgen_sim::acl::state().streams;
    return ACL_SUCCESS;
}
// Launches ran to completion already; a launch with a failed block makes the next synchronisation fail, as an AI Core
// exception does on the NPU.
inline aclError aclrtSynchronizeStream(aclrtStream stream) {
    (void)stream;
    int64_t& errs = akgen_sim::program_stream_errors();
    if (errs > 0) {
        errs = 0;
        return ACL_ERROR_RT_AICORE_EXCEPTION;
    }
    return ACL_SUCCESS;
}
inline aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
    (void)timeout;
    return aclrtSynchronizeStream(stream);
}
inline aclError aclrtSynchronizeDevice() { return aclrtSynchronizeStream(nullptr); }

inline aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy = ACL_MEM_MALLOC_HUGE_FIRST,
                            AKGEN_ACL_LOC) {
    (void)policy;
    using namespace akgen_sim::acl;
    if (devPtr == nullptr) return error(ACL_ERROR_INVALID_PARAM, "aclrtMalloc", "devPtr is null", loc);
    if (size == 0) return error(ACL_ERROR_INVALID_PARAM, "aclrtMalloc", "size is 0", loc);
    DevBuf b;
    b.bytes = size;
    b.alloc_bytes = (size + 511) / 512 * 512;
    uint64_t body = (b.alloc_bytes + 31) / 32 * 32;
    b.alloc = static_cast<uint8_t*>(std::aligned_alloc(4096, (kGuard + body + kGuard + 4095) / 4096 * 4096));
    if (b.alloc == nullptr) {
        return error(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMalloc",
                     "cannot allocate " + std::to_string(size) + " bytes of device memory", loc);
    }
    b.data = b.alloc + kGuard;
    std::memset(b.alloc, kGuardByte, kGuard);
    std::memset(b.data, 0, b.alloc_bytes);
    std::memset(b.data + b.alloc_bytes, kGuardByte, body - b.alloc_bytes + kGuard);
    b.line = loc.line();
    b.live = true;
    auto& regions = akgen_sim::gm_regions();
    b.region = static_cast<int>(regions.size());
    // initcheck: device memory holds nothing defined until a copy, a memset or a kernel writes it
    uint8_t* init = akgen_sim::cfg().sanitize ? static_cast<uint8_t*>(std::calloc(b.alloc_bytes, 1)) : nullptr;
    regions.push_back({b.data, b.alloc_bytes, akgen_sim::keep_name("aclrtMalloc@" + std::to_string(loc.line())), b.bytes, init});
    state().dev.push_back(b);
    *devPtr = b.data;
    return ACL_SUCCESS;
}

inline aclError aclrtFree(void* devPtr, AKGEN_ACL_LOC) {
    using namespace akgen_sim::acl;
    if (devPtr == nullptr) return error(ACL_ERROR_INVALID_PARAM, "aclrtFree", "devPtr is null", loc);
    DevBuf* b = find_dev(devPtr, false);
    if (b == nullptr || b->data != devPtr) {
        return error(ACL_ERROR_INVALID_PARAM, "aclrtFree", "the pointer was not returned by aclrtMalloc", loc);
    }
    if (!b->live) return error(ACL_ERROR_INVALID_PARAM, "aclrtFree", "the buffer was freed already (double free)", loc);
    if (!guard_intact(*b)) {
        host_finding("SIM-GM-GUARD", "error",
                     "bytes just outside the " + buf_name(*b) + " were overwritten: a write past the buffer that "
                     "bypassed the API checks (a raw pointer?)", loc, "aclrtFree");
    }
    b->live = false;
    auto& r = akgen_sim::gm_regions()[static_cast<size_t>(b->region)];
    std::free(r.init);
    r.init = nullptr;
    r.base = nullptr;
    r.bytes = 0;
    r.logical = 0;
    std::free(b->alloc);
    b->alloc = nullptr;
    return ACL_SUCCESS;
}

inline aclError aclrtMallocHost(void** hostPtr, size_t size, AKGEN_ACL_LOC) {
    using namespace akgen_sim::acl;
    if (hostPtr == nullptr) return error(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost", "hostPtr is null", loc);
    if (size == 0) return error(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost", "size is 0", loc);
    auto* p = static_cast<uint8_t*>(std::aligned_alloc(64, (size + 63) / 64 * 64));
    if (p == nullptr) {
        return error(ACL_ERROR_BAD_ALLOC, "aclrtMallocHost", "cannot allocate " + std::to_string(size) + " bytes", loc);
    }
    std::memset(p, 0, size);
    state().host.push_back({p, size, true});
    *hostPtr = p;
    return ACL_SUCCESS;
}

inline aclError aclrtFreeHost(void* hostPtr, AKGEN_ACL_LOC) {
    using namespace akgen_sim::acl;
    if (hostPtr == nullptr) return error(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost", "hostPtr is null", loc);
    bool freed_before = false;  // a freed record at this address: its memory may have been handed out again
    for (HostBuf& h : state().host) {
        if (h.data != hostPtr) continue;
        if (!h.live) {
            freed_before = true;
            continue;
        }
        h.live = false;
        std::free(h.data);
        return ACL_SUCCESS;
    }
    if (freed_before) {
        return error(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost", "the buffer was freed already (double free)", loc);
    }
    return error(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost", "the pointer was not returned by aclrtMallocHost", loc);
}

inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                            AKGEN_ACL_LOC) {
    using namespace akgen_sim::acl;
    if (count > destMax) {
        return error(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy",
                     "count " + std::to_string(count) + " is larger than destMax " + std::to_string(destMax), loc);
    }
    if (count == 0) return ACL_SUCCESS;
    bool dst_dev = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    bool src_dev = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEVICE_TO_DEVICE) {
        return error(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy", "unknown copy kind " + std::to_string(int(kind)), loc);
    }
    bool ok = dst_dev ? check_dev_range(dst, destMax < count ? destMax : count, "aclrtMemcpy", "destination", loc)
                      : check_host_range(dst, count, "aclrtMemcpy", "destination", loc);
    ok = ok && (src_dev ? check_dev_range(src, count, "aclrtMemcpy", "source", loc)
                        : check_host_range(src, count, "aclrtMemcpy", "source", loc));
    if (!ok) return ACL_ERROR_INVALID_PARAM;
    if (src_dev) dev_read_check(src, count, "aclrtMemcpy", loc);
    std::memmove(dst, src, count);
    if (dst_dev) dev_wrote(dst, count);
    return ACL_SUCCESS;
}

inline aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                                 aclrtStream stream, AKGEN_ACL_LOC) {
    (void)stream;
    return aclrtMemcpy(dst, destMax, src, count, kind, loc);
}

inline aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count, AKGEN_ACL_LOC) {
    using namespace akgen_sim::acl;
    if (count > maxCount) {
        return error(ACL_ERROR_INVALID_PARAM, "aclrtMemset",
                     "count " + std::to_string(count) + " is larger than maxCount " + std::to_string(maxCount), loc);
    }
    if (count == 0) return ACL_SUCCESS;
    if (find_dev(devPtr) != nullptr && !check_dev_range(devPtr, count, "aclrtMemset", "destination", loc)) {
        return ACL_ERROR_INVALID_PARAM;
    }
    std::memset(devPtr, value, count);
    dev_wrote(devPtr, count);
    return ACL_SUCCESS;
}

inline aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream,
                                 AKGEN_ACL_LOC) {
    (void)stream;
    return aclrtMemset(devPtr, maxCount, value, count, loc);
}
