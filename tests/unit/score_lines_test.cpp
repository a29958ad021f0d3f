// The lines that state a score (grader/core/score_lines.h): a student shown the tests on hidden
// datasets later (Gradescope, a student's terminal) reads no sum that counts them, not in the
// late penalty's line, the submission limit's or a total; instructors, and platforms that show
// every test at once (PrairieLearn, GitHub Classroom), read the full numbers.
#include "core/score_lines.h"

#include <doctest/doctest.h>

#include <cctype>
#include <sstream>

#include "package/submission_policy.h"
#include "report/classroom_report.h"
#include "report/gradescope_report.h"
#include "report/prairielearn_report.h"
#include "report_samples.h"
#include "test_util.h"

namespace {

using gpulab::HiddenTests;
using gpulab::Report;
using gpulab::Test;
using nlohmann::json;
using test::contains;
using test::make_test;

// 26 of 30 points on the tests students see now, 13.5 of 17 on the hidden datasets: 39.5 of
// 47 in all. Each figure below appears in no other role, so a line that says it leaks it.
Report graded() {
  Report r;
  r.output = "Graded on the CPU backend.\n";
  r.tests.push_back(make_test("gather: correctness on the public datasets", 20, 20, true, "ok"));
  r.tests.push_back(make_test("scatter: correctness on the public datasets", 6, 10, false,
                              "2 of 3 public datasets passed."));
  for (const auto& [name, score, max] : {std::tuple{"gather", 10.0, 10.0}, {"scatter", 3.5, 7.0}}) {
    Test t = make_test(std::string(name) + ": correctness on the hidden datasets", score, max,
                       score == max, "some hidden datasets passed.");
    t.on_hidden_datasets = true;
    r.tests.push_back(t);
  }
  Test details = make_test("scatter: hidden dataset details (instructors)", 0, 0, false,
                           "FAIL hidden-large: 3 values wrong");
  details.visibility = "hidden";
  details.on_hidden_datasets = true;
  r.tests.push_back(details);
  return r;
}

// The sums that count the hidden tests, and the hidden tests' own points.
const char* const kHiddenFigures[] = {"39.5", "35.55", "47", "13.5", "41.25"};

// Whether `text` says the number `figure` (not as a part of another: "147", "47.5", "0.47").
bool says(const std::string& text, const std::string& figure) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (size_t at = text.find(figure); at != std::string::npos; at = text.find(figure, at + 1)) {
    const size_t end = at + figure.size();
    const bool before = at > 0 && (digit(text[at - 1]) || text[at - 1] == '.');
    const bool after =
        end < text.size() &&
        (digit(text[end]) || (text[end] == '.' && end + 1 < text.size() && digit(text[end + 1])));
    if (!before && !after) return true;
  }
  return false;
}

gpulab::GradescopePolicy policy() {
  return gpulab::GradescopePolicy::parse(
      {{"late_penalty", {{"per_day", 0.1}}}, {"submission_limit", 2}});
}

// `r` (by default `graded()`) with the course's policy applied from a metadata file: submitted
// `created_at`, after `previous` earlier submissions (the latest worth 41.25).
Report adjusted(const std::string& created_at, int previous, Report r = graded()) {
  json m = {{"created_at", created_at},
            {"assignment", {{"due_date", "2026-11-20T23:00:00Z"}}},
            {"previous_submissions", json::array()}};
  for (int i = 0; i < previous; ++i)
    m["previous_submissions"].push_back(
        {{"submission_time", "2026-11-1" + std::to_string(i) + "T10:00:00Z"}, {"score", 41.25}});
  test::TempDir dir;
  test::write_file(dir / "submission_metadata.json", m.dump());
  std::ostringstream log;
  gpulab::apply_gradescope_policy(
      r, gpulab::GradescopePolicyInputs::of(policy(), dir / "submission_metadata.json"), log);
  REQUIRE(r.adjustment);
  return r;
}

// Markdown as it reads: "39\\.5" is shown as "39.5".
std::string unescaped(const std::string& markdown) {
  std::string text;
  for (size_t i = 0; i < markdown.size(); ++i)
    if (!(markdown[i] == '\\' && i + 1 < markdown.size() && std::ispunct(markdown[i + 1]) != 0))
      text += markdown[i];
  return text;
}

