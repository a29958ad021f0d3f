// How a grading is done, as gpulab grade, grade-all and bench-grader take it: the settings that
// decide what a grade means, declared here once. grade-all and bench-grader pass them on to each
// `gpulab grade` they start, through grade_arguments and grade_environment below, so a class's
// grades are made exactly as one student's; the command line declares them once too
// (add_grading_policy_options, cli/shared_options.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "backend_words.h"

namespace gpulab {

struct GradingPolicy {
  Backend backend = Backend::cuda;  // --backend
  bool performance = true;          // false: --no-time, correctness only
  // --require-gpu, on the cuda backend: without a usable GPU nothing is graded, CPU parts
  // neither, refused before the submission is taken in.
  bool require_gpu = false;
  // --allow-unsandboxed: grade even where student code cannot be sandboxed (no bubblewrap or
  // user namespaces); the report's environment says so. Without it such a grading is refused.
  bool allow_unsandboxed = false;
  // --hidden-seed: the instructor's secret, any text (files/secret.h); none: GPULAB_HIDDEN_SEED,
  // else gpulab's default.
  std::optional<std::string> hidden_seed;
};

// The options of `gpulab grade` that give a grader `policy`, to follow "grade LAB ...": every
// setting but the seed, which grade_environment carries.
std::vector<std::string> grade_arguments(const GradingPolicy& policy);

// The environment entries ("NAME=value") that give a grader `policy`'s seed: in the
// environment, which other users cannot read, never on a command line, which they can (ps).
std::vector<std::string> grade_environment(const GradingPolicy& policy);

// A `gpulab grade` started under `policy` with the hidden seed `seed` (grade-all's, or
// bench-grader's own): grade_arguments appended to `argv`, grade_environment to `env`.
void pass_policy(GradingPolicy policy, const std::optional<std::string>& seed,
                 std::vector<std::string>& argv, std::vector<std::string>& env);

}  // namespace gpulab
