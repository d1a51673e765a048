# akgen sim toolkit: bin/akgen-asc is g++ with the simulator's headers; nothing to test beyond the C++ compiler.
set(CMAKE_ASC_COMPILER_WORKS TRUE CACHE INTERNAL "")
