// twice's InferShape: not part of the kernel UT's build (this include does not exist on purpose).
#include "register/op_impl_registry_not_here.h"
