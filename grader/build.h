// Building a runner from a lab's student files (a submission, the student's working copy, or
// reference/): the backend's compiler (nvcc, or gpulab-sim-cc for the CPU backend) compiles
// each file against the lab's interface header, then links the lab's driver and the harness
// built for that backend.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lab_config.h"
#include "paths.h"
#include "sandbox.h"

namespace gpulab {

struct BuildResult {
  bool ok = false;
  std::filesystem::path runner;
  std::string message;  // for the report: what failed and the compiler's own words
};

// The GPU architecture to compile for: the device's when there is one, else the first of the
// configured CMake architectures. Returned as "sm_90".
std::string build_arch(const Paths& paths);

// src_dir holds the lab's student files; the runner is written to work_dir/runner, which is
// emptied first. backend is "cuda" or "sim". The compiler and linker run in `sandbox`
// (build_sandbox: they see the student files, the lab's public folder and gpulab's libraries).
BuildResult build_runner(const LabConfig& lab, const Paths& paths,
                         const std::filesystem::path& src_dir,
                         const std::filesystem::path& work_dir, const std::string& backend,
                         const Sandbox& sandbox, double timeout_s = 300);

}  // namespace gpulab
