# akgen sim toolkit: find_package(ASC) of CANN 9 (the ASC language: `project(x LANGUAGES ASC CXX)` builds `.asc`
# programs), for the CPU simulator: the ASC compiler is bin/akgen-asc.
include("${CMAKE_CURRENT_LIST_DIR}/akgen_common.cmake")
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}/asc_modules")
set(ASC_FOUND TRUE)
set(ASC_VERSION "akgen-sim")
