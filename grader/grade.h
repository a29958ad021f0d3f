// Grading one submission of one lab: build it, run every part on its datasets in separate
// runner processes, compare in the grader, time student and reference alternately, score.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report.h"

namespace gpulab {

struct GradeOptions {
  std::string lab;
  std::filesystem::path submission;  // a directory holding the student files, or one file
  std::vector<std::string> parts;    // empty: every part
  std::string dataset;               // non-empty: only this dataset (gpulab run)
  bool include_hidden = true;        // gpulab run leaves hidden datasets out
  std::optional<uint64_t> hidden_seed;
  bool require_gpu = false;  // GPU parts without a GPU score zero instead of being left out
  bool performance = true;
  double run_timeout_s = 60;         // one correctness run
  double timed_run_timeout_s = 180;  // one timed run
  std::filesystem::path work_dir;    // empty: a fresh temporary directory, removed afterwards
  std::string backend = "cuda";
  // Grade even where student code cannot be sandboxed (no bubblewrap or user namespaces); the
  // report's environment says so. Without it such a grading is refused.
  bool allow_unsandboxed = false;
  // Non-empty: an exclusive lock on this file is held from the end of the build to the end of
  // grading, so graders sharing a GPU (gpulab grade-all) run and time on it one at a time.
  std::filesystem::path gpu_lock;
};

// The hidden seed in GPULAB_HIDDEN_SEED, when it is set; throws when it is not a non-negative
// integer.
std::optional<uint64_t> hidden_seed_from_env();

// Never throws: a failure of the grader itself is recorded in Report::grader_error.
// Progress lines go to `log`.
Report grade(const GradeOptions& options, std::ostream& log);

}  // namespace gpulab
