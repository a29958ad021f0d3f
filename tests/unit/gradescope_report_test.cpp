// Gradescope's results.json per its specification (grader/report/gradescope_report.cpp):
// information lines out of the tests, messages as safe markdown, hidden-dataset tests held back
// with a visible line, the leaderboard only with entries; and the course's late penalty and
// submission limit from submission_metadata.json (grader/package/submission_policy.h).
#include "report/gradescope_report.h"

#include <doctest/doctest.h>

#include <sstream>

#include "lab/lab_config.h"
#include "package/submission_policy.h"
#include "report/report_formats.h"
#include "report_samples.h"
#include "test_util.h"
#include "text/markdown_text.h"

namespace {

using gpulab::Report;
using gpulab::Test;
using nlohmann::json;
using test::contains;

using test::make_test;

// A sim grade's shape: a passing public test, a hidden group's test and its instructors'
// details, a part that did not build (0 of 10), and an information line.
Report sample() {
  Report r;
  r.output = "Graded on the CPU backend.\n";
  r.tests.push_back(make_test("gather: correctness on the public datasets", 10, 10, true,
                              "7 of 7 public datasets passed.\nPASS tiny\nPASS odd"));
  Test hidden = make_test("gather: correctness on the hidden datasets", 5, 10, false,
                          "2 of 3 hidden datasets passed.");
  hidden.on_hidden_datasets = true;
  r.tests.push_back(hidden);
  Test details = make_test("gather: hidden dataset details (instructors)", 0, 0, false,
                           "FAIL hidden-large: 3 values wrong");
  details.visibility = "hidden";
  details.on_hidden_datasets = true;
  r.tests.push_back(details);
  r.tests.push_back(make_test("scatter: did not build", 0, 10, false, "the compiler failed"));
  Test info = make_test("gather: performance not measured (sim backend)", 0, 0, false,
                        "The CPU backend says nothing about speed on a GPU.");
  info.info = true;
  r.tests.push_back(info);
  return r;
}

json test_named(const json& results, const std::string& name) {
  for (const auto& t : results.at("tests"))
    if (t.at("name") == name) return t;
  FAIL("no test " << name << " in " << results.dump(2));
  return {};
}

gpulab::GradescopePolicy policy_from(const json& gradescope) {
  return gpulab::GradescopePolicy::parse(gradescope);
}

}  // namespace

TEST_CASE("gradescope: information lines are said in the output, not shown as failed tests") {
  const json j = gpulab::report_json(sample(), gpulab::ReportFormat::kGradescope);
  CHECK(j.at("tests").size() == 4);
  for (const auto& t : j.at("tests")) {
    CHECK(t.at("name").get<std::string>().find("not measured") == std::string::npos);
    CHECK(t.at("extra_data").is_object());
  }
  // The placeholder worth points stays a failed test: 0 of 10.
  const json not_built = test_named(j, "scatter: did not build");
  CHECK(not_built.at("status") == "failed");
  CHECK(not_built.at("max_score") == 10);
  const std::string out = j.at("output");
  CHECK(contains(out, "**Not graded here**"));
  CHECK(contains(out, "performance not measured \\(sim backend\\)"));
  CHECK(j.at("score") == 15);
  // Numbers count the tests shown, in order.
  CHECK(j.at("tests").back().at("number") == "4");
}

TEST_CASE("gradescope: a null extra becomes an empty object") {
  Report r = sample();
  r.tests[0].extra = nullptr;
  r.tests[1].extra = 3;
  const json j = gpulab::gradescope_results(r);
  CHECK(j.at("tests")[0].at("extra_data") == json::object());
  CHECK(j.at("tests")[1].at("extra_data") == json{{"value", 3}});
}

TEST_CASE("gradescope: markdown formats, stdout hidden on purpose, names as text") {
  const json j = gpulab::gradescope_results(sample());
  CHECK(j.at("output_format") == "md");
  CHECK(j.at("test_output_format") == "md");
  CHECK(j.at("test_name_format") == "text");
  CHECK(j.at("stdout_visibility") == "hidden");
  CHECK(test_named(j, "gather: correctness on the public datasets").at("output") ==
        "7 of 7 public datasets passed\\.\n\n```\nPASS tiny\nPASS odd\n```\n");
}

