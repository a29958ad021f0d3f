#include "report/report_json.h"

#include <cmath>
#include <stdexcept>

namespace gpulab {

namespace {

using nlohmann::json;

// A non-finite number (an error over its bound of inf) as null: JSON has no infinity.
json number(double v) {
  return std::isfinite(v) ? json(v) : json(nullptr);
}

// The path of the report's top level in messages: none. A named string rather than a "" literal:
// bound to `where` a literal would be a temporary, and GCC 13's -Wdangling-reference then takes
// the reference value_at returns (into the report) for one into that temporary.
const std::string kTopLevel;

// The value at `key`, whatever its type; throws naming the key where there is none. Every
// reading goes through here, so a report read back fails with the key named, never with a JSON
// library's exception (which grade-all, reading reports back, does not take for a bad report).
const json& value_at(const json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key))
    throw std::runtime_error("gpulab report: " + where + key + " is missing");
  return j[key];
}

[[noreturn]] void wrong_type(const char* key, const std::string& where) {
  throw std::runtime_error("gpulab report: " + where + key + " has the wrong type");
}

template <typename T>
T report_field(const json& j, const char* key, const std::string& where) {
  try {
    return value_at(j, key, where).get<T>();
  } catch (const json::exception&) {
    wrong_type(key, where);
  }
}

// The array at `key`, by reference: not copied.
const json& array_at(const json& j, const char* key, const std::string& where) {
  const json& v = value_at(j, key, where);
  if (!v.is_array()) wrong_type(key, where);
  return v;
}

// A number, or null for a non-finite one (see number()).
double number_from(const json& j, const char* key, const std::string& where) {
  const json& v = value_at(j, key, where);
  if (v.is_null()) return INFINITY;
  if (!v.is_number()) wrong_type(key, where);
  return v.get<double>();
}

json sim_findings_json(const std::vector<SimFindingSite>& sites) {
  json a = json::array();
  for (const auto& f : sites)
    a.push_back({{"kind", f.kind}, {"file", f.file}, {"line", f.line}, {"source", f.source}});
  return a;
}

// The array at `key` of `j` (at `at`), each element read by `read` with its path.
template <typename T, typename Read>
std::vector<T> each_of(const json& j, const char* key, const std::string& at, Read read) {
  const json& a = array_at(j, key, at);
  std::vector<T> items;
  for (size_t i = 0; i < a.size(); ++i)
    items.push_back(read(a[i], at + key + "[" + std::to_string(i) + "]."));
  return items;
}

std::vector<SimFindingSite> sim_findings_from(const json& test, const std::string& at) {
  return each_of<SimFindingSite>(test, "sim_findings", at, [](const json& e, const std::string& w) {
    return SimFindingSite{report_field<std::string>(e, "kind", w),
                          report_field<std::string>(e, "file", w), report_field<int>(e, "line", w),
                          report_field<std::string>(e, "source", w)};
  });
}

json review_flags_json(const std::vector<ReviewFlagSite>& sites) {
  json a = json::array();
  for (const auto& s : sites)
    a.push_back({{"flag", s.flag},
                 {"file", s.file},
                 {"line", s.line},
                 {"count", s.count},
                 {"matched", s.matched},
                 {"source", s.source}});
  return a;
}

std::vector<ReviewFlagSite> review_flags_from(const json& test, const std::string& at) {
  return each_of<ReviewFlagSite>(test, "review_flags", at, [](const json& e, const std::string& w) {
    return ReviewFlagSite{report_field<std::string>(e, "flag", w),
                          report_field<std::string>(e, "file", w),
                          report_field<int>(e, "line", w),
                          report_field<int>(e, "count", w),
                          report_field<std::string>(e, "matched", w),
                          report_field<std::string>(e, "source", w)};
  });
}

}  // namespace

json gpulab_report_json(const Report& report) {
  json j = {{"format", kGpulabReportFormat}, {"version", kGpulabReportVersion}};
  j["outcome"] = outcome_name(report.outcome);
  j["scored"] = report.scored();
  if (report.scored()) j["score"] = report.final_score();
  j["tests_score"] = report.score();
  j["max_score"] = report.max_score();
  if (const auto& a = report.adjustment)
    j["adjustment"] = {{"score", a->score},
                       {"why", a->why},
                       {"late_fraction", a->late_fraction ? json(*a->late_fraction) : json()}};
  else
    j["adjustment"] = nullptr;
  j["output"] = report.output;
  j["execution_time_s"] = report.execution_time_s;
  j["environment"] = report.environment;
  j["phase_seconds"] = report.phase_seconds;
  j["peak_memory_mib"] = report.peak_memory_mib;
  j["grader_error"] = report.grader_error;
  j["stopped_by"] = report.stopped_by;
  j["hidden_tests_visibility"] = report.hidden_tests_visibility;
  j["tests"] = json::array();
  for (const auto& t : report.tests) {
    j["tests"].push_back({{"name", t.name},
                          {"score", t.score},
                          {"max_score", t.max_score},
                          {"passed", t.passed},
                          {"output", t.output},
                          {"visibility", t.visibility},
                          {"on_hidden_datasets", t.on_hidden_datasets},
                          {"info", t.info},
                          {"tags", t.tags},
                          {"extra", t.extra},
                          {"sim_findings", sim_findings_json(t.sim_findings)}});
    // Only on the instructors' "to review" test.
    if (!t.review_flags.empty())
      j["tests"].back()["review_flags"] = review_flags_json(t.review_flags);
  }
  j["leaderboard"] = json::array();
  for (const auto& l : report.leaderboard)
    j["leaderboard"].push_back({{"name", l.name}, {"value", l.value}, {"order", l.order}});
  j["datasets"] = json::array();
  for (const auto& r : report.rows)
    j["datasets"].push_back({{"part", r.part},
                             {"dataset", r.dataset},
                             {"result", r.result},
                             {"err_over_bound", number(r.err_over_bound)},
                             {"student_ms", r.student_ms},
                             {"reference_ms", r.reference_ms},
                             {"ratio", r.ratio}});
  return j;
}

