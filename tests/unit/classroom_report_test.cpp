// GitHub Classroom's result (classroom_report.h): what its autograding reporter adds up and
// prints, written from the internal report.
#include <doctest/doctest.h>

#include "report/report_formats.h"
#include "report_samples.h"
#include "text/safe_text.h"

namespace {

using gpulab::Report;
using nlohmann::json;

using test::make_test;

// A sim grading: a part passed, one failed, performance not measured, an instructors' detail.
Report sim_report() {
  Report r;
  gpulab::Test info = make_test("scan: performance not measured (sim backend)", 0, 0, false,
                                "the CPU backend measures no speed");
  info.info = true;
  gpulab::Test detail = make_test("scan: hidden datasets, in detail", 0, 0, false, "int-77: wrong");
  detail.visibility = "hidden";
  r.tests = {
      make_test("inclusive: correctness on the public datasets", 10, 10, true, "12 of 12 passed"),
      make_test("scan: correctness on the public datasets", 0, 20, false, "FAIL int-1: wrong"),
      info, detail};
  r.output = "Graded on the CPU backend.";
  return r;
}

json classroom(const Report& r) {
  return gpulab::report_json(r, gpulab::ReportFormat::kGithubClassroom);
}

double sum_of_scores(const json& j) {
  double sum = 0;
  for (const auto& t : j["tests"]) sum += t["score"].get<double>();
  return sum;
}

}  // namespace

TEST_CASE("github-classroom: a test per test students see, the notes under the first failure") {
  const json j = classroom(sim_report());
  CHECK(j["version"] == 1);
  CHECK(j["status"] == "fail");
  CHECK(j["max_score"] == 30);
  REQUIRE(j["tests"].size() == 2);  // neither the information line nor the detail is a test
  const json& passed = j["tests"][0];
  const json& failed = j["tests"][1];
  CHECK(passed["name"] == "inclusive: correctness on the public datasets");
  CHECK(passed["status"] == "pass");
  CHECK(passed["score"] == 10);
  CHECK(passed["message"] == "12 of 12 passed");
  CHECK(failed["status"] == "fail");
  CHECK(failed["score"] == 0);
  // The reporter prints only a failure's message: the headline and the information line open it.
  CHECK(failed["message"] ==
        "Graded on the CPU backend.\nscan: performance not measured (sim backend): the CPU "
        "backend measures no speed\n\nFAIL int-1: wrong");
  for (const auto& t : j["tests"]) CHECK(t["line_no"] == 0);
  CHECK(j.dump().find("int-77") == std::string::npos);
  CHECK(sum_of_scores(j) == 10);
}

TEST_CASE("github-classroom: every test passed: status pass, the notes with the first test") {
  Report r = sim_report();
  r.tests[1] = make_test("scan: correctness on the public datasets", 20, 20, true, "");
  const json j = classroom(r);
  CHECK(j["status"] == "pass");
  CHECK(sum_of_scores(j) == 30);
  CHECK(j["tests"][0]["message"].get<std::string>().rfind("Graded on the CPU backend.", 0) == 0);
  // A test that says nothing says its points.
  CHECK(j["tests"][1]["message"] == "20 of 20 points");
}

TEST_CASE("github-classroom: not built or not accepted: an error, every test an error worth 0") {
  for (const auto outcome :
       {gpulab::SubmissionOutcome::kNotBuilt, gpulab::SubmissionOutcome::kNotAccepted}) {
    CAPTURE(gpulab::outcome_name(outcome));
    Report r;
    r.outcome = outcome;
    r.tests = {
        make_test("scan: does not build", 0, 20, false, "scan.cu:3:1: error: expected ';'"),
        make_test("inclusive: does not build", 0, 10, false, "scan.cu:3:1: error: expected ';'")};
    const json j = classroom(r);
    CHECK(j["status"] == "error");
    CHECK(j["max_score"] == 30);
    REQUIRE(j["tests"].size() == 2);
    for (const auto& t : j["tests"]) {
      CHECK(t["status"] == "error");
      CHECK(t["score"] == 0);
      CHECK(t["message"].get<std::string>().find("expected ';'") != std::string::npos);
    }
  }
}

