// akgen sim: kernel_utils.h.
#pragma once
#include "kernel_operator.h"
