// The end-to-end tests' main: a GPU suite on a machine without a usable GPU exits 77, which
// ctest reports as skipped (never as passed).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "device.h"

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--test-suite=gpu", 0) == 0) {
      const gpulab::DeviceInfo dev = gpulab::device_preflight();
      if (!dev.usable) {
        std::printf("skipped: %s\n", dev.problem.c_str());
        return 77;
      }
    }
  }
  doctest::Context context(argc, argv);
  return context.run();
}
