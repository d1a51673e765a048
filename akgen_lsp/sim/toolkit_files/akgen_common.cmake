# akgen sim toolkit: what its CMake packages share. Every compile and link of a project that finds one of them goes
# through bin/akgen-cxx (akgen_lsp/sim/toolkit_cxx.py), which builds for the CPU simulator: C++20 against the
# simulator's headers, the line-keeping program rewrite of each source, the program runtime linked into executables.
include_guard(GLOBAL)
get_filename_component(AKGEN_TOOLKIT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(AKGEN_CXX "${AKGEN_TOOLKIT}/bin/akgen-cxx")
set_property(GLOBAL PROPERTY RULE_LAUNCH_COMPILE "${AKGEN_CXX} launch")
set_property(GLOBAL PROPERTY RULE_LAUNCH_LINK "${AKGEN_CXX} launch")

# SOC  arch profile  __NPU_ARCH__ (the SoC names of CANN samples' run.sh)
set(_akgen_soc_table "
@AKGEN_SOCS@
")
set(AKGEN_SOCS "")
string(REPLACE "\n" ";" _akgen_lines "${_akgen_soc_table}")
foreach(_line IN LISTS _akgen_lines)
  string(STRIP "${_line}" _line)
  if(_line STREQUAL "")
    continue()
  endif()
  separate_arguments(_f UNIX_COMMAND "${_line}")
  list(GET _f 0 _soc)
  list(GET _f 2 _arch)
  list(APPEND AKGEN_SOCS "${_soc}")
  set(AKGEN_NPU_ARCH_${_soc} "${_arch}")
endforeach()

# The compile definitions of a kernel built for SOC in CANN's CPU-debug mode (tikicpulib) or NPU mode.
function(akgen_soc_definitions out soc cpu_debug)
  set(arch "${AKGEN_NPU_ARCH_${soc}}")
  if(arch STREQUAL "")
    set(arch 2201)
  endif()
  set(defs "__NPU_ARCH__=${arch};AKGEN_SIM_SOC=${soc}")
  if(cpu_debug)
    list(APPEND defs "ASCENDC_CPU_DEBUG=1" "__CCE_KT_TEST__=1")
  endif()
  set(${out} "${defs}" PARENT_SCOPE)
endfunction()
