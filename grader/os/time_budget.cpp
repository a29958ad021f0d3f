#include "os/time_budget.h"

#include <algorithm>

namespace gpulab {

TimeBudget::TimeBudget(double budget_s, Clock::time_point start)
    : budget_s_(budget_s),
      reserve_s_(std::min(kBudgetReserveS, kBudgetReserveFraction * budget_s)),
      end_(start + std::chrono::duration_cast<Clock::duration>(
                       std::chrono::duration<double>(budget_s_ - reserve_s_))) {}

double TimeBudget::left_s(Clock::time_point now) const {
  return std::chrono::duration<double>(end_ - now).count();
}

std::optional<double> TimeBudget::part_share_s(int parts_left, Clock::time_point now) const {
  const double left = left_s(now);
  if (left < kMinPartShareS) return std::nullopt;
  const double equal = left / std::max(parts_left, 1);
  return std::min(left, std::max(equal, kMinPartShareS));
}

}  // namespace gpulab
