// How long each course platform lets one grading run, and the time budget (time_budget.h) that
// the package gpulab makes for it passes on (--time-budget). A platform stops a grading at its
// limit and keeps nothing of it, so the budget is the limit less a margin for what runs around
// gpulab within it: the platform starting the container or step and the package's script,
// gpulab's own start, the platform reading the report. Declared here once; each package fills
// its script from these (docs/GRADING.md, "The time budget").
#pragma once

#include <algorithm>
#include <string>

namespace gpulab {

// The margin: a tenth of the limit, at most a minute.
constexpr double kPlatformMarginFraction = 0.1;
constexpr double kPlatformMarginMaxS = 60;

// Gradescope: the autograder timeout is the assignment's setting, 10 minutes unless the course
// changes it (`gpulab package gradescope --platform-timeout` then says what it is).
constexpr double kGradescopeTimeoutS = 600;
// PrairieLearn: the question's info.json, externalGradingOptions.timeout, which `gpulab package
// prairielearn` writes: 600 s (the most a course usually gets), or its --platform-timeout.
constexpr double kPrairieLearnTimeoutS = 600;
// GitHub Classroom: the timeout-minutes of each lab's step in the workflow `gpulab dist
// --github-classroom` writes; and of the whole job, the install and the build before the steps
// (the kit's README holds the build to 5 minutes; the packages take a few) and every step.
constexpr int kClassroomStepMinutes = 10;
constexpr int kClassroomSetupMinutes = 30;

// The platform time limits `--platform-timeout` takes: at least 10 s, at most a day.
constexpr double kMinPlatformTimeoutS = 10;
constexpr double kMaxPlatformTimeoutS = 24 * 3600;

// The budget for a platform whose limit is `timeout_s`: the limit less the margin.
constexpr double platform_time_budget_s(double timeout_s) {
  return timeout_s - std::min(kPlatformMarginMaxS, kPlatformMarginFraction * timeout_s);
}

// The same as --time-budget's argument in a package's script: whole seconds, rounded down.
inline std::string platform_time_budget_text(double timeout_s) {
  return std::to_string(static_cast<long long>(platform_time_budget_s(timeout_s)));
}

}  // namespace gpulab
