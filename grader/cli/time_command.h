// gpulab time: a student's code timed against the reference's, on any part (one worth no
// performance points too) and any dataset that is not hidden (a non-timing one too), with the
// grader's own machinery: TimedTests::time_rounds runs the two alternately in the part's rounds,
// each run in a process of its own, every timed call of the student's on inputs of its own with
// its outputs checked, as a graded performance test does. It prints, per part and dataset, the
// two median times, the ratio the grader would score (the median of the rounds' ratios) and
// whether the timed outputs were right.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "backend_words.h"

namespace gpulab {

struct TimeOptions {
  std::string lab;
  std::vector<std::string> parts;  // empty: every part
  std::string dataset;             // empty: each part's timing datasets
  // A folder, an archive or one of the lab's files (a variant of it, under any name, is
  // renamed: see time_command.cpp); empty: the lab's folder of the gpulab tree the student
  // stands in, as gpulab run (lab_tree.h).
  std::filesystem::path submission;
  // None: cuda where this gpulab was built with it, else sim (which times CPU parts only: it
  // runs their code as the compiler made it, but GPU kernels on the CPU).
  std::optional<Backend> backend;
  bool cuda_runners_built = true;  // GPULAB_HAVE_CUDA_RUNNERS (main.cpp's build)
  // The GPU parts' costs alone, on the CPU backend (gpulab run --profile): no CPU part timed.
  bool costs_only = false;
};

// On the CPU backend a GPU part is not timed but costed: one run of the student's code and one
// of the reference's on a public dataset (--dataset, else the part's last) with the cost model
// on, and a table of what each kernel would cost a GPU (grader/run/sim_costs.h).
//
// Returns the exit status (exit_status.h): kExitOk when every (part, dataset) asked for was
// timed with right outputs or costed; kExitTestsFailed when a timed or costed run failed or a
// timed one was wrong; kExitNeedsGpu when a GPU part was asked for and can be neither timed nor
// costed here (a cuda backend without a GPU: the rest is timed).
// Progress lines go to `log`. Throws on bad names (the message lists the valid ones).
int time_command(const TimeOptions& options, std::ostream& out, std::ostream& log);

}  // namespace gpulab
