# The repository's kernel-UT build (ours, a stand-in for ops-nn's cmake/ut.cmake, which the simulator does not run):
# the simulator reads the include folders it names for every kernel UT object, one per line, and its KERNELUT mark.
set(AKGEN_FIXTURE_KERNEL_UT_INCLUDES
    ${PROJECT_SOURCE_DIR}/tests/ut/op_kernel
    ${PROJECT_SOURCE_DIR}/conv/shared_blk/op_kernel
)
set(AKGEN_FIXTURE_KERNEL_UT_FLAGS -DKERNELUT=1)
# the tiling header a case gets: tests/ut/op_kernel/<op>_tiling_def.h, else the one generated from op_host
set(AKGEN_FIXTURE_TILING_HEADER "<op>_tiling_def.h")
