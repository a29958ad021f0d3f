// gpulab's own report format (report_json.h): written and read back without loss, and refused
// with the key named when it is not one.
#include "report/report_json.h"

#include <doctest/doctest.h>

#include <cmath>

#include "report/report_formats.h"

namespace {

using gpulab::Report;
using nlohmann::json;

Report rich_report() {
  Report r;
  r.phase_seconds = {{"build", 1.5}, {"timing", 12.25}, {"other", 0}};
  gpulab::Test scored;
  scored.name = "scan: correctness on the public datasets";
  scored.score = 7.5;
  scored.max_score = 10;
  scored.passed = false;
  scored.output = "3 of 4 public datasets passed";
  scored.tags = {"scan", "public"};
  scored.extra = {{"student_ms", 1.5}};
  gpulab::Test hidden = scored;
  hidden.name = "scan: correctness on the hidden datasets";
  hidden.on_hidden_datasets = true;
  gpulab::Test detail = hidden;
  detail.visibility = "hidden";
  detail.score = detail.max_score = 0;
  detail.sim_findings = {{"shared_race", "scan.cu", 41, "tile[t] = in[i];"},
                         {"out_of_bounds", "harness/device_buffer.h", 18, ""}};
  gpulab::Test info;
  info.name = "scan: performance not measured (sim backend)";
  info.info = true;
  info.extra = nullptr;
  r.tests = {scored, hidden, detail, info};
  r.leaderboard = {{"scan time (ms)", 1.25, "asc"}};
  r.rows = {{"scan", "int-1", "FAIL", INFINITY, 2.0, 1.0, 2.0}};
  r.output = "Graded on the CPU backend.";
  r.execution_time_s = 12.5;
  r.environment = {{"version", "0.1.0"}, {"backend", "sim"}};
  r.outcome = gpulab::SubmissionOutcome::kNotBuilt;
  r.adjustment = gpulab::ScoreAdjustment{5, "late by 1 day: 20% off", 0.2};
  r.hidden_tests_visibility = "after_published";  // not the default
  return r;
}

}  // namespace

TEST_CASE("gpulab's own report reads back as the report it was written from") {
  const Report r = rich_report();
  const json j = gpulab::report_json(r, gpulab::ReportFormat::kGpulab);
  CHECK(j["format"] == gpulab::kGpulabReportFormat);
  CHECK(j["score"] == 5);  // the adjusted score
  CHECK(j["tests_score"] == 15);
  const Report back = gpulab::report_from_gpulab_json(j);
  REQUIRE(back.tests.size() == r.tests.size());
  for (size_t i = 0; i < r.tests.size(); ++i) {
    CHECK(back.tests[i].name == r.tests[i].name);
    CHECK(back.tests[i].score == r.tests[i].score);
    CHECK(back.tests[i].max_score == r.tests[i].max_score);
    CHECK(back.tests[i].passed == r.tests[i].passed);
    CHECK(back.tests[i].output == r.tests[i].output);
    CHECK(back.tests[i].visibility == r.tests[i].visibility);
    CHECK(back.tests[i].on_hidden_datasets == r.tests[i].on_hidden_datasets);
    CHECK(back.tests[i].info == r.tests[i].info);
    CHECK(back.tests[i].tags == r.tests[i].tags);
    CHECK(back.tests[i].extra == r.tests[i].extra);
    REQUIRE(back.tests[i].sim_findings.size() == r.tests[i].sim_findings.size());
    for (size_t k = 0; k < r.tests[i].sim_findings.size(); ++k) {
      const auto &a = back.tests[i].sim_findings[k], &b = r.tests[i].sim_findings[k];
      CHECK(a.kind == b.kind);
      CHECK(a.file == b.file);
      CHECK(a.line == b.line);
      CHECK(a.source == b.source);
    }
  }
  CHECK(back.tests[2].sim_findings.size() == 2);
  CHECK(back.outcome == r.outcome);
  REQUIRE(back.adjustment.has_value());
  CHECK(back.adjustment->score == 5);
  CHECK(back.adjustment->why == r.adjustment->why);
  CHECK(back.adjustment->late_fraction == 0.2);
  CHECK(back.final_score() == 5);
  REQUIRE(back.rows.size() == 1);
  CHECK(std::isinf(back.rows[0].err_over_bound));
  CHECK(back.rows[0].ratio == 2.0);
  REQUIRE(back.leaderboard.size() == 1);
  CHECK(back.leaderboard[0].value == 1.25);
  CHECK(back.environment == r.environment);
  CHECK(back.output == r.output);
  CHECK(back.hidden_tests_visibility == "after_published");
  CHECK(back.phase_seconds == r.phase_seconds);
  // Written again, the same bytes: nothing was lost or changed on the way.
  CHECK(gpulab::report_text(back, gpulab::ReportFormat::kGpulab) ==
        gpulab::report_text(r, gpulab::ReportFormat::kGpulab));
}

