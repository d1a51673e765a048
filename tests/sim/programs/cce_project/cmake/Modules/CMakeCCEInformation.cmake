# How CMake compiles and links CCE sources: ccec with the AI Core's arch and the LLVM options such projects pass.
include(CMakeCommonLanguageInclude)
set(CMAKE_INCLUDE_FLAG_CCE "-I")
set(CMAKE_CCE_COMPILE_OBJECT
    "<CMAKE_CCE_COMPILER> -xcce <DEFINES> <INCLUDES> <FLAGS> --cce-aicore-arch=dav-c220-vec --cce-auto-sync -mllvm -cce-aicore-stack-size=0x8000 -mllvm -cce-aicore-function-stack-size=0x8000 -o <OBJECT> -c <SOURCE>")
set(CMAKE_CCE_LINK_EXECUTABLE
    "<CMAKE_CCE_COMPILER> <FLAGS> <CMAKE_CCE_LINK_FLAGS> <LINK_FLAGS> --cce-fatobj-link <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
set(CMAKE_CCE_INFORMATION_LOADED 1)
