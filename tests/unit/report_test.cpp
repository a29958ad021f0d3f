// grader/core/report.h: Gradescope's results.json schema, the score withheld on a grader error, and
// an atomic write.
#include <doctest/doctest.h>
#include <signal.h>

#include "report/report_formats.h"
#include "test_util.h"
#include "text/safe_text.h"

namespace {

using gpulab::Report;
using nlohmann::json;
using test::contains;

Report sample_report() {
  Report r;
  gpulab::Test pass;
  pass.name = "gather: public correctness";
  pass.score = 10;
  pass.max_score = 10;
  pass.passed = true;
  pass.output = "all datasets pass";
  pass.tags = {"gather", "correctness"};
  pass.extra = {{"datasets", 7}};
  gpulab::Test hidden;
  hidden.name = "gather: hidden correctness";
  hidden.score = 0;
  hidden.max_score = 10;
  hidden.output = "hidden-medium: 3 values outside the bound";
  hidden.visibility = "hidden";
  gpulab::Test perf;
  perf.name = "gather: performance";
  perf.score = 7.5;
  perf.max_score = 15;
  perf.passed = true;
  r.tests = {pass, hidden, perf};
  r.leaderboard = {{"gather time (ms)", 1.25, "asc"}};
  r.output = "Graded on the cuda backend.";
  r.execution_time_s = 41.6;
  return r;
}

}  // namespace

TEST_CASE("Report::to_json has Gradescope's keys and the summed score") {
  const Report r = sample_report();
  const json j = gpulab::report_json(r, gpulab::ReportFormat::kGradescope);
  for (const char* key : {"score", "execution_time", "output", "visibility", "stdout_visibility",
                          "tests", "leaderboard"}) {
    CAPTURE(key);
    CHECK(j.contains(key));
  }
  CHECK(j["score"].get<double>() == 17.5);
  CHECK(r.score() == 17.5);
  CHECK(r.max_score() == 35);
  CHECK(j["execution_time"].is_number());
  CHECK(contains(j["output"].get<std::string>(), "Graded on the cuda backend"));  // markdown
  CHECK(j["visibility"].is_string());
  CHECK(j["stdout_visibility"].is_string());

  REQUIRE(j["tests"].is_array());
  REQUIRE(j["tests"].size() == 3);
  for (const auto& t : j["tests"]) {
    for (const char* key : {"name", "number", "score", "max_score", "status", "output", "tags",
                            "visibility", "extra_data"}) {
      CAPTURE(key);
      CHECK(t.contains(key));
    }
    CHECK(t["tags"].is_array());
    CHECK(t["extra_data"].is_object());
  }
  const json& first = j["tests"][0];
  CHECK(first["name"] == "gather: public correctness");
  CHECK(first["number"] == "1");
  CHECK(first["score"].get<double>() == 10);
  CHECK(first["max_score"].get<double>() == 10);
  CHECK(first["status"] == "passed");
  CHECK(first["tags"] == json({"gather", "correctness"}));
  CHECK(first["extra_data"]["datasets"] == 7);
  CHECK(first["visibility"] == "visible");
  CHECK(j["tests"][1]["status"] == "failed");
  CHECK(j["tests"][1]["visibility"] == "hidden");
  CHECK(j["tests"][2]["number"] == "3");

  REQUIRE(j["leaderboard"].size() == 1);
  const json& entry = j["leaderboard"][0];
  CHECK(entry["name"] == "gather time (ms)");
  CHECK(entry["value"].get<double>() == 1.25);
  CHECK(entry["order"] == "asc");
}

TEST_CASE("Report::to_json gives no score when the grader itself failed") {
  Report r = sample_report();
  r.grader_error = "the reference runner is missing";
  const json j = gpulab::report_json(r, gpulab::ReportFormat::kGradescope);
  CHECK_FALSE(j.contains("score"));
  INFO(j.dump(2));
  CHECK(contains(j["output"].get<std::string>(), "the reference runner is missing"));
  CHECK(contains(r.summary(), "the reference runner is missing"));
}

TEST_CASE("write_report writes valid JSON through a rename") {
  test::TempDir tmp;
  const auto path = tmp / "results" / "results.json";
  const Report r = sample_report();
  gpulab::write_report(path, r);
  CHECK(json::parse(test::read_file(path)) ==
        gpulab::report_json(r, gpulab::ReportFormat::kGradescope));

  // Overwriting an existing report leaves only the new one, and no temporary file.
  Report changed = r;
  changed.tests[2].score = 15;
  gpulab::write_report(path, changed);
  CHECK(json::parse(test::read_file(path))["score"].get<double>() == 25);
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(path.parent_path()))
    names.push_back(e.path().filename().string());
  CHECK(names == std::vector<std::string>{"results.json"});
}

TEST_CASE("a report quoting any bytes is valid JSON of safe text") {
  Report r = sample_report();
  const std::string progress = "\xE2\x96\x88\xE2\x96";  // a bar cut inside its second block
  r.tests[0].output = "Its output:\n" + progress + "\x1b[31m" + std::string("\0\xFF", 2);
  r.tests[0].name = "name \xC0";
  r.tests[0].extra = {{"key\x01", "value\x1b"}};
  r.output = "bad \xED\xA0\x80 surrogate";
  const std::string text = gpulab::report_text(r);
  CHECK(gpulab::is_safe_text(text));
  const json j = json::parse(text);  // throws on invalid UTF-8
  const std::string output = j["tests"][0]["output"];
  CHECK(contains(output, "\\x1b[31m"));
  CHECK(contains(output, "\\x00"));
  CHECK(contains(output, "\xEF\xBF\xBD"));  // U+FFFD
  CHECK(j["tests"][0]["extra_data"].contains("key\\x01"));
  CHECK(gpulab::is_safe_text(r.summary()));

  test::TempDir tmp;
  gpulab::write_report(tmp / "results.json", r);
  CHECK(json::parse(test::read_file(tmp / "results.json")) == j);
}

TEST_CASE("a stopped grading's report has no score and names the signal") {
  Report r = sample_report();
  r.stopped_by = SIGTERM;
  const json j = gpulab::report_json(r, gpulab::ReportFormat::kGradescope);
  CHECK_FALSE(j.contains("score"));
  CHECK(contains(j["output"].get<std::string>(), "stopped \\(SIGTERM\\)"));  // markdown
  CHECK(j["extra_data"]["stopped"]["signal"] == "SIGTERM");
  CHECK(j["tests"].size() == 3);  // the tests finished before it stopped
  CHECK(contains(r.summary(), "stopped by SIGTERM"));
}
