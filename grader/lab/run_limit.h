// The time limit of one correctness run (docs/GRADING.md, "Time limits"). On the GPU a fixed
// limit on the clock. On the CPU backend (sim), where runs are slow and several gradings may
// share a small machine, a limit on CPU time, which another process on the machine does not
// inflate, that follows the reference's own CPU time on the same dataset (a multiple of it, at
// least a floor), with a generous limit on the clock beside it for a run that hangs asleep.
// `gpulab grade --timeout` overrides both rules.
#pragma once

#include <optional>
#include <string>

#include "backend_words.h"
#include "os/process.h"

namespace gpulab {

// On the CPU backend: the CPU time a correctness run may take, as a multiple of the reference's
// CPU time on the same dataset and part, and at least a floor (a small dataset's reference
// takes a fraction of a second, where start-up and noise would decide). lab.json's
// "sim_time_limit" may change both for a lab.
struct SimTimeLimit {
  double over_reference = 8;
  double floor_s = 60;
};
// On the CPU backend, the time on the clock a run may take, over its CPU time limit: room for a
// machine shared with other gradings (a run then gets part of a core), while a run that waits
// for something that never comes still ends.
constexpr double kSimClockOverCpu = 3;
// On the GPU: the time on the clock a correctness run may take.
constexpr double kGpuRunLimitS = 60;
// On the CPU backend, the time on the clock the reference's own run may take when it is timed
// for the limit: trusted code, given long, so that only a broken machine stops it.
constexpr double kReferenceRunLimitS = 1800;

struct RunLimit {
  double wall_s = 0;  // killed after this long on the clock
  double cpu_s = 0;   // killed after this much CPU time, all its threads together (RLIMIT_CPU)
  // Where the limit came from, for the student: "the limit on the CPU backend is 8x the
  // reference's 17.5 s of CPU time on this dataset".
  std::string why;
  // The CPU backend's floor, while the reference's time is not known yet: a run killed at it is
  // run again once the reference's time allows it more (Grading::correctness_run).
  bool awaits_reference = false;

  // A limit on the clock, with CPU time for every thread of a busy run beside it (timed runs,
  // the reference's own runs).
  static RunLimit clock(double wall_s, std::string why = "");

  // Whether the run was stopped by this limit: on the clock, or for its CPU time (SIGXCPU; a
  // run that ignores it is killed a second later, SIGKILL, and reported as killed).
  bool stopped(const ProcessResult& p) const;
  // What happened to the run, as ProcessResult::describe says it, and for a run this limit
  // stopped, how long it ran and where the limit came from.
  std::string describe(const ProcessResult& p) const;
};

// The limit of a correctness run. `given_s`: gpulab grade --timeout. `reference_cpu_s`: the
// reference's CPU time on this dataset and part on the CPU backend, where known;
// `reference_exists`: whether there is a reference to measure (the student kit has none).
RunLimit correctness_limit(Backend backend, std::optional<double> given_s,
                           std::optional<double> reference_cpu_s, bool reference_exists,
                           const SimTimeLimit& rule = {});

}  // namespace gpulab
