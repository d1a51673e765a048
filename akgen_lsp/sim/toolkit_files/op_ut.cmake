# akgen sim toolkit: the kernel unit tests of CANN's operator repositories (ops-math, ops-nn layout), built for the
# CPU simulator. `akgen sim op-test OPDIR` writes a small driver project that sets AKGEN_OP_UT_SOC (the SoC whose
# cases run), AKGEN_OP_UT_DIR (the operator's folder) and AKGEN_OP_UT_REPO (the repository root), finds tikicpulib
# and GTest, includes this file and adds the operator's own tests/ut/op_kernel/CMakeLists.txt unchanged. That file
# registers its cases with AddOpTestCase / AddOpsTestCase, defined here:
#   AddOpTestCase(op "soc1;soc2" "-DDTYPE_X=float ..." "tiling sources")
#   AddOpsTestCase(OP_NAME op SOC_VERSION socs OTHER_COMPILE_OPTIONS "..." TILING_SRC_FILES ... UT_SRC_FILES ...)
# A case of another SoC is skipped (the repository builds each SoC on its own too). The executable
# <op>_<SOC>_cases_obj is the operator's test sources (test_<op>*.cpp), its kernel source op_kernel/<op>.cpp (unless a
# test includes it), the repository's tests/ut/op_kernel/data_utils.cpp, our gtest main and the simulator's program
# runtime (through bin/akgen-cxx); the cases get the operator's tiling header with -include as the repository's
# build does: tests/ut/op_kernel/<op>_tiling.h when the test folder has one, else <op>_tiling_data.h, which
# op_test.py writes from op_host's BEGIN_TILING_DATA_DEF headers (CANN generates it from the built tiling library).
include_guard(GLOBAL)
set(UT_TEST_ALL ON)
set(OP_KERNEL_UT ON)
set(AKGEN_OP_UT_CASES "" CACHE INTERNAL "the cases added")

# Whether the call's SoCs include ours (`out`), and the SoC name the repositories' build gives its targets
# (`name_out`: the short name's full form, ascend910b -> Ascend910B1, as their SHORT_NAME_LIST maps it).
function(_akgen_op_ut_wanted out name_out socs)
  set(hit FALSE)
  set(name "")
  foreach(orig IN LISTS socs)
    string(STRIP "${orig}" orig)
    string(TOLOWER "${orig}" s)
    string(TOLOWER "${AKGEN_OP_UT_SOC}" want)
    if(s STREQUAL want OR (want MATCHES "^ascend910b" AND s MATCHES "^ascend910b")
       OR (want MATCHES "^ascend910_93" AND s MATCHES "^ascend910_93"))
      set(hit TRUE)  # ascend910b, ascend910B1, Ascend910B3: one A2 family (and A3)
      if(s STREQUAL "ascend910b")
        set(name "Ascend910B1")
      elseif(s STREQUAL "ascend910_93")
        set(name "Ascend910_9391")
      else()
        string(REGEX REPLACE "^[aA]scend" "Ascend" name "${orig}")
      endif()
    endif()
  endforeach()
  set(${out} ${hit} PARENT_SCOPE)
  set(${name_out} "${name}" PARENT_SCOPE)
endfunction()

# our gtest main and the repository's ReadFile / WriteFile (tests/ut/op_kernel/data_utils.cpp), built once
function(_akgen_op_ut_common)
  if(TARGET akgen_op_ut_common)
    return()
  endif()
  set(common "${AKGEN_TOOLKIT}/akgen/akgen_ut_main.cpp")
  # the repositories' helpers of their cases: ReadFile / WriteFile, and ops-nn's kernel_ut data helpers
  foreach(name IN ITEMS data_utils kernel_ut_data_helper kernel_ut_data_executor)
    if(EXISTS "${AKGEN_OP_UT_REPO}/tests/ut/op_kernel/${name}.cpp")
      list(APPEND common "${AKGEN_OP_UT_REPO}/tests/ut/op_kernel/${name}.cpp")
    endif()
  endforeach()
  add_library(akgen_op_ut_common OBJECT ${common})
  target_include_directories(akgen_op_ut_common PRIVATE "${AKGEN_OP_UT_REPO}/tests/ut/op_kernel"
                             "${AKGEN_OP_UT_REPO}/tests/ut/common")
  target_link_libraries(akgen_op_ut_common PRIVATE "tikicpulib::${AKGEN_OP_UT_SOC}" GTest::gtest)
endfunction()