TEST_CASE("a stopped or failed grading keeps its reason and gives no score") {
  Report r = rich_report();
  r.stopped_by = 15;
  const json j = gpulab::report_json(r, gpulab::ReportFormat::kGpulab);
  CHECK_FALSE(j.contains("score"));
  CHECK(j["scored"] == false);
  const Report back = gpulab::report_from_gpulab_json(j);
  CHECK(back.stopped_by == 15);
  CHECK_FALSE(back.scored());
}

TEST_CASE("what is not gpulab's own report is refused, naming the key") {
  const json good = gpulab::report_json(rich_report(), gpulab::ReportFormat::kGpulab);
  const auto refused = [](const json& j) {
    try {
      gpulab::report_from_gpulab_json(j);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  // Gradescope's results.json is another format.
  CHECK(refused(gpulab::report_json(rich_report(), gpulab::ReportFormat::kGradescope))
            .find("not a gpulab report") != std::string::npos);
  json other_version = good;
  other_version["version"] = 99;
  CHECK(refused(other_version).find("version 99") != std::string::npos);
  json no_name = good;
  no_name["tests"][1].erase("name");
  CHECK(refused(no_name).find("tests[1].name is missing") != std::string::npos);
  json wrong_type = good;
  wrong_type["tests"][0]["score"] = "ten";
  CHECK(refused(wrong_type).find("tests[0].score has the wrong type") != std::string::npos);
  json bad_outcome = good;
  bad_outcome["outcome"] = "exploded";
  CHECK(refused(bad_outcome).find("outcome") != std::string::npos);
  // Each a JSON library's exception before: grade-all takes only these for a bad report.
  json tests_not_a_list = good;
  tests_not_a_list["tests"] = "x";
  CHECK(refused(tests_not_a_list).find("tests has the wrong type") != std::string::npos);
  json no_extra = good;
  no_extra["tests"][0].erase("extra");
  CHECK(refused(no_extra).find("tests[0].extra is missing") != std::string::npos);
  json bad_error = good;
  bad_error["datasets"][0]["err_over_bound"] = "big";
  CHECK(refused(bad_error).find("datasets[0].err_over_bound has the wrong type") !=
        std::string::npos);
  json no_environment = good;
  no_environment.erase("environment");
  CHECK(refused(no_environment).find("environment is missing") != std::string::npos);
  json bad_line = good;
  bad_line["tests"][2]["sim_findings"][1]["line"] = "18";
  CHECK(refused(bad_line).find("tests[2].sim_findings[1].line has the wrong type") !=
        std::string::npos);
  json phases_not_an_object = good;
  phases_not_an_object["phase_seconds"] = json::array();
  CHECK(refused(phases_not_an_object).find("phase_seconds is not an object") != std::string::npos);
  json phase_not_a_number = good;
  phase_not_a_number["phase_seconds"]["build"] = "fast";
  CHECK(refused(phase_not_a_number).find("phase_seconds.build has the wrong type") !=
        std::string::npos);
  json findings_not_a_list = good;
  findings_not_a_list["tests"][2]["sim_findings"] = json::object();
  CHECK(refused(findings_not_a_list).find("tests[2].sim_findings has the wrong type") !=
        std::string::npos);
}

TEST_CASE("a report written before gpulab timed its phases reads with none") {
  json old = gpulab::report_json(rich_report(), gpulab::ReportFormat::kGpulab);
  old.erase("phase_seconds");
  CHECK(gpulab::report_from_gpulab_json(old).phase_seconds.empty());
}

TEST_CASE("a report written before the findings were kept structured reads with none") {
  json old = gpulab::report_json(rich_report(), gpulab::ReportFormat::kGpulab);
  for (auto& t : old["tests"]) t.erase("sim_findings");
  const Report back = gpulab::report_from_gpulab_json(old);
  REQUIRE(back.tests.size() == 4);
  for (const auto& t : back.tests) CHECK(t.sim_findings.empty());
}

TEST_CASE("every format in the list is named, found by its name and written") {
  const Report r = rich_report();
  const std::vector<std::string> names = gpulab::format_names();
  CHECK(names.size() == 4);
  for (const auto& name : names) {
    const auto format = gpulab::format_named(name);
    REQUIRE(format.has_value());
    CHECK(gpulab::format_name(*format) == name);
    CHECK(gpulab::formats_help().find(name + ": ") != std::string::npos);
    CHECK(json::parse(gpulab::report_text(r, *format)).is_object());
  }
  CHECK_FALSE(gpulab::format_named("moodle").has_value());
}
