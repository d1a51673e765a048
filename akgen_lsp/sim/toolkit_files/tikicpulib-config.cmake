# akgen sim toolkit: find_package(tikicpulib) of CANN's CPU-debug mode. tikicpulib::<SOC> (and the lower-case
# tikicpulib::ascend910B1 style) is an interface target: linking it compiles a kernel library in CPU-debug mode
# (ASCENDC_CPU_DEBUG, __CCE_KT_TEST__) for the simulator, whose runtime the executables get at link time.
include("${CMAKE_CURRENT_LIST_DIR}/akgen_common.cmake")
foreach(_soc IN LISTS AKGEN_SOCS)
  string(TOLOWER "${_soc}" _lower)
  string(REGEX REPLACE "^ascend" "ascend" _lower "${_lower}")
  akgen_soc_definitions(_defs "${_soc}" TRUE)
  foreach(_name IN ITEMS "tikicpulib::${_soc}" "tikicpulib::${_lower}")
    if(NOT TARGET "${_name}")
      add_library("${_name}" INTERFACE IMPORTED)
      set_target_properties("${_name}" PROPERTIES INTERFACE_COMPILE_DEFINITIONS "${_defs}")
    endif()
  endforeach()
endforeach()
set(tikicpulib_FOUND TRUE)
set(tikicpulib_VERSION "akgen-sim")
