# Finds ccec, the CCE compiler of the CANN install (or on PATH), and writes the language's compiler file.
find_program(CMAKE_CCE_COMPILER NAMES "ccec"
    PATHS "$ENV{ASCEND_HOME_PATH}/compiler/ccec_compiler/bin" "$ENV{ASCEND_INSTALL_PATH}/compiler/ccec_compiler/bin"
          "$ENV{PATH}"
    DOC "CCE Compiler")
mark_as_advanced(CMAKE_CCE_COMPILER)
set(CMAKE_CCE_SOURCE_FILE_EXTENSIONS cce;cpp)
set(CMAKE_CCE_COMPILER_ENV_VAR "CCE")
configure_file(${CMAKE_CURRENT_LIST_DIR}/CMakeCCECompiler.cmake.in ${CMAKE_PLATFORM_INFO_DIR}/CMakeCCECompiler.cmake
               @ONLY)
