// What the precompiled header covers: the whole emulated API plus the standard headers kernels use.
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include "../kernel_operator.h"
#include "glue.h"
