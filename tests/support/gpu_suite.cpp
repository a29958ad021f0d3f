#include "gpu_suite.h"

#include <cstdio>
#include <string>

#include "device.h"

namespace test {

int skip_gpu_suite_without_gpu(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]).rfind("--test-suite=gpu", 0) != 0) continue;
    const gpulab::DeviceInfo dev = gpulab::device_preflight();
    if (dev.usable) return 0;
    std::printf("skipped: %s\n", dev.problem.c_str());
    return 77;
  }
  return 0;
}

}  // namespace test
