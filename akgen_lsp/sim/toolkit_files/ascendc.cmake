# akgen sim toolkit: ascendc.cmake of CANN (tikcpp/ascendc_kernel_cmake), the NPU-mode kernel build of samples
# (`run.sh -r npu`), here for the CPU simulator: ascendc_library makes a library of the kernel sources and generates
# each kernel's aclrtlaunch_<kernel>.h, so the sample's NPU-mode main (ACLRT_LAUNCH_KERNEL, AscendCL memory) runs its
# kernels on the simulator.
include("${CMAKE_CURRENT_LIST_DIR}/akgen_common.cmake")
if(NOT TARGET host_intf_pub)
  add_library(host_intf_pub INTERFACE)
endif()
if(NOT DEFINED SOC_VERSION)
  set(SOC_VERSION "Ascend910B2")
endif()

function(ascendc_library target_name target_type)
  set(_srcs ${ARGN})
  add_library(${target_name} ${target_type} ${_srcs})
  set(_inc "${CMAKE_CURRENT_BINARY_DIR}/include/${target_name}")
  execute_process(COMMAND "${AKGEN_CXX}" launch-headers "${_inc}" ${_srcs} RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "akgen sim: cannot generate the launch headers of ${target_name}: ${_err}")
  endif()
  target_include_directories(${target_name} PUBLIC "${_inc}")
  akgen_soc_definitions(_defs "${SOC_VERSION}" FALSE)
  target_compile_definitions(${target_name} PRIVATE ${_defs})
  set_target_properties(${target_name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(target_type STREQUAL "SHARED" OR target_type STREQUAL "STATIC")
    # as CANN's: the library and its launch headers are installed (samples' run.sh run the binary with out/lib on
    # LD_LIBRARY_PATH and do not install the library themselves)
    install(TARGETS ${target_name} LIBRARY DESTINATION lib ARCHIVE DESTINATION lib)
    install(DIRECTORY "${_inc}/" DESTINATION include/${target_name})
  endif()
endfunction()

function(ascendc_fatbin_library target_name)
  ascendc_library(${target_name} OBJECT ${ARGN})
endfunction()

function(ascendc_compile_definitions target_name scope)
  target_compile_definitions(${target_name} ${scope} ${ARGN})
endfunction()

function(ascendc_include_directories target_name scope)
  target_include_directories(${target_name} ${scope} ${ARGN})
endfunction()

# bisheng's own options (--cce-*, -arch) mean nothing to the CPU build
function(ascendc_compile_options target_name scope)
  set(_opts "")
  foreach(_o IN LISTS ARGN)
    if(NOT _o MATCHES "^(--cce|-arch|--npu-arch|-mllvm)")
      list(APPEND _opts "${_o}")
    endif()
  endforeach()
  target_compile_options(${target_name} ${scope} ${_opts})
endfunction()
