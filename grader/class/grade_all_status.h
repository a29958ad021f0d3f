// `gpulab grade-all --status --out OUT`: where a SLURM grading of a class stands, read from the
// files alone (no scheduler asked, so it works from any machine that sees OUT): per student-lab
// of OUT/slurm/plan.json, done (a record with outcome "graded" for the plan's configuration),
// running (a task's running.json), failed (a record of a grading that was stopped or where the
// grader failed: graded again on the next grade-all --slurm) or not started. --merge and
// --slurm --wait end with the same summary and exit status.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "class/slurm_plan.h"

namespace gpulab {

enum class ClassJobState { kDone, kRunning, kFailed, kNotStarted };

struct ClassJobStatus {
  std::string lab, student;
  ClassJobState state = ClassJobState::kNotStarted;
  bool stopped = false;  // failed: stopped by a signal (the scheduler's), not a grader failure
  std::string detail;    // running: where and since when; failed: why
};

struct ClassStatus {
  std::vector<ClassJobStatus> jobs;

  size_t count(ClassJobState state) const;
  // kExitOk when every student-lab is done; kExitStopped when some grading was stopped;
  // kExitFailed otherwise (a grader failure, or one not done at all).
  int exit_status() const;
  // A line of counts, then a line per student-lab that is not done.
  std::string text() const;
};

ClassStatus class_status(const SlurmPlan& plan);

// Prints class_status of OUT's plan (whatever it says, --status itself succeeded). Throws
// std::runtime_error where OUT has no plan.
void grade_all_status(const std::filesystem::path& out_dir, std::ostream& out);

}  // namespace gpulab
