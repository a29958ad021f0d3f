// A grading's time budget (gpulab grade and run --time-budget; docs/GRADING.md, "The time
// budget"): a course platform stops a grading that runs past its limit and keeps nothing of it,
// so its package gives gpulab that limit less a margin (platform_time.h), and gpulab shares it
// out so that the report is written within it. The arithmetic alone lives here, on time points
// it is given, so that it can be checked without waiting; grade.cpp applies it through
// ChildDeadline (process.h) and part_budgets.h reports what it cut.
#pragma once

#include <chrono>
#include <optional>

namespace gpulab {

// The budgets --time-budget takes: at least a second (less cannot build anything), at most a
// week (more than any platform gives; the clock's arithmetic stays far from its bounds).
constexpr double kMinTimeBudgetS = 1;
constexpr double kMaxTimeBudgetS = 7 * 24 * 3600;
// Kept at the end of the budget for what follows the last part: the report written, the work
// folder removed. A tenth of a small budget.
constexpr double kBudgetReserveS = 5;
constexpr double kBudgetReserveFraction = 0.1;
// The least share a part is started with: less cannot so much as start a run and read its
// outputs, so such a part is reported not graded rather than stopped at once.
constexpr double kMinPartShareS = 1;

class TimeBudget {
 public:
  using Clock = std::chrono::steady_clock;

  // `budget_s` seconds from `start` (the grading's start).
  TimeBudget(double budget_s, Clock::time_point start);

  double budget_s() const { return budget_s_; }
  double reserve_s() const { return reserve_s_; }
  // The time by which everything the grading runs must have ended: the start, plus the budget,
  // less the reserve. The build has until then.
  Clock::time_point end() const { return end_; }
  // Seconds left until end() at `now` (negative once past it).
  double left_s(Clock::time_point now) const;

  // The share of the part about to be graded, one of `parts_left` still to grade (it counted):
  // an equal share of what is left, so that a part that blocks cannot take the time of the
  // parts after it, and what a part leaves unused goes to those after it; at least
  // kMinPartShareS, so that where little is left the earlier parts get it; at most what is left.
  // nullopt where less than kMinPartShareS is left: the part is not graded.
  std::optional<double> part_share_s(int parts_left, Clock::time_point now) const;

 private:
  double budget_s_;
  double reserve_s_;
  Clock::time_point end_;
};

}  // namespace gpulab
