# The CCE compiler is taken as working once found (the NPU build is its test).
set(CMAKE_CCE_COMPILER_WORKS 1 CACHE INTERNAL "")
