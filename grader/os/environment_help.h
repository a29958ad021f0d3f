// The environment variables gpulab reads, with what each sets and its value or default here,
// and its exit statuses (exit_status.h): the footer of `gpulab --help`. A test checks that every
// variable the grader's sources read is listed (tests/e2e/help_e2e.cpp).
#pragma once

#include <string>
#include <vector>

namespace gpulab {

std::string environment_help();

// The names alone, in the same order: what a SLURM task is given of the instructor's
// environment (slurm_backend.h).
std::vector<std::string> environment_variable_names();

}  // namespace gpulab
