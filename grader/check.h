// The grader's comparison of one runner's outputs with the expected ones.
#pragma once

#include <filesystem>
#include <string>

#include "dataset_store.h"
#include "lab_config.h"

namespace gpulab {

struct CheckResult {
  bool pass = false;
  double max_err_over_bound = 0;  // the worst over the outputs checked
  std::string message;            // one line per output, for the student
};

// Compares out_dir/<output>.npy (and, with timed, out_dir/timed_<output>.npy) for each of the
// part's outputs. A missing, malformed or wrongly shaped output fails with a message; it
// never throws for bad runner output.
CheckResult check_outputs(const LabConfig& lab, const PartSpec& part, const DatasetDirs& ds,
                          const std::filesystem::path& out_dir, bool timed);

}  // namespace gpulab
