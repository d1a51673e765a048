# The repository's kernel-UT build (ours, a stand-in for ops-nn's cmake/ut.cmake, which the simulator does not run):
# the simulator reads the include folders it names for every kernel UT object, one per line, and its KERNELUT mark.
set(AKGEN_FIXTURE_KERNEL_UT_INCLUDES
    ${PROJECT_SOURCE_DIR}/tests/ut/op_kernel
    ${PROJECT_SOURCE_DIR}/conv/shared_blk/op_kernel
)
set(AKGEN_FIXTURE_KERNEL_UT_FLAGS -DKERNELUT=1)