Report report_from_gpulab_json(const json& j) {
  if (!j.is_object() || j.value("format", "") != kGpulabReportFormat)
    throw std::runtime_error("not a gpulab report (its \"format\" is not \"" +
                             std::string(kGpulabReportFormat) + "\")");
  if (report_field<int>(j, "version", kTopLevel) != kGpulabReportVersion)
    throw std::runtime_error("gpulab report: version " + j["version"].dump() +
                             ", this gpulab reads version " + std::to_string(kGpulabReportVersion));
  Report r;
  const auto outcome = outcome_named(report_field<std::string>(j, "outcome", kTopLevel));
  if (!outcome) throw std::runtime_error("gpulab report: outcome " + j["outcome"].dump());
  r.outcome = *outcome;
  if (const json& a = value_at(j, "adjustment", kTopLevel); !a.is_null()) {
    r.adjustment =
        ScoreAdjustment{report_field<double>(a, "score", "adjustment."),
                        report_field<std::string>(a, "why", "adjustment."), std::nullopt};
    // Optional: reports written before the reason named no points have none.
    if (a.contains("late_fraction") && !a["late_fraction"].is_null())
      r.adjustment->late_fraction = report_field<double>(a, "late_fraction", "adjustment.");
  }
  r.output = report_field<std::string>(j, "output", kTopLevel);
  r.execution_time_s = report_field<double>(j, "execution_time_s", kTopLevel);
  r.environment = value_at(j, "environment", kTopLevel);
  // Optional: reports written before gpulab timed its phases have none.
  if (j.contains("phase_seconds")) {
    const json& phases = value_at(j, "phase_seconds", kTopLevel);
    if (!phases.is_object())
      throw std::runtime_error("gpulab report: phase_seconds is not an object");
    for (const auto& item : phases.items())
      r.phase_seconds[item.key()] =
          report_field<double>(phases, item.key().c_str(), "phase_seconds.");
  }
  // Optional: reports written before gpulab measured its memory have none.
  if (j.contains("peak_memory_mib"))
    r.peak_memory_mib = report_field<double>(j, "peak_memory_mib", kTopLevel);
  r.grader_error = report_field<std::string>(j, "grader_error", kTopLevel);
  r.stopped_by = report_field<int>(j, "stopped_by", kTopLevel);
  r.hidden_tests_visibility = report_field<std::string>(j, "hidden_tests_visibility", kTopLevel);
  const json& tests_ = array_at(j, "tests", kTopLevel);
  for (size_t i = 0; i < tests_.size(); ++i) {
    const json& e = tests_[i];
    const std::string at = "tests[" + std::to_string(i) + "].";
    Test t;
    t.name = report_field<std::string>(e, "name", at);
    t.score = report_field<double>(e, "score", at);
    t.max_score = report_field<double>(e, "max_score", at);
    t.passed = report_field<bool>(e, "passed", at);
    t.output = report_field<std::string>(e, "output", at);
    t.visibility = report_field<std::string>(e, "visibility", at);
    t.on_hidden_datasets = report_field<bool>(e, "on_hidden_datasets", at);
    t.info = report_field<bool>(e, "info", at);
    t.tags = report_field<std::vector<std::string>>(e, "tags", at);
    t.extra = value_at(e, "extra", at);
    // Optional: reports written before gpulab kept the findings structured have none.
    if (e.contains("sim_findings")) t.sim_findings = sim_findings_from(e, at);
    // Optional: only the instructors' "to review" test has them, and older reports none.
    if (e.contains("review_flags")) t.review_flags = review_flags_from(e, at);
    r.tests.push_back(std::move(t));
  }
  const json& leaderboard_ = array_at(j, "leaderboard", kTopLevel);
  for (size_t i = 0; i < leaderboard_.size(); ++i) {
    const json& e = leaderboard_[i];
    const std::string at = "leaderboard[" + std::to_string(i) + "].";
    r.leaderboard.push_back({report_field<std::string>(e, "name", at),
                             report_field<double>(e, "value", at),
                             report_field<std::string>(e, "order", at)});
  }
  const json& datasets_ = array_at(j, "datasets", kTopLevel);
  for (size_t i = 0; i < datasets_.size(); ++i) {
    const json& e = datasets_[i];
    const std::string at = "datasets[" + std::to_string(i) + "].";
    DatasetRow row;
    row.part = report_field<std::string>(e, "part", at);
    row.dataset = report_field<std::string>(e, "dataset", at);
    row.result = report_field<std::string>(e, "result", at);
    row.err_over_bound = number_from(e, "err_over_bound", at);
    row.student_ms = report_field<double>(e, "student_ms", at);
    row.reference_ms = report_field<double>(e, "reference_ms", at);
    row.ratio = report_field<double>(e, "ratio", at);
    r.rows.push_back(std::move(row));
  }
  return r;
}

}  // namespace gpulab
