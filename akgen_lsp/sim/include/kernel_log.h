// akgen sim: kernel_log.h, the CPU-debug logging header that kernel UT headers include by this bare name (ops-nn's
// relu_v3_tiling_def.h, ops-math's eye/tril/triu tiling headers, under ASCENDC_CPU_DEBUG).
// It brings the device keywords (__aicore__, __gm__: those headers use them before kernel_operator.h).
// KERNEL_LOG(level, format, ...) prints one line to stderr in the CPU-debug build, with the level's name
// (KERNEL_DEBUG, KERNEL_INFO, KERNEL_WARN, KERNEL_ERROR), file and line; elsewhere it is empty, as in a device
// build. ASCENDC_ASSERT stays the simulator's one definition (akgen_sim/cann9_misc.h: not
// checked, as in a device build), whichever of the two headers comes first.
#pragma once

#include <cstdio>
#include <string>

#include "akgen_sim/types.h"

#if defined(ASCENDC_CPU_DEBUG) || defined(__CCE_KT_TEST__)
#ifndef KERNEL_LOG
#define KERNEL_LOG(level, format, ...) KERNEL_LOG_##level(format, ##__VA_ARGS__)
#define AKGEN_KERNEL_LOG_LINE(name, format, ...) \
    std::fprintf(stderr, "[" name "] %s:%d " format "\n", __FILE__, __LINE__, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_DEBUG(format, ...) AKGEN_KERNEL_LOG_LINE("DEBUG", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_INFO(format, ...) AKGEN_KERNEL_LOG_LINE("INFO", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_WARN(format, ...) AKGEN_KERNEL_LOG_LINE("WARN", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_ERROR(format, ...) AKGEN_KERNEL_LOG_LINE("ERROR", format, ##__VA_ARGS__)
#endif
#endif
#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, behavior)
#endif
