// akgen sim: impl/dav_c220/kernel_operator_reg_others_impl.h (nothing further to declare here).
#pragma once
#include "../../kernel_operator.h"
