# akgen sim toolkit: the ASC language's compiler is bin/akgen-asc (g++ through the simulator's program rewrite).
get_filename_component(_akgen_tk "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
set(CMAKE_ASC_COMPILER "${_akgen_tk}/bin/akgen-asc")
set(CMAKE_ASC_COMPILER_ID "AkgenSim")
set(CMAKE_ASC_COMPILER_VERSION "1")
configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in"
               "${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake" @ONLY)
set(CMAKE_ASC_COMPILER_ENV_VAR "ASCC")
