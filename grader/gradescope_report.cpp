#include "gradescope_report.h"

#include <cmath>

#include "report_formats.h"
#include "stop_signals.h"

namespace gpulab {

nlohmann::json gradescope_results(const Report& report) {
  nlohmann::json j;
  if (report.scored()) j["score"] = report.final_score();
  j["execution_time"] = std::round(report.execution_time_s);
  j["output"] = report_headline(report);
  j["visibility"] = "visible";
  j["stdout_visibility"] = "hidden";
  j["tests"] = nlohmann::json::array();
  int number = 0;
  for (const auto& t : report.tests) {
    nlohmann::json e = {{"name", t.name},
                        {"number", std::to_string(++number)},
                        {"score", t.score},
                        {"max_score", t.max_score},
                        {"status", t.passed ? "passed" : "failed"},
                        {"output", t.output},
                        {"tags", t.tags},
                        {"visibility", t.visibility},
                        {"extra_data", t.extra}};
    j["tests"].push_back(e);
  }
  j["leaderboard"] = nlohmann::json::array();
  for (const auto& l : report.leaderboard)
    j["leaderboard"].push_back({{"name", l.name}, {"value", l.value}, {"order", l.order}});
  j["extra_data"] = {{"gpulab", report.environment}, {"datasets", nlohmann::json::array()}};
  // Per-dataset outcomes for instructors and for calibrating tolerances; hidden from students
  // along with the rest of extra_data.
  for (const auto& r : report.rows)
    j["extra_data"]["datasets"].push_back(
        {{"part", r.part},
         {"dataset", r.dataset},
         {"result", r.result},
         {"err_over_bound", std::isfinite(r.err_over_bound) ? nlohmann::json(r.err_over_bound)
                                                            : nlohmann::json(nullptr)},
         {"student_ms", r.student_ms},
         {"reference_ms", r.reference_ms},
         {"ratio", r.ratio}});
  if (!report.grader_error.empty()) j["extra_data"]["grader_error"] = report.grader_error;
  if (report.stopped_by) j["extra_data"]["stopped"] = {{"signal", signal_name(report.stopped_by)}};
  return j;
}

}  // namespace gpulab
