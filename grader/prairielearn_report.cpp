#include "prairielearn_report.h"

#include "report_formats.h"

namespace gpulab {

nlohmann::json prairielearn_results(const Report& report) {
  const bool gradable = report.scored() && report.outcome == SubmissionOutcome::kGraded;
  const double max = report.max_score();
  nlohmann::json j = {{"gradable", gradable},
                      {"score", gradable && max > 0 ? report.final_score() / max : 0.0},
                      {"message", report_headline(report)},
                      {"tests", nlohmann::json::array()}};
  for (const auto& t : report.tests) {
    if (t.visibility == "hidden" || t.info) continue;
    j["tests"].push_back({{"name", t.name},
                          {"points", t.score},
                          {"max_points", t.max_score},
                          {"message", t.passed ? "passed" : "failed"},
                          {"output", t.output}});
  }
  return j;
}

}  // namespace gpulab
