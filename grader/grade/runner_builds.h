// The runners grading needs besides the student's: the reference's (timed against, and on the
// CPU backend the source of a run's time limit) and the one that times the lab's baseline. Each
// is the one CMake built where it is there, else built here once, in the work folder.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "grade/grade_context.h"

namespace gpulab {

class RunnerBuilds {
 public:
  explicit RunnerBuilds(const GradeContext& c) : c_(c) {}

  // Whether there is a reference runner, built or buildable: the student kit has no reference/
  // but ships the CUDA reference runners compiled (kit_runners.h); without one, `gpulab run`
  // times the student's code alone.
  bool reference_available() const;
  // The reference solution's runner (Paths::reference_runner: the build's, else the kit's,
  // refused where it does not go with this gpulab); throws where it does not build.
  const std::filesystem::path& reference();
  // The runner that times the lab's baseline (runner_flags.h's kTimeBaselineFlag) in a process
  // of its own, so that nothing the student's code leaves running (a thread, queued GPU work)
  // can slow the baseline and inflate the speedup. In that mode a runner calls no student
  // function; this one holds no student code either: the stub runner, built from the lab's own
  // files (labs/<lab>/), by CMake (build/runners/<lab>-stub) or else here. Not the reference
  // runner, because the student kit has no reference/, while every copy of gpulab has
  // labs/<lab>/ (in the kit that is the student's working copy, but there `gpulab run` runs the
  // student's own code anyway). A submission that is that folder already built this runner.
  // Where the baseline's source is the instructor's alone (lab.json's reference_driver_files),
  // the kit's build has no baseline, and the runner the kit ships times it.
  const std::filesystem::path& baseline();
  // The reference build a kept time belongs to (reference_time.h): the content of its runner,
  // where it is built; none before that, so that looking a time up builds nothing.
  std::optional<std::string> reference_build();

 private:
  const GradeContext& c_;
  std::filesystem::path reference_, baseline_;
  std::string reference_build_;  // reference_build(), once known
};

}  // namespace gpulab
