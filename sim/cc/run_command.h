// Runs a program and copies its stdout and stderr to a stream (so the caller decides where the
// compiler's messages go: a terminal, or a grader's report).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpulab_sim_cc {

// Returns the exit status, 128 + the signal when killed, or 127 when it could not start.
int run_command(const std::vector<std::string>& argv, std::ostream& out);

}  // namespace gpulab_sim_cc
