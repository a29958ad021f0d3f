#include "core/scoring.h"

#include "stats.h"

namespace gpulab {

Award group_award(int passed, int datasets, double points) {
  const bool all = passed == datasets;
  return {all ? points : 0, all};
}

double group_max(const PartRubric& rubric, const std::string& group) {
  const auto it = rubric.group_points.find(group);
  return it == rubric.group_points.end() ? 0 : it->second;
}

double performance_max(const PartRubric& rubric, const GradeScope& scope) {
  return scope.reference ? rubric.performance : 0;
}

double part_max(const LabConfig& lab, const PartSpec& part, const GradeScope& scope) {
  if (scope.part_left_out(part)) return 0;
  const PartRubric& rubric = lab.rubric.at(part.name);
  double max = 0;
  for (const auto& g : lab.groups)
    if (scope.group_runs(g) && !scope.datasets(g, part.name).empty())
      max += group_max(rubric, g.name);
  if (!scope.timed() || !(rubric.timed_points() > 0)) return max;
  if ((rubric.performance > 0 || rubric.speedup.points > 0) &&
      performance_dataset(lab, part, scope).second)
    max += performance_max(rubric, scope) + rubric.speedup.points;
  return max + rubric.scalability.points;
}

double curve_fraction(const PerformanceCurve& curve, double ratio) {
  if (!(ratio > 0)) return 0;
  if (ratio <= curve.full_at_ratio) return 1;
  if (ratio > curve.zero_past_ratio) return 0;
  return curve.full_at_ratio / ratio;
}

Award performance_award(const PerformanceCurve& curve, double ratio, double max) {
  const double f = curve_fraction(curve, ratio);
  return {f * max, f >= 1};
}

double time_ratio(const std::vector<double>& student_ms, const std::vector<double>& reference_ms) {
  return median_round_ratio(student_ms, reference_ms);
}

double speedup(const std::vector<double>& baseline_ms, const std::vector<double>& student_ms) {
  return median_round_ratio(baseline_ms, student_ms);
}

Award speedup_award(const SpeedupRubric& rubric, double speedup) {
  const bool earned = speedup >= rubric.at_least;
  return {earned ? rubric.points : 0, earned};
}

double growth(const std::vector<double>& small_per_unit,
              const std::vector<double>& large_per_unit) {
  return median_round_ratio(large_per_unit, small_per_unit);
}

Award growth_award(const ScalabilityRubric& rubric, double growth) {
  const bool earned = growth <= rubric.max_growth;
  return {earned ? rubric.points : 0, earned};
}

double floor_ms(double ceiling_per_s, double floor_slack, double work) {
  if (!(ceiling_per_s > 0) || !(work > 0)) return 0;
  return work / (ceiling_per_s * floor_slack) * 1e3;
}

Test placeholder(std::string name, double max, std::string why, std::vector<std::string> tags) {
  Test t;
  t.name = std::move(name);
  t.score = 0;
  t.max_score = max;
  t.passed = false;
  t.output = std::move(why);
  t.tags = std::move(tags);
  // No extra data, not even an empty object: reports have always written such a test's
  // "extra_data" as null.
  t.extra = nullptr;
  return t;
}

}  // namespace gpulab
