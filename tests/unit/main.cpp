// The unit tests' main: the "gpu" suite (tests that need a GPU, ctest's unit_gpu) exits 77 on a
// machine without a usable one (gpu_suite.h), which ctest reports as skipped, never as passed.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "gpu_suite.h"

int main(int argc, char** argv) {
  if (const int skipped = test::skip_gpu_suite_without_gpu(argc, argv)) return skipped;
  doctest::Context context(argc, argv);
  return context.run();
}
