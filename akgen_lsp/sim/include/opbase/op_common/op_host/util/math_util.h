// akgen sim host side: the integer helpers of CANN's operator base library (util/math_util.h). One definition for
// both sides: the kernel side's constexpr helpers (op_kernel/math_util.h: divisions and alignments rounded up or
// down, a zero divisor or alignment gives 0, no trap), which host code uses as they are.
#include "../../../../op_kernel/math_util.h"
