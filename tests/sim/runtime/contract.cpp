// The rewriter's output form, end to end (contract_sample.cpp).
#include "sim_test.h"

int sample_main();

TEST_SUITE("semantics") {
  TEST_CASE("a file in the contract's rewritten form compiles and runs") {
    fresh();
    // The first launch uses no dynamic shared memory but the kernel writes dyn[threadIdx.x]: an
    // out-of-bounds shared write, so the run fails with an illegal address, as on a GPU.
    CHECK(sample_main() == 1);
    const auto f = found(gpulab_sim::finding_kind::out_of_bounds);
    REQUIRE(f.size() == 1);
    CHECK(f[0].file == "parse_mode_sample.cu");
    CHECK(f[0].line == 19);
    CHECK(f[0].launch_line == 41);
    fresh();
  }
}
