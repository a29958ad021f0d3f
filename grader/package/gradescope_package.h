// gpulab package gradescope: a Gradescope autograder for one lab, as the zip Gradescope takes
// (setup.sh and run_autograder at its root, from packaging/gradescope/), with gpulab's sources
// for building it on the CPU backend (Gradescope has no GPU) and the instructor's hidden seed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>

#include "os/platform_time.h"

namespace gpulab {

// `timeout_s`: the assignment's autograder timeout on Gradescope (platform_time.h), which its
// run_autograder's time budget follows.
int make_gradescope_package(const std::string& lab, const std::string& hidden_seed,
                            const std::filesystem::path& out, std::ostream& log,
                            double timeout_s = kGradescopeTimeoutS);

}  // namespace gpulab
