// Which backend `gpulab run` uses when the student names none: the GPU where there is one to
// use, else the CPU backend (sim) by itself, said in one line. Decided once, before grading, from
// facts about the machine and the build; `grade` and `grade-all` never come here (instructors
// choose the backend, and their grading stays as it was).
#pragma once

#include <optional>
#include <string>

#include "backend_words.h"

namespace gpulab {

struct RunBackendFacts {
  std::optional<Backend> given;  // --backend, where the student gave it: always obeyed
  bool gpu_usable = false;
  std::string gpu_problem;         // why not, in words (device.h's DeviceInfo::problem)
  bool cuda_runners_built = true;  // this gpulab builds runners with nvcc (not a sim-only build)
  bool sim_built = true;           // this gpulab has the CPU backend
  bool gpu_part_selected = true;   // some part to run needs a GPU
  bool timed_cpu_part_selected = false;  // some part to run is a CPU part with timed points
};

struct RunBackend {
  Backend backend;
  std::string note;  // one line for the student; empty where there is nothing to say
};

// - given: that, no note;
// - a usable GPU and a build with GPU runners: cuda;
// - only CPU parts to run, in a build that can run them on the cuda backend: cuda, which times
//   them (sim would check them the same and time nothing);
// - else, where the CPU backend is built: sim, with the reason and how to force the GPU;
// - else cuda as before (GPU parts not graded), with what to build to check them.
RunBackend choose_run_backend(const RunBackendFacts& facts);

}  // namespace gpulab
