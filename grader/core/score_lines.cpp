#include "core/score_lines.h"

#include <cmath>

namespace gpulab {

bool counts(const Test& t, HiddenTests hidden) {
  return hidden == HiddenTests::kCounted || (!t.on_hidden_datasets && t.visibility != "hidden");
}

CountedPoints counted_points(const Report& report, HiddenTests hidden) {
  CountedPoints p;
  for (const auto& t : report.tests) {
    if (!counts(t, hidden)) {
      p.left_out = p.left_out || t.max_score > 0;
      continue;
    }
    p.score += t.score;
    p.max += t.max_score;
  }
  return p;
}

double after_late_penalty(double points, double fraction) {
  return std::round(points * (1 - fraction) * 1e4) / 1e4;
}

std::optional<double> given_points(const Report& report, HiddenTests hidden) {
  const CountedPoints p = counted_points(report, hidden);
  if (!report.adjustment) return p.score;
  // Nothing left out: the score given itself, every test counted.
  if (!p.left_out) return report.adjustment->score;
  if (report.adjustment->late_fraction)
    return after_late_penalty(p.score, *report.adjustment->late_fraction);
  return std::nullopt;
}

std::string score_given_line(const Report& report, HiddenTests hidden) {
  if (!report.adjustment) return "";
  const CountedPoints p = counted_points(report, hidden);
  const std::optional<double> given = given_points(report, hidden);
  if (!given)
    return "Score given: your latest earlier submission's, shown with the results of the tests "
           "on hidden datasets";
  return "Score given: " + points_text(*given) + " of " + points_text(p.max) +
         (p.left_out ? " on the tests shown now" : "");
}

std::string adjustment_line(const Report& report, HiddenTests hidden) {
  if (!report.adjustment) return "";
  const ScoreAdjustment& a = *report.adjustment;
  if (!a.late_fraction) return a.why;  // a kept score: the score given line holds its points
  const CountedPoints p = counted_points(report, hidden);
  const std::optional<double> given = given_points(report, hidden);
  std::string s =
      a.why + ": " + points_text(p.score) + " becomes " + points_text(given.value_or(0)) + ".";
  if (p.left_out)
    s += " That counts the tests shown now; the tests on hidden datasets lose the same fraction "
         "when their results are shown.";
  return s;
}

}  // namespace gpulab