TEST_CASE("markdown: quoted text cannot break out, link or carry HTML") {
  const std::string hostile = "x.cu:1: <img src=x onerror=alert(1)> [click](http://evil) ![i](j)";
  const std::string line = gpulab::markdown_text(hostile);
  // Every character that could open a tag, a link or an image comes escaped.
  for (size_t i = 0; i < line.size(); ++i)
    if (std::string("<>[]()!:`&").find(line[i]) != std::string::npos)
      CHECK_MESSAGE((i > 0 && line[i - 1] == '\\'), line);
  CHECK(line.find("http://") == std::string::npos);
  CHECK(line.find('\n') == std::string::npos);
  CHECK(gpulab::markdown_text("a\nb") == "a b");
  // A detail with a run of five backticks gets a fence of six: the run cannot close it.
  const std::string block = gpulab::markdown_code_block("a `````\n``` not a fence\n<b>x</b>");
  CHECK(block.rfind("``````\n", 0) == 0);
  CHECK(block.size() >= 7);
  CHECK(block.substr(block.size() - 7) == "``````\n");
  CHECK(contains(block, "<b>x</b>"));  // inside the block, shown as written
  CHECK(gpulab::markdown_code_block("plain").rfind("```\n", 0) == 0);
  // First line escaped, the rest fenced; one line alone has no block; empty stays empty.
  const std::string m = gpulab::markdown_message("see <here>\n```\nbye");
  CHECK(m.rfind("see \\<here\\>\n\n````\n", 0) == 0);
  CHECK(gpulab::markdown_message("one line.") == "one line\\.");
  CHECK(gpulab::markdown_message("").empty());
  CHECK(gpulab::markdown_text("  - item") == "\\- item");  // no list, no indented code
}

TEST_CASE("gradescope: tests on hidden datasets come later, with a visible line saying so") {
  Report r = sample();
  json j = gpulab::gradescope_results(r);
  CHECK(test_named(j, "gather: correctness on the hidden datasets").at("visibility") ==
        "after_due_date");
  CHECK(test_named(j, "gather: hidden dataset details (instructors)").at("visibility") == "hidden");
  CHECK(test_named(j, "gather: correctness on the public datasets").at("visibility") == "visible");
  CHECK(contains(j.at("output"), "1 test on the instructor's hidden datasets, worth 10 points"));
  CHECK(contains(j.at("output"), "shown after the due date"));
  r.hidden_tests_visibility = "after_published";
  j = gpulab::gradescope_results(r);
  CHECK(test_named(j, "gather: correctness on the hidden datasets").at("visibility") ==
        "after_published");
  CHECK(contains(j.at("output"), "once your instructor publishes the grades"));
  // No hidden tests, no line.
  r.tests.erase(r.tests.begin() + 1, r.tests.begin() + 3);
  CHECK_FALSE(contains(gpulab::gradescope_results(r).at("output"), "hidden datasets"));
}

TEST_CASE("gradescope: the leaderboard only with entries; an adjustment is the score given") {
  Report r = sample();
  CHECK_FALSE(gpulab::gradescope_results(r).contains("leaderboard"));
  r.leaderboard.push_back({"gather time (ms)", 1.5, "asc"});
  const json lb = gpulab::gradescope_results(r).at("leaderboard");
  REQUIRE(lb.size() == 1);
  CHECK(lb[0].at("order") == "asc");
  r.adjustment = gpulab::ScoreAdjustment{12, "late: 20% off", 0.2};
  const json j = gpulab::gradescope_results(r);
  CHECK(j.at("score") == 12);
  CHECK(j.at("extra_data").at("adjustment").at("tests_score") == 15);
  // The output counts the tests shown now: 10 of 20, the hidden test's 5 of 10 held back.
  CHECK(j.at("output").get<std::string>().rfind("**Score given: 8 of 20 on the tests shown now**",
                                                0) == 0);
}

TEST_CASE("submission metadata: ISO 8601 times with their offsets") {
  const auto base = gpulab::iso8601_seconds("2026-11-20T23:00:00Z");
  REQUIRE(base);
  CHECK(*gpulab::iso8601_seconds("2026-11-20T15:00:00.000000-08:00") == doctest::Approx(*base));
  CHECK(*gpulab::iso8601_seconds("2026-11-21T00:30:00+0130") == doctest::Approx(*base));
  CHECK(*gpulab::iso8601_seconds("2026-11-20T23:00:00.5Z") == doctest::Approx(*base + 0.5));
  CHECK(*gpulab::iso8601_seconds("1970-01-01T00:00:00Z") == 0);
  for (const char* bad : {"2026-11-20T23:00:00", "2026-13-20T23:00:00Z", "yesterday", "",
                          "2026-11-20T23:00:00Zjunk", "2026-11-20T23:00:00."})
    CHECK_MESSAGE(!gpulab::iso8601_seconds(bad), bad);
}

TEST_CASE("submission metadata: a late penalty per day begun, at most its maximum") {
  const auto policy = policy_from({{"late_penalty", {{"per_day", 0.1}, {"max", 0.25}}}});
  const auto meta = [&](const std::string& created) {
    return gpulab::SubmissionMetadata::parse(
        json{
            {"created_at", created},
            {"assignment", {{"due_date", "2026-11-20T23:00:00-08:00"}, {"late_due_date", nullptr}}}}
            .dump(),
        "submission_metadata.json", policy);
  };
  Report r = sample();  // 15 of 30
  CHECK_FALSE(gpulab::submission_adjustment(r, policy, meta("2026-11-20T22:59:59-08:00")));
  const auto one = gpulab::submission_adjustment(r, policy, meta("2026-11-21T08:00:01+01:00"));
  REQUIRE(one);  // one second late: a day begun
  CHECK(one->score == doctest::Approx(13.5));
  CHECK(contains(one->why, "1 day late"));
  CHECK(contains(one->why, "10% off"));
  const auto many = gpulab::submission_adjustment(r, policy, meta("2026-11-30T00:00:00Z"));
  REQUIRE(many);
  CHECK(many->score == doctest::Approx(15 * 0.75));  // capped at 25%
}

