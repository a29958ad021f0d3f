// The correctness tests of one part: the student's runner on every dataset of each correctness
// group that runs here (grade_scope.h), each run in a process of its own under its time limit,
// its outputs checked against the oracle's; one test per group, all its points when every
// dataset passes. On one public dataset the function is called twice in one process.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/report_builder.h"
#include "grade/grade_context.h"
#include "grade/runner_builds.h"
#include "run/runner_client.h"

namespace gpulab {

class CorrectnessTests {
 public:
  CorrectnessTests(const GradeContext& c, RunnerBuilds& runners, ReportBuilder& out)
      : c_(c), runners_(runners), out_(out) {}

  // Adds the part's correctness tests (and its rows of the per-dataset table); returns whether
  // every public dataset passed, which timed points need.
  bool grade(const PartSpec& part);

 private:
  RunOutcome correctness_run(const PartSpec& part, const DatasetDirs& d,
                             const std::filesystem::path& out,
                             const std::vector<std::string>& flags);
  std::optional<double> kept_reference_cpu_s(const PartSpec& part, const DatasetDirs& d,
                                             const std::vector<std::string>& flags);
  double reference_cpu_s(const PartSpec& part, const DatasetDirs& d,
                         const std::vector<std::string>& flags);
  void fail_for_state_leak(const std::vector<size_t>& tests, const std::string& dataset);

  const GradeContext& c_;
  RunnerBuilds& runners_;
  ReportBuilder& out_;
};

}  // namespace gpulab
