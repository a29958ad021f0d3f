// Grading one submission of one lab: build it, run every part on its datasets in separate
// runner processes, compare in the grader, time student and reference alternately, score.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/grading_policy.h"
#include "core/report.h"

namespace gpulab {

struct GradeContext;
class RunnerBuilds;
class ReportBuilder;
class GradeSteps;

// One grading: its policy (grading_policy.h), and what it grades, where, and what it keeps.
struct GradeOptions : GradingPolicy {
  std::string lab;
  std::filesystem::path submission;  // a directory holding the student files, or one file
  std::vector<std::string> parts;    // empty: every part
  std::string dataset;               // non-empty: only this dataset (gpulab run)
  bool include_hidden = true;        // gpulab run leaves hidden datasets out
  // The hidden seed's file, in place of GradingPolicy::hidden_seed (read_hidden_seed_file,
  // secret.h).
  std::filesystem::path hidden_seed_file;
  // gpulab grade (grade-all's graders too): a grade someone records, so it covers every part it
  // selects or gives no score. On the cuda backend without a usable GPU, code that builds is
  // not graded when a GPU part is selected (the report says why; --backend sim grades every part
  // without a GPU), and a GPU part counts in the maximum of code that did not build or was not
  // accepted. Otherwise (gpulab run and time, the student's own checks) such a part is said to be
  // not graded and left out of the maximum.
  bool of_record = false;
  // One correctness run's limit on the clock (gpulab grade --timeout); none: the rule of
  // run_limit.h, which on the CPU backend follows the reference's time.
  std::optional<double> run_timeout_s;
  double timed_run_timeout_s = 180;  // one timed run
  // Seconds the whole grading may take (gpulab grade and run --time-budget; time_budget.h): the
  // build and the parts share them, and what they do not reach is reported not graded. None:
  // no budget.
  std::optional<double> time_budget_s;
  std::filesystem::path work_dir;  // empty: a fresh temporary directory, removed afterwards
  // Non-empty: an exclusive lock on this file is held from the end of the build to the end of
  // grading, so graders sharing a GPU (gpulab grade-all) run and time on it one at a time.
  std::filesystem::path gpu_lock;
  // List for instructors what in the student's files a grader cannot rule out as honest
  // (review_flags.h): gpulab grade does; gpulab run and time, which the student reads, do not.
  bool review_flags = true;
  // Where the grading's steps are shown (grade_steps.h); null: a line each on the log.
  GradeSteps* steps = nullptr;
  // compute-sanitizer on the public datasets (sanitizer_runs.h): true, every tool (gpulab run
  // --sanitize); false, none; unset, lab.json's "sanitize" (gpulab grade).
  std::optional<bool> sanitize;
  // Non-empty (gpulab run --keep-outputs): each correctness run's outputs are kept here beside
  // the expected ones (kept_outputs.h).
  std::filesystem::path keep_outputs;
  // gpulab grade's report (--out): the lab's write-up (lab.json's "writeup") that the
  // submission holds is kept beside it, and the report says so (writeup.h); empty: no write-up
  // is looked for (gpulab run, time).
  std::filesystem::path writeup_beside;
  // The report (gpulab grade's --out, run's --out) beside which the map of each part's first
  // failing public dataset is drawn (error_map_files.h); with keep_outputs, the maps go there
  // instead. Both empty: no map is drawn, and the failure says how to get one.
  std::filesystem::path error_maps_beside;
  // gpulab time (time_command.h): called once the submission is built, in place of grading its
  // parts, with the grading's context, its reference and baseline runners and its report.
  std::function<void(GradeContext&, RunnerBuilds&, ReportBuilder&)> measure;
};

// Never throws: a failure of the grader itself is recorded in Report::grader_error, a stop
// (stop_signals.h) in Report::stopped_by with the tests finished before it. Progress lines go
// to `log`.
Report grade(const GradeOptions& options, std::ostream& log);

// The report of a grading stopped by `signal` that could not come back to write its own: the
// lab, the backend and the signal, no tests, no score.
Report stopped_report(const GradeOptions& options, int signal);

}  // namespace gpulab
