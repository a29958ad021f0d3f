// The unit tests' main: the "gpu" suite (tests that need a GPU, ctest's unit_gpu) exits 77 on a
// machine without a usable one, which ctest reports as skipped, never as passed.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "device.h"

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) != "--test-suite=gpu") continue;
    const gpulab::DeviceInfo dev = gpulab::device_preflight();
    if (!dev.usable) {
      std::printf("skipped: %s\n", dev.problem.c_str());
      return 77;
    }
  }
  doctest::Context context(argc, argv);
  return context.run();
}
