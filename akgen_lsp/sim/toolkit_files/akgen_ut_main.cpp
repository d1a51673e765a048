// akgen sim toolkit: the main of a CANN operator repository's kernel unit tests (op_ut.cmake). The repository's own
// test_op_kernel_main.cpp loads its host tiling library into CANN's op registry first; the simulator's cases need
// only gtest. The program runtime calls this main (renamed by the toolkit's compile) with the arguments of
// $AKGEN_SIM_ARGS, so `--gtest_output=json:FILE` and `--gtest_filter=...` reach gtest.
#include "gtest/gtest.h"

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
