// gpulab bench-grader: how long grading takes, and where the time goes. Each lab's reference is
// graded as `gpulab grade` grades a submission (a process of its own, the sandbox, timing, a
// hidden seed), first with an empty dataset cache (cold: every dataset and timed sample is
// generated) and then again on the cache that run left (warm: what every student after the
// first costs). The table gives each grading's phases (grade_phases.h) from its report, its
// wall time and its score, so a grader that got faster by grading less shows it.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "core/grading_policy.h"

namespace gpulab {

// The policy each reference is graded with (grading_policy.h; the hidden seed is drawn afresh
// for each run: no grading finds a warm cache from an earlier one), and what is timed.
struct BenchGraderOptions : GradingPolicy {
  std::vector<std::string> labs;   // empty: every lab
  bool cold = true, warm = true;   // grade with an empty cache, then again on it
  bool report_cold = true;         // false: the cold grading only fills the cache
  std::filesystem::path json_out;  // also write the numbers here (docs/PERF.md's record)
};

// Prints the table to `out`. Returns kExitOk when every reference graded with full marks,
// kExitFailed otherwise (the table says which), and throws when it cannot start (a bad lab).
int bench_grader(const BenchGraderOptions& options, std::ostream& out);

}  // namespace gpulab
