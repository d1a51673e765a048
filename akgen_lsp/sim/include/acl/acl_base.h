// akgen sim: acl/acl_base.h, the AscendCL base types (aclError, aclrtStream, aclFloat16): in acl.h here.
#pragma once
#include "acl.h"
