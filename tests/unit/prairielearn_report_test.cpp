// grader/report/prairielearn_report.h: PrairieLearn's results.json from the internal report: the
// score as a fraction, gradable false with the reason where nothing was graded, what students see
// of each test.
#include "report/prairielearn_report.h"

#include <doctest/doctest.h>
#include <signal.h>

#include "report/report_formats.h"
#include "report_samples.h"

namespace {

using gpulab::Report;
using gpulab::SubmissionOutcome;
using gpulab::Test;
using nlohmann::json;

using test::make_test;

// A sim grading of two parts: public and hidden correctness, the instructors' details, and a
// line of information.
Report graded() {
  Report r;
  r.tests.push_back(make_test("gather: correctness on the public datasets", 10, 10, true,
                              "2 of 2 public datasets passed.\nPASS a: exact\nPASS b: exact\n"));
  Test hidden = make_test("gather: correctness on the hidden datasets", 0, 5, false,
                          "1 of 2 hidden datasets passed; every one must pass for these points.");
  hidden.on_hidden_datasets = true;
  r.tests.push_back(hidden);
  Test details = make_test("gather: hidden dataset details (instructors)", 0, 0, false,
                           "FAIL hidden-7: 3 values outside the bound");
  details.visibility = "hidden";
  details.on_hidden_datasets = true;
  r.tests.push_back(details);
  Test info = make_test("gather: performance not measured (sim backend)", 0, 0, false,
                        "The CPU backend says nothing about speed.");
  info.info = true;
  r.tests.push_back(info);
  r.tests.push_back(make_test("scatter: correctness on the public datasets", 5, 5, true, ""));
  r.output = "Graded on gpulab's CPU backend (sim).";
  return r;
}

json results(const Report& r) {
  return gpulab::report_json(r, gpulab::ReportFormat::kPrairieLearn);
}

bool has(const json& j, const std::string& text) {
  return j.get<std::string>().find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("prairielearn: a graded report scores the fraction of the maximum") {
  const json j = results(graded());
  CHECK(j["gradable"] == true);
  CHECK(j["score"].get<double>() == doctest::Approx(15.0 / 20.0));
  CHECK(j["message"] == "Graded on gpulab's CPU backend (sim).");
  // The information line is text above the tests, not a test.
  CHECK(has(j["output"], "gather: performance not measured (sim backend): The CPU backend"));
  REQUIRE(j["tests"].size() == 3);
  for (const auto& t : j["tests"]) {
    CAPTURE(t.dump());
    CHECK(!has(t["name"], "not measured"));
    CHECK(!has(t["name"], "instructors"));  // students would see it
    CHECK(!has(t["output"], "hidden-7"));
  }
}

TEST_CASE("prairielearn: a test's message is its output's first line, the rest its output") {
  const json j = results(graded());
  const json& pub = j["tests"][0];
  CHECK(pub["name"] == "gather: correctness on the public datasets");
  CHECK(pub["points"] == 10);
  CHECK(pub["max_points"] == 10);
  CHECK(pub["message"] == "2 of 2 public datasets passed.");
  CHECK(pub["output"] == "PASS a: exact\nPASS b: exact\n");
  CHECK(!pub.contains("description"));
  // A test without output still says how it went.
  CHECK(j["tests"][2]["message"] == "passed");
  CHECK(j["tests"][2]["output"] == "");
}

TEST_CASE("prairielearn: a test on hidden datasets shows its points and count, not which") {
  const json t = results(graded())["tests"][1];
  CHECK(t["points"] == 0);
  CHECK(t["max_points"] == 5);
  CHECK(t["message"] == "1 of 2 hidden datasets passed; every one must pass for these points.");
  CHECK(has(t["description"], "hidden datasets"));
}

TEST_CASE("prairielearn: an adjusted score is given over the maximum, with its reason") {
  Report r = graded();
  r.adjustment = gpulab::ScoreAdjustment{10, "late: 2 days", std::nullopt};
  json j = results(r);
  CHECK(j["score"].get<double>() == doctest::Approx(0.5));
  CHECK(has(j["message"], "Score given: 10 of 20 points (late: 2 days)."));
  // Whatever the adjustment, the score stays a fraction.
  r.adjustment = gpulab::ScoreAdjustment{30, "bonus", std::nullopt};
  CHECK(results(r)["score"] == 1.0);
  r.adjustment = gpulab::ScoreAdjustment{-4, "penalty", std::nullopt};
  CHECK(results(r)["score"] == 0.0);
}

TEST_CASE("prairielearn: code that did not build is not gradable, the compiler's words once") {
  Report r;
  r.outcome = SubmissionOutcome::kNotBuilt;
  const std::string why = "Your code did not build.\nscan.cu:7:48: error: expected ';'\n";
  r.tests.push_back(make_test("exclusive: does not build", 0, 10, false, why));
  r.tests.push_back(make_test("inclusive: does not build", 0, 5, false, why));
  const json j = results(r);
  CHECK(j["gradable"] == false);
  CHECK(j["score"] == 0.0);
  CHECK(has(j["message"], "did not build"));
  CHECK(j["output"] == why);
  CHECK(j["tests"].empty());
}

TEST_CASE("prairielearn: a submission not accepted is not gradable, with the intake's reason") {
  Report r;
  r.outcome = SubmissionOutcome::kNotAccepted;
  r.tests.push_back(make_test("exclusive: submission not accepted", 0, 10, false,
                              "Your submission was not accepted: scan.cu is missing.\n"));
  const json j = results(r);
  CHECK(j["gradable"] == false);
  CHECK(has(j["message"], "not accepted"));
  CHECK(has(j["output"], "scan.cu is missing"));
}

TEST_CASE("prairielearn: a grader failure or a stop gives no score and says why") {
  Report failed = graded();
  failed.grader_error = "the reference did not build";
  json j = results(failed);
  CHECK(j["gradable"] == false);
  CHECK(j["score"] == 0.0);
  CHECK(has(j["message"], "the reference did not build"));

  Report stopped = graded();
  stopped.stopped_by = SIGTERM;
  j = results(stopped);
  CHECK(j["gradable"] == false);
  CHECK(j["score"] == 0.0);
  CHECK(has(j["message"], "SIGTERM"));
  CHECK(j["tests"].size() == 3);  // those finished before the stop
}

TEST_CASE("prairielearn: a grading with no points to give is not gradable, never 0 or 1") {
  Report r;
  Test info = make_test("exclusive: not graded (no GPU)", 0, 0, false, "This part needs a GPU.");
  info.info = true;
  r.tests.push_back(info);
  const json j = results(r);
  CHECK(j["gradable"] == false);
  CHECK(j["score"] == 0.0);
  CHECK(has(j["message"], "Nothing graded here carries points"));
  CHECK(has(j["output"], "This part needs a GPU."));
}

TEST_CASE("prairielearn: the maps of where outputs are wrong go inline, within their budget") {
  Report r = graded();
  CHECK_FALSE(results(r).contains("images"));  // none drawn: no key
  const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) + "pixels";
  r.images.push_back(
      {"potential of gather on dataset medium", "results.gather.medium.error.png", png});
  // Past the budget with the first: left out, though its file is named in the test's output.
  r.images.push_back({"a huge map", "results.scatter.medium.error.png",
                      std::string(gpulab::kPrairieLearnImageBytes, 'x')});
  const json j = results(r);
  REQUIRE(j["images"].size() == 1);
  CHECK(j["images"][0]["label"] == "potential of gather on dataset medium");
  // base64 of the 14 bytes.
  CHECK(j["images"][0]["url"] == "data:image/png;base64,iVBORw0KGgpwaXhlbHM=");
  // Each padding: RFC 4648's examples.
  const std::pair<const char*, const char*> cases[] = {
      {"M", "TQ=="}, {"Ma", "TWE="}, {"Man", "TWFu"}, {"Many", "TWFueQ=="}};
  for (const auto& [bytes, base64] : cases) {
    r.images = {{"a map", "m.png", bytes}};
    CHECK(results(r)["images"][0]["url"] == std::string("data:image/png;base64,") + base64);
  }
}
