#include "lab/gradescope_policy.h"

#include <algorithm>
#include <cmath>

namespace gpulab {

double LatePenalty::fraction(double late_s) const {
  if (!(late_s > 0)) return 0;
  const double days = std::ceil(late_s / 86400.0);
  return std::min(max, per_day * days);
}

GradescopePolicy GradescopePolicy::parse(const nlohmann::json& gs) {
  GradescopePolicy p;
  p.hidden_tests_visibility = gs.value("hidden_tests_visibility", p.hidden_tests_visibility);
  if (gs.contains("late_penalty")) {
    LatePenalty late;
    late.per_day = gs.at("late_penalty").at("per_day").get<double>();
    late.max = gs.at("late_penalty").value("max", late.max);
    p.late_penalty = late;
  }
  if (gs.contains("submission_limit")) p.submission_limit = gs.at("submission_limit").get<int>();
  return p;
}

}  // namespace gpulab