TEST_CASE("github-classroom: no score (the grader failed, or was stopped): points withheld") {
  Report r = sim_report();
  r.grader_error = "the dataset cache is not writable";
  json j = classroom(r);
  CHECK(j["status"] == "error");
  CHECK(sum_of_scores(j) == 0);  // the passed test's 10 points are not given
  for (const auto& t : j["tests"]) CHECK(t["status"] == "error");
  CHECK(j["tests"][0]["message"].get<std::string>().find("The grader failed") != std::string::npos);

  // With no test at all, one of its own says why.
  r.tests.clear();
  j = classroom(r);
  CHECK(j["status"] == "error");
  REQUIRE(j["tests"].size() == 1);
  CHECK(j["tests"][0]["status"] == "error");
  CHECK(j["tests"][0]["message"].get<std::string>().find("not writable") != std::string::npos);

  r = sim_report();
  r.stopped_by = 15;
  j = classroom(r);
  CHECK(j["status"] == "error");
  CHECK(sum_of_scores(j) == 0);
  CHECK(j["tests"][0]["message"].get<std::string>().find("stopped") != std::string::npos);
}

TEST_CASE("github-classroom: an adjusted score is a line of its own, the total the score given") {
  Report r = sim_report();
  r.tests[1] = make_test("scan: correctness on the public datasets", 20, 20, true, "all passed");
  r.adjustment = gpulab::ScoreAdjustment{24, "late by 1 day: 20% off", 0.2};
  const json j = classroom(r);
  CHECK(sum_of_scores(j) == doctest::Approx(24));
  const json& line = j["tests"].back();
  CHECK(line["name"] == "score adjustment");
  CHECK(line["score"] == doctest::Approx(-6));
  CHECK(line["status"] == "fail");
  CHECK(line["message"].get<std::string>().find("late by 1 day") != std::string::npos);
  CHECK(j["status"] == "fail");  // a failing line, so the reporter prints why
}

// The reporter (v1) prints a failing test's name and its test_code, never its message: without
// test_code a student read "❌ scan: correctness on the public datasets" and nothing more.
TEST_CASE("github-classroom: a failing test's message is also its test_code, which is printed") {
  const json j = classroom(sim_report());
  const json& passed = j["tests"][0];
  const json& failed = j["tests"][1];
  CHECK_FALSE(passed.contains("test_code"));
  REQUIRE(failed.contains("test_code"));
  CHECK(failed["test_code"] == failed["message"]);
  CHECK(failed["test_code"].get<std::string>().find("FAIL int-1: wrong") != std::string::npos);
  // An error's message is printed as it is: no second copy.
  Report r = sim_report();
  r.outcome = gpulab::SubmissionOutcome::kNotBuilt;
  for (const auto& t : classroom(r)["tests"]) CHECK_FALSE(t.contains("test_code"));
}

TEST_CASE("github-classroom: long messages are cut so that the result fits the reporter") {
  Report r;
  // Multi-byte characters throughout: a cut must not split one.
  std::string huge;
  while (huge.size() < 200'000) huge += "é wrong ";
  for (int i = 0; i < 5; ++i)
    r.tests.push_back(make_test("part" + std::to_string(i) + ": correctness", 0, 10, false, huge));
  const json j = classroom(r);
  const std::string text = gpulab::report_text(r, gpulab::ReportFormat::kGithubClassroom);
  // base64 makes 4 bytes of 3; the reporter reads it from one environment variable (128 KiB).
  CHECK((text.size() + 2) / 3 * 4 < 128 * 1024);
  for (const auto& t : j["tests"]) {
    const std::string message = t["message"];
    CHECK(message.size() < huge.size());
    CHECK(gpulab::is_safe_text(message));
    CHECK(message.find("cut") != std::string::npos);
    CHECK(t["test_code"] == message);  // both copies within the budget above
  }
}