TEST_CASE("submission metadata: past the limit, the latest earlier submission's score") {
  const auto policy = policy_from({{"submission_limit", 2}, {"late_penalty", {{"per_day", 0.5}}}});
  json m = {{"created_at", "2026-11-20T12:00:00Z"},
            {"assignment", {{"due_date", "2026-11-20T00:00:00Z"}}},
            {"previous_submissions",
             {{{"submission_time", "2026-11-10T00:00:00Z"}, {"score", 4.0}, {"results", {}}}}}};
  Report r = sample();
  // Within the limit: the late penalty alone (half a day late: 50% of 15).
  auto a = gpulab::submission_adjustment(
      r, policy, gpulab::SubmissionMetadata::parse(m.dump(), "m.json", policy));
  REQUIRE(a);
  CHECK(a->score == doctest::Approx(7.5));
  // Third submission: the latest earlier one's score, "12.5" as Gradescope may write it.
  m["previous_submissions"].push_back(
      {{"submission_time", "2026-11-12T00:00:00Z"}, {"score", "12.5"}, {"results", {}}});
  a = gpulab::submission_adjustment(r, policy,
                                    gpulab::SubmissionMetadata::parse(m.dump(), "m.json", policy));
  REQUIRE(a);
  CHECK(a->score == 12.5);
  CHECK(contains(a->why, "submission 3, past the course's limit of 2"));
}

TEST_CASE("submission metadata: a broken file leaves the tests' sum and says which key") {
  const auto policy = policy_from({{"late_penalty", {{"per_day", 0.1}}}});
  test::TempDir dir;
  const auto file = dir / "submission_metadata.json";
  // `text` written as the file; null: no file there at all.
  const auto applied = [&](const char* text) {
    if (text)
      test::write_file(file, text);
    else
      std::filesystem::remove(file);
    Report r = sample();
    std::ostringstream log;
    gpulab::apply_gradescope_policy(r, gpulab::GradescopePolicyInputs::of(policy, file), log);
    CHECK_FALSE(r.adjustment);
    CHECK(r.final_score() == 15);
    CHECK(contains(log.str(), "were not applied"));
    return r.output;
  };
  CHECK(contains(applied("{"), "submission_metadata.json: (whole file): not valid JSON"));
  CHECK(contains(applied(R"({"assignment": {"due_date": null}})"), "created_at: missing"));
  CHECK(contains(applied(R"({"created_at": "2026-11-20T23:00:00Z", "assignment": {}})"),
                 "assignment.due_date: missing"));
  CHECK(contains(applied(R"({"created_at": "soon", "assignment": {"due_date": null}})"),
                 "created_at: \"soon\" is not a time"));
  CHECK(contains(applied(nullptr), "submission_metadata.json: cannot be read"));
  // No metadata file given: nothing to apply, nothing said; the visibility is still set.
  Report r = sample();
  std::ostringstream log;
  gpulab::apply_gradescope_policy(
      r,
      gpulab::GradescopePolicyInputs::of(
          policy_from({{"hidden_tests_visibility", "after_published"}}), {}),
      log);
  CHECK(r.hidden_tests_visibility == "after_published");
  CHECK(r.output == sample().output);
}

// The attack: on Gradescope a submission runs unsandboxed beside submission_metadata.json and
// rewrites it while it is graded (an on-time created_at, no previous submissions). What was read
// before grading is what counts; its honest twin, an unchanged file, gets the same score.
TEST_CASE("submission metadata: what is read before grading counts, not what a run rewrites") {
  test::TempDir dir;
  const auto file = dir / "submission_metadata.json";
  const auto policy = policy_from({{"late_penalty", {{"per_day", 0.1}}}});
  const json late = {{"created_at", "2026-11-22T00:00:00Z"},
                     {"assignment", {{"due_date", "2026-11-20T00:00:00Z"}}}};
  json on_time = late;
  on_time["created_at"] = "2026-11-19T00:00:00Z";
  std::ostringstream log;

  test::write_file(file, late.dump());
  const auto inputs = gpulab::GradescopePolicyInputs::of(policy, file);
  test::write_file(file, on_time.dump());  // the submission's rewrite, during grading
  Report attacked = sample();
  gpulab::apply_gradescope_policy(attacked, inputs, log);

  test::write_file(file, late.dump());
  Report honest = sample();
  gpulab::apply_gradescope_policy(honest, gpulab::GradescopePolicyInputs::of(policy, file), log);

  REQUIRE(attacked.adjustment);
  CHECK(attacked.final_score() == doctest::Approx(15 * 0.8));  // 2 days late: 20% off
  CHECK(attacked.final_score() == honest.final_score());
}
