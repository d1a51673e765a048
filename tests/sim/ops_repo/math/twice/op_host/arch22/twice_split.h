// How twice splits its elements over the blocks (a header in a sub-folder of op_host/, included by name).
#pragma once
#include <cstdint>

constexpr uint32_t TWICE_BLOCKS = 2;
constexpr uint32_t TWICE_TILE = 64;
