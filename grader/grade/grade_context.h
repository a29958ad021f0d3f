// What every step of one grading shares: its options and log, the lab, the machine (device,
// sandbox), its work folder, the student's build and the scope (grade_scope.h). grade.cpp
// fills it in, in order, before grading a part; the steps (correctness_tests.h, timed_tests.h,
// runner_builds.h) read it.
#pragma once

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>

#include "build/build.h"
#include "core/grade_scope.h"
#include "data/dataset_store.h"
#include "device.h"
#include "files/paths.h"
#include "grade/grade.h"
#include "grade/grade_steps.h"
#include "lab/lab_config.h"
#include "run/runner_client.h"
#include "sandbox/sandbox.h"

namespace gpulab {

class SanitizerRuns;

struct GradeContext {
  GradeContext(const GradeOptions& options, std::ostream& log_to) : o(options), log(log_to) {}

  const GradeOptions& o;
  std::ostream& log;  // warnings and notes for whoever runs gpulab
  LogSteps log_steps{log};
  GradeSteps& steps = o.steps ? *o.steps : log_steps;  // the steps taken (grade_steps.h)
  Paths paths;
  LabConfig lab;
  DeviceInfo device;
  std::string hidden_seed;  // the instructor's secret (secret.h)
  Sandbox sandbox;
  std::filesystem::path work;  // builds and runs
  BuildResult student;         // the student's runner
  GradeScope scope;
  // The runs under compute-sanitizer (sanitizer_runs.h); null where this grading runs none.
  std::shared_ptr<SanitizerRuns> sanitizer;

  bool sim() const { return o.backend == Backend::sim; }
  // Where this grading's runs happen (runner_client.h).
  RunPlace place() const { return {sandbox, paths, o.backend}; }
  // A dataset of the lab, made (or found in the cache) with the grading's hidden seed.
  DatasetDirs dataset(const GroupSpec& g, const DatasetSpec& ds) const {
    return materialize(lab, g, ds, hidden_seed, paths.cache_dir() / "datasets" / lab.id);
  }
};

}  // namespace gpulab
