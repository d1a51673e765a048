// akgen sim host side: tiling/tiling_type.h of the CANN op repositories. Op host code includes it next to the tiling
// base class; the ops in use need nothing from it beyond the common tiling declarations.
#pragma once
#include "../register/tilingdata_base.h"
