// akgen sim: helpers for the generated glue that calls a kernel from the launcher (scalar and tiling arguments).
#pragma once

#include <cstdlib>
#include <cstring>
#include <string_view>

#include "types.h"

namespace akgen_sim {

template <typename T> inline T parse_scalar(const char* s) {
    if constexpr (std::is_same_v<T, bool>) return std::strtod(s, nullptr) != 0;
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) return static_cast<T>(std::strtoll(s, nullptr, 0));
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(std::strtoull(s, nullptr, 0));
    else return static_cast<T>(static_cast<float>(std::strtod(s, nullptr)));
}

// Assign "v" or "v1,v2,..." to a field (a scalar or an array of scalars).
template <typename F> inline void parse_into(F& field, const char* v) {
    if constexpr (std::is_array_v<F>) {
        using E = std::remove_extent_t<F>;
        size_t n = std::extent_v<F>;
        const char* p = v;
        for (size_t i = 0; i < n && p && *p; ++i) {
            field[i] = parse_scalar<E>(p);
            p = std::strchr(p, ',');
            if (p) ++p;
        }
    } else {
        field = parse_scalar<F>(v);
    }
}

// kv is "name=value;name=v1,v2;..."; calls f(name, value) for each.
template <typename Fn> inline void for_each_field(const char* kv, Fn&& f) {
    std::string_view s(kv);
    while (!s.empty()) {
        size_t semi = s.find(';');
        std::string_view item = s.substr(0, semi);
        size_t eq = item.find('=');
        if (eq != std::string_view::npos) {
            char buf[4096];
            std::string_view val = item.substr(eq + 1);
            size_t n = val.size() < sizeof buf - 1 ? val.size() : sizeof buf - 1;
            std::memcpy(buf, val.data(), n);
            buf[n] = 0;
            f(item.substr(0, eq), static_cast<const char*>(buf));
        }
        if (semi == std::string_view::npos) break;
        s.remove_prefix(semi + 1);
    }
}

}  // namespace akgen_sim