// Everything of a Gradescope results.json a student reads before the hidden tests are shown,
// as it reads: the output, and the tests whose visibility is "visible".
std::string gradescope_visible_text(const Report& r) {
  const json j = gpulab::gradescope_results(r);
  std::string text = j.at("output").get<std::string>() + "\n";
  for (const auto& t : j.at("tests"))
    if (t.at("visibility") == "visible")
      text += t.at("name").get<std::string>() + "\n" + t.at("output").get<std::string>() + "\n";
  return unescaped(text);
}

}  // namespace

TEST_CASE("a late penalty's lines count only the tests a student sees now") {
  const Report r = adjusted("2026-11-21T08:00:00Z", 0);  // one day begun late: 10% off
  CHECK(r.final_score() == doctest::Approx(35.55));      // the grade counts every test

  // Gradescope: the output's lines count the tests shown now, 26 of 30, and say so.
  const std::string shown = gradescope_visible_text(r);
  INFO(shown);
  for (const char* figure : kHiddenFigures) CHECK_MESSAGE(!says(shown, figure), figure);
  CHECK(contains(shown, "**Score given: 23.4 of 30 on the tests shown now**"));
  CHECK(contains(shown, "so 10% off: 26 becomes 23.4."));
  CHECK(contains(shown, "lose the same fraction when their results are shown"));
  // Its instructors' part keeps the full numbers, as does Gradescope's score.
  const json j = gpulab::gradescope_results(r);
  CHECK(j.at("score") == doctest::Approx(35.55));
  CHECK(contains(j.at("extra_data").at("adjustment").at("why"), "39.5 becomes 35.55."));

  // A student's terminal (gpulab run) shows neither the hidden tests nor a sum of them; the
  // instructor's (gpulab grade) shows both.
  const std::string student = r.summary({}, /*student=*/true);
  INFO(student);
  for (const char* figure : kHiddenFigures) CHECK_MESSAGE(!says(student, figure), figure);
  CHECK_FALSE(contains(student, "correctness on the hidden datasets"));
  CHECK(contains(student, "total    26.0 / 30.0"));
  CHECK(contains(student, "given    23.4"));
  const std::string instructor = r.summary();
  CHECK(contains(instructor, "total    39.5 / 47.0"));
  CHECK(contains(instructor, "39.5 becomes 35.55."));
}

TEST_CASE("past the limit, the kept score is not told where it counts hidden tests") {
  const Report r = adjusted("2026-11-19T08:00:00Z", 2);  // on time, a third submission of two
  CHECK(r.final_score() == 41.25);
  const std::string shown = gradescope_visible_text(r);
  INFO(shown);
  for (const char* figure : kHiddenFigures) CHECK_MESSAGE(!says(shown, figure), figure);
  CHECK(contains(shown, "past the course's limit of 2"));
  CHECK(contains(shown, "Score given: your latest earlier submission's"));
  const std::string student = r.summary({}, /*student=*/true);
  for (const char* figure : kHiddenFigures) CHECK_MESSAGE(!says(student, figure), figure);
  CHECK(gpulab::gradescope_results(r).at("score") == 41.25);
  CHECK(contains(r.summary(), "given    41.2"));
}

TEST_CASE("platforms that show every test at once count them all in the same lines") {
  const Report r = adjusted("2026-11-21T08:00:00Z", 0);
  const json pl = gpulab::prairielearn_results(r);
  CHECK(contains(pl.at("message"), "Score given: 35.55 of 47 points ("));
  CHECK(contains(pl.at("message"), "39.5 becomes 35.55."));
  const json gc = gpulab::classroom_result(r);
  CHECK(contains(gc.at("tests").back().at("message"), "39.5 becomes 35.55."));
  // Without hidden tests nothing is left out, and every reader reads the same line.
  Report open = graded();
  open.tests.erase(open.tests.begin() + 2, open.tests.end());
  open = adjusted("2026-11-21T08:00:00Z", 0, open);
  CHECK(gpulab::adjustment_line(open, HiddenTests::kHeldBack) ==
        gpulab::adjustment_line(open, HiddenTests::kCounted));
  CHECK(contains(gpulab::adjustment_line(open, HiddenTests::kHeldBack), "26 becomes 23.4."));
  CHECK(gpulab::score_given_line(open, HiddenTests::kHeldBack) == "Score given: 23.4 of 30");
}
