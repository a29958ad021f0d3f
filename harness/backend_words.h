// Where the student's kernels ran, in the words every message uses: one place, so that a run on
// the CPU backend (sim) never says "on the GPU". The grader knows its backend by name; a runner
// by how its harness was built (harness/CMakeLists.txt defines GPULAB_SIM_HARNESS for sim's).
#pragma once

#include <string>

namespace gpulab {

// "on the GPU" for the cuda backend, "on the CPU backend" for sim.
inline const char* where_kernels_run(const std::string& backend) {
  return backend == "sim" ? "on the CPU backend" : "on the GPU";
}

// The backend this harness was built for.
#ifdef GPULAB_SIM_HARNESS
inline constexpr const char* kHarnessBackend = "sim";
#else
inline constexpr const char* kHarnessBackend = "cuda";
#endif

}  // namespace gpulab