# The folders of its own tree that the repository's kernel-UT build (cmake/ut.cmake) names one per line as
# ${PROJECT_SOURCE_DIR}/<folder> for every case (ops-nn: conv/conv3d_backprop_input_v2/op_kernel, through which
# conv3d_transpose_v2's kernel finds "../op_kernel/arch22/conv3d_dx_v2_basic_block.h").
function(_akgen_op_ut_repo_includes out)
  set(found "")
  if(EXISTS "${AKGEN_OP_UT_REPO}/cmake/ut.cmake")
    file(STRINGS "${AKGEN_OP_UT_REPO}/cmake/ut.cmake" lines REGEX "^[ \t]*\\$\\{PROJECT_SOURCE_DIR\\}/[^ \t$]+/op_kernel[ \t]*$")
    foreach(line IN LISTS lines)
      string(STRIP "${line}" line)
      string(REPLACE "\${PROJECT_SOURCE_DIR}" "${AKGEN_OP_UT_REPO}" dir "${line}")
      if(IS_DIRECTORY "${dir}")
        list(APPEND found "${dir}")
      endif()
    endforeach()
  endif()
  list(REMOVE_DUPLICATES found)
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

function(AddOpsTestCase)
  cmake_parse_arguments(UT "" "OP_NAME;OTHER_COMPILE_OPTIONS" "SOC_VERSION;TILING_SRC_FILES;UT_SRC_FILES" ${ARGN})
  _akgen_op_ut_wanted(wanted soc_name "${UT_SOC_VERSION}")
  if(NOT wanted)
    message(STATUS "akgen: ${UT_OP_NAME}: no case for ${AKGEN_OP_UT_SOC} (SoCs: ${UT_SOC_VERSION})")
    return()
  endif()
  set(op "${UT_OP_NAME}")
  get_filename_component(op_dir "${CMAKE_CURRENT_SOURCE_DIR}/../../.." ABSOLUTE)
  if(UT_UT_SRC_FILES)
    set(cases ${UT_UT_SRC_FILES})
  else()
    file(GLOB cases "${CMAKE_CURRENT_SOURCE_DIR}/test_${op}*.cpp")
  endif()
  if(NOT cases)  # as in the repositories' build: a case list without sources adds nothing
    message(WARNING "akgen: AddOpTestCase(${op} ...) finds no test_${op}*.cpp in ${CMAKE_CURRENT_SOURCE_DIR}")
    return()
  endif()
  # the files named after the operator: the call's name, else the folder's (a UT that registers variants as
  # AddOpTestCase(diag_part_fp16 ...), AddOpTestCase(diag_part_fp32 ...) builds the one op_kernel/diag_part.cpp)
  get_filename_component(file_op "${op_dir}" NAME)
  if(EXISTS "${op_dir}/op_kernel/${op}.cpp" OR EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${op}_tiling.h"
     OR EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${op}_tiling_def.h")
    set(file_op "${op}")
  endif()
  set(kernel "${op_dir}/op_kernel/${file_op}.cpp")
  set(included FALSE)
  set(runs_tiling FALSE)
  foreach(c IN LISTS cases)
    file(READ "${c}" text)
    string(FIND "${text}" "op_kernel/${file_op}.cpp\"" at)
    if(NOT at EQUAL -1)
      set(included TRUE)
    endif()
    if(text MATCHES "#include[ \t]*[\"<][^\">]*(tiling_case_executor|tiling_context_faker)\\.h")
      set(runs_tiling TRUE)
    endif()
  endforeach()
  set(sources ${cases})
  # A case that runs the operator's TilingFunc (tests/ut/common's ExecuteTiling on the gert context builder) gets, as
  # in the repositories' build, the harness sources and the operator's tiling sources (its InferShape is left out:
  # nothing the kernel UT runs needs it, and the op_host check leaves it out too)
  if(runs_tiling)
    foreach(name IN ITEMS tiling_case_executor tiling_context_faker)
      if(EXISTS "${AKGEN_OP_UT_REPO}/tests/ut/common/${name}.cpp")
        list(APPEND sources "${AKGEN_OP_UT_REPO}/tests/ut/common/${name}.cpp")
      endif()
    endforeach()
    foreach(f IN LISTS UT_TILING_SRC_FILES)
      get_filename_component(f_name "${f}" NAME)
      if(EXISTS "${f}" AND NOT f_name MATCHES "_infershape\\.cpp$")
        list(APPEND sources "${f}")
      endif()
    endforeach()
  endif()
  if(EXISTS "${kernel}" AND NOT included)
    list(APPEND sources "${kernel}")
  endif()
  _akgen_op_ut_common()
  get_filename_component(category "${op_dir}" DIRECTORY)
  get_filename_component(category "${category}" NAME)
  set(foreach_def "${AKGEN_OP_UT_REPO}/foreach/foreach_abs/tests/ut/op_kernel/foreach_abs_tiling_def.h")
  # ops-nn's build (its cmake/ut.cmake names <op>_tiling_def.h) gives a UT <op>_tiling_def.h, else the generated
  # header: an <op>_tiling.h there is one the test includes itself, after the generated struct
  set(nn_rule FALSE)
  if(EXISTS "${AKGEN_OP_UT_REPO}/cmake/ut.cmake")
    file(STRINGS "${AKGEN_OP_UT_REPO}/cmake/ut.cmake" tiling_def_rule REGEX "_tiling_def\\.h")
    if(tiling_def_rule)
      set(nn_rule TRUE)
    endif()
  endif()
  if(NOT nn_rule AND EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${file_op}_tiling.h")  # ops-math's hand-written one
    set(tiling_header "${CMAKE_CURRENT_SOURCE_DIR}/${file_op}_tiling.h")
    set(kernel_tiling_header "${tiling_header}")
  elseif(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${file_op}_tiling_def.h")  # ops-nn's, for the kernel and the cases
    set(tiling_header "${CMAKE_CURRENT_SOURCE_DIR}/${file_op}_tiling_def.h")
    set(kernel_tiling_header "${tiling_header}")
  elseif(category STREQUAL "foreach" AND EXISTS "${foreach_def}")  # ops-nn's foreach operators share one
    set(tiling_header "${foreach_def}")
    set(kernel_tiling_header "${tiling_header}")
  else()
    # the test sources' copy leaves out the structs the UT defines itself; the kernel, compiled on its own, gets all
    set(tiling_header "${AKGEN_OP_UT_GENERATED}/${file_op}_tiling_data.h")
    set(kernel_tiling_header "${AKGEN_OP_UT_GENERATED}/${file_op}_tiling_data_kernel.h")
  endif()
  separate_arguments(extra UNIX_COMMAND "${UT_OTHER_COMPILE_OPTIONS}")
  # op_host's sub-folders (arch22/, op_tiling/): its headers include each other by name across them
  file(GLOB op_host_entries LIST_DIRECTORIES true "${op_dir}/op_host/*")
  set(op_host_subdirs "")
  foreach(e IN LISTS op_host_entries)
    get_filename_component(e_name "${e}" NAME)
    if(IS_DIRECTORY "${e}" AND NOT e_name STREQUAL "arch35")
      list(APPEND op_host_subdirs "${e}")
    endif()
  endforeach()
  # the repositories' target names, which some UT CMakeLists name after the call (target_compile_options of the
  # tiling library, add_dependencies of the cases): the cases are the executable here, the tiling library is built
  # only when something needs it (the TilingFunc runs through op_host's build, not here)
  set(target "${op}_${soc_name}_cases_obj")
  if(TARGET "${target}")
    set(target "${target}_${CMAKE_CURRENT_FUNCTION_LIST_LINE}")
  endif()
  set(tiling_tmp "${op}_${soc_name}_tiling_tmp")
  if(NOT TARGET "${tiling_tmp}")
    set(tiling_src "")
    foreach(f IN LISTS UT_TILING_SRC_FILES)  # the ones that exist: this library is only a name to refer to
      if(EXISTS "${f}")
        list(APPEND tiling_src "${f}")
      endif()
    endforeach()
    if(NOT tiling_src)
      file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/akgen_empty_tiling.cpp" "// akgen: no tiling sources\n")
      set(tiling_src "${CMAKE_CURRENT_BINARY_DIR}/akgen_empty_tiling.cpp")
    endif()
    add_library("${tiling_tmp}" STATIC EXCLUDE_FROM_ALL ${tiling_src})
  endif()
  add_executable("${target}" ${sources} $<TARGET_OBJECTS:akgen_op_ut_common>)
  # ops-nn's build names the cases' object library opkernel_<op>; a UT that adds a dependency to it (a copy of its
  # data scripts before the build) gets a target of that name that the executable waits for
  if(NOT TARGET "opkernel_${op}")
    add_custom_target("opkernel_${op}")
  endif()
  add_dependencies("${target}" "opkernel_${op}")
  target_compile_options("${target}" PRIVATE ${extra})
  set_property(SOURCE ${cases} APPEND PROPERTY COMPILE_OPTIONS -include "${tiling_header}")
  if(EXISTS "${kernel}" AND NOT included)
    set_property(SOURCE "${kernel}" APPEND PROPERTY COMPILE_OPTIONS -include "${kernel_tiling_header}")
  endif()
  string(TOLOWER "${soc_name}" soc_lower)
  string(REGEX REPLACE "^(ascend910b|ascend910_93).*" "\\1" soc_short "${soc_lower}")
  # BUILD_SOC_VERSION: the short SoC name the repositories' UT build gives (their tiling harness reads it)
  target_compile_definitions("${target}" PRIVATE "UT_SOC_VERSION=\"${AKGEN_OP_UT_SOC}\"" "BUILD_SOC_VERSION=${soc_short}")
  # a UT that defines its own global scalar min / max (`constexpr int min(int, int)`, for CANN's CPU debug has none)
  # gets no simulator ones (bisheng's builtins, akgen_sim/cube_core.h) to clash with
  set(own_minmax FALSE)
  foreach(f IN LISTS cases tiling_header)
    if(EXISTS "${f}")
      file(READ "${f}" text)
      if(text MATCHES "[ \t\n](int|long|float|int32_t|int64_t|uint32_t|uint64_t)[ \t]+(min|max)[ \t]*\\(")
        set(own_minmax TRUE)
      endif()
    endif()
  endforeach()
  if(own_minmax)
    target_compile_definitions("${target}" PRIVATE AKGEN_UT_OWN_MINMAX=1)
  endif()
  if(EXISTS "${AKGEN_OP_UT_REPO}/cmake/ut.cmake")
    file(STRINGS "${AKGEN_OP_UT_REPO}/cmake/ut.cmake" kernelut REGEX "-DKERNELUT=1")
    if(kernelut)  # ops-nn's build marks its kernel UT compiles
      target_compile_definitions("${target}" PRIVATE KERNELUT=1)
    endif()
  endif()
  _akgen_op_ut_repo_includes(repo_includes)
  target_include_directories("${target}" PRIVATE
    "${CMAKE_CURRENT_SOURCE_DIR}" "${AKGEN_OP_UT_REPO}/tests/ut/op_kernel" "${AKGEN_OP_UT_REPO}/tests/ut/common"
    "${op_dir}/op_kernel" "${op_dir}/op_host" "${AKGEN_OP_UT_GENERATED}" ${AKGEN_OP_UT_INCLUDES}
    # what the repositories' OP_TILING_INCLUDE names of their own tree
    "${AKGEN_OP_UT_REPO}" "${AKGEN_OP_UT_REPO}/common/inc" "${AKGEN_OP_UT_REPO}/common/inc/op_host"
    ${op_host_subdirs} ${repo_includes}
    # CANN's ascendc/ layout of the kernels (`../inc/platform.h`, `../swi_glu/x.h`: repo_layout.py), as the kernel
    # check gives it, and the operator base library's host headers (log/, util/, op_host/, platform/) last, so that
    # a repository's own header of the same name wins
    ${AKGEN_OP_UT_LAYOUT} "${AKGEN_TOOLKIT}/include/opbase")
  target_link_libraries("${target}" PRIVATE "tikicpulib::${AKGEN_OP_UT_SOC}" GTest::gtest)
  set_property(CACHE AKGEN_OP_UT_CASES PROPERTY VALUE "${AKGEN_OP_UT_CASES};${target}")
endfunction()

# Both repositories' forms: ops-math's AddOpTestCase(op "socs" "options" "tiling sources") and ops-nn's
# AddOpTestCase([op] "socs" "options" [DEPENDENCY_OPS...] [UT_SRC_DIR dir] [MULTI_KERNEL_TARGET]), whose op name may
# be left out (the first argument is then a SoC) and whose SoCs may be separated by spaces.
function(AddOpTestCase)
  if("${ARGV0}" MATCHES "^[aA]scend")
    get_filename_component(op "${CMAKE_CURRENT_SOURCE_DIR}/../../.." ABSOLUTE)
    get_filename_component(op "${op}" NAME)
    set(first 0)
  else()
    set(op "${ARGV0}")
    set(first 1)
  endif()
  math(EXPR opt_i "${first} + 1")
  math(EXPR rest_i "${first} + 2")
  set(socs "${ARGV${first}}")
  string(REPLACE " " ";" socs "${socs}")
  set(options "")
  if(ARGC GREATER opt_i)
    set(options "${ARGV${opt_i}}")
  endif()
  set(tiling "")
  if(ARGC GREATER rest_i)
    math(EXPR last "${ARGC} - 1")
    foreach(i RANGE ${rest_i} ${last})
      if("${ARGV${i}}" MATCHES "[/.]")  # tiling sources (ops-math); ops-nn's dependency op names are not files
        list(APPEND tiling ${ARGV${i}})
      endif()
    endforeach()
  endif()
  AddOpsTestCase(OP_NAME "${op}" SOC_VERSION ${socs} OTHER_COMPILE_OPTIONS "${options}" TILING_SRC_FILES ${tiling})
endfunction()
