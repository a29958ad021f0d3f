// The test mains' one rule for GPU suites: a suite whose name starts with "gpu"
// (--test-suite=gpu...) on a machine without a usable GPU exits 77, which ctest reports as
// skipped (SKIP_RETURN_CODE), never as passed.
#pragma once

namespace test {

// 77, after saying why, where argv asks for a GPU suite and no usable GPU is here; else 0.
int skip_gpu_suite_without_gpu(int argc, char** argv);

}  // namespace test
