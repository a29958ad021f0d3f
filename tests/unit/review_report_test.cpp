// What a grader cannot rule out in a student's files (grader/core/review_flags.h) reaches the
// report as one test for instructors alone (report_builder.h's to_review): none where nothing was
// flagged; hidden from students in every format (Gradescope: a hidden test; PrairieLearn and
// GitHub Classroom, which have no part students cannot read: left out; gpulab's own: a hidden
// test, read back without loss); never on the terminal of gpulab run or grade.
#include <doctest/doctest.h>

#include <algorithm>

#include "core/report_builder.h"
#include "core/review_flags.h"
#include "grade/failure_messages.h"
#include "report/report_formats.h"
#include "report/report_json.h"
#include "test_util.h"

namespace {

using gpulab::Report;
using gpulab::ReportFormat;
using gpulab::ReviewFlagSite;
using nlohmann::json;
using test::contains;

const std::vector<ReviewFlagSite> kSites = {
    {"exit_handler", "scan.cu", 42, 3, "atexit", "std::atexit(hide_findings);"},
    {"descriptor", "scan.cu", 57, 1, "dup2", "dup2(null, fd);"},
};

// Texts of the sites that only the instructors' part may hold.
const std::vector<std::string> kInstructorsOnly = {
    "to review", "exit handler", "std::atexit(hide_findings);", "descriptor it did not open",
    "runs after gpulab's last timed call"};

// A graded report with a visible test that failed (so the student's texts are not empty), and
// the sites to review.
Report flagged_report() {
  Report r;
  gpulab::LabConfig lab;
  gpulab::GradeScope scope;
  gpulab::ReportBuilder out(r, lab, scope);
  out.scored("scan: correctness on the public datasets", 5, 10, false,
             "FAIL int-33: element 7: expected 3, got 4", {"scan", "public"});
  out.info("scan: performance not measured (sim backend)", "The CPU backend says nothing.",
           {"scan", "performance"});
  out.to_review(kSites);
  r.output = "Graded on gpulab's CPU backend.";
  return r;
}

// `text` holds none of them, markdown's escapes (and JSON's) aside.
void check_lacks(const std::string& text, const std::string& where) {
  std::string plain = text;
  plain.erase(std::remove(plain.begin(), plain.end(), '\\'), plain.end());
  for (const auto& t : kInstructorsOnly)
    CHECK_MESSAGE(!contains(plain, t), where << " shows \"" << t << "\":\n" << text);
}

// `j` without its tests that instructors alone see.
json without_hidden_tests(json j) {
  json tests = json::array();
  for (const auto& t : j.at("tests"))
    if (t.at("visibility") != "hidden") tests.push_back(t);
  j["tests"] = tests;
  return j;
}

}  // namespace

TEST_CASE("review report: nothing flagged, no test") {
  Report r;
  gpulab::LabConfig lab;
  gpulab::GradeScope scope;
  gpulab::ReportBuilder(r, lab, scope).to_review({});
  CHECK(r.tests.empty());
}

TEST_CASE("review report: one instructors-only line of information, worth nothing, a line a site") {
  const Report r = flagged_report();
  REQUIRE(r.tests.size() == 3);
  const gpulab::Test& t = r.tests.back();
  CHECK(t.name == "to review: exit handler, descriptor it did not open");
  CHECK(t.visibility == "hidden");
  CHECK(t.info);
  CHECK(t.score == 0);
  CHECK(t.max_score == 0);
  CHECK(t.review_flags.size() == 2);
  CHECK(contains(t.output, "not a verdict"));
  CHECK(contains(t.output,
                 "scan.cu:42: exit handler (atexit, 3 places): runs after gpulab's last timed "
                 "call and check"));
  CHECK(contains(t.output, "\n    std::atexit(hide_findings);\n"));
  CHECK(contains(t.output, "scan.cu:57: descriptor it did not open (dup2): may touch gpulab's"));
  // The score and the maximum are the tests' alone.
  CHECK(r.score() == 5);
  CHECK(r.max_score() == 10);
}

TEST_CASE("review report: Gradescope shows instructors a hidden test, students nothing of it") {
  const Report r = flagged_report();
  const json j = gpulab::report_json(r, ReportFormat::kGradescope);
  json review;
  for (const auto& t : j.at("tests"))
    if (t.at("name").get<std::string>().rfind("to review: ", 0) == 0) review = t;
  REQUIRE_MESSAGE(review.is_object(), j.dump(2));
  CHECK(review.at("visibility") == "hidden");
  CHECK(review.at("score") == 0);
  CHECK(review.at("max_score") == 0);
  CHECK(contains(review.at("output").get<std::string>(), "std::atexit(hide_findings);"));
  // Not in the output students read above the tests, nor in any test they see.
  check_lacks(without_hidden_tests(j).dump(), "Gradescope's student view");
  // The line of information students see is still said in the output, not as a test.
  CHECK(contains(j.at("output").get<std::string>(), "performance not measured"));
  CHECK(j.at("tests").size() == 2);
}

TEST_CASE("review report: PrairieLearn and GitHub Classroom, read by students whole, hold none") {
  const Report r = flagged_report();
  for (const ReportFormat f : {ReportFormat::kPrairieLearn, ReportFormat::kGithubClassroom}) {
    const std::string text = gpulab::report_text(r, f);
    CHECK(contains(text, "expected 3, got 4"));  // the student's own test is there
    check_lacks(text, gpulab::format_name(f));
  }
}

TEST_CASE("review report: gpulab's own format keeps it hidden and reads it back whole") {
  const Report r = flagged_report();
  const json j = gpulab::report_json(r, ReportFormat::kGpulab);
  const json& review = j.at("tests").back();
  CHECK(review.at("visibility") == "hidden");
  CHECK(review.at("info") == true);
  REQUIRE(review.at("review_flags").size() == 2);
  CHECK(review.at("review_flags")[0] == json{{"flag", "exit_handler"},
                                             {"file", "scan.cu"},
                                             {"line", 42},
                                             {"count", 3},
                                             {"matched", "atexit"},
                                             {"source", "std::atexit(hide_findings);"}});
  // Only that test has the key.
  CHECK_FALSE(j.at("tests")[0].contains("review_flags"));
  check_lacks(without_hidden_tests(j).dump(), "gpulab's report without its hidden tests");

  const Report back = gpulab::report_from_gpulab_json(j);
  REQUIRE(back.tests.size() == r.tests.size());
  const auto& sites = back.tests.back().review_flags;
  REQUIRE(sites.size() == kSites.size());
  for (size_t i = 0; i < sites.size(); ++i) {
    CHECK(sites[i].flag == kSites[i].flag);
    CHECK(sites[i].file == kSites[i].file);
    CHECK(sites[i].line == kSites[i].line);
    CHECK(sites[i].count == kSites[i].count);
    CHECK(sites[i].matched == kSites[i].matched);
    CHECK(sites[i].source == kSites[i].source);
  }
  CHECK(gpulab::report_json(back, ReportFormat::kGpulab) == j);
  // A site with a field missing is refused with its path.
  json broken = j;
  broken["tests"][2]["review_flags"][1].erase("line");
  CHECK_THROWS_WITH(gpulab::report_from_gpulab_json(broken),
                    doctest::Contains("tests[2].review_flags[1].line is missing"));
}

TEST_CASE("review report: the terminal of gpulab run and grade shows none of it") {
  const Report r = flagged_report();
  const std::string summary = r.summary();
  CHECK(contains(summary, "scan: correctness on the public datasets"));
  check_lacks(summary, "the summary");
  check_lacks(r.table(), "run's table");
  const std::string failures = gpulab::failure_messages(r, {});
  CHECK(contains(failures, "expected 3, got 4"));
  check_lacks(failures, "run's failure messages");
  // Nor does it count as a failure for run's exit status.
  Report passing = r;
  passing.tests[0].passed = true;
  CHECK_FALSE(passing.any_failed());
}

TEST_CASE("review report: a site of a flag this gpulab does not know reads by its id") {
  const ReviewFlagSite later{"some_later_flag", "dcs.cu", 3, 1, "x", ""};
  CHECK(gpulab::review_site_heading(later) == "dcs.cu:3: some_later_flag (x)");
  CHECK(gpulab::review_title({later, kSites[0]}) == "to review: some_later_flag, exit handler");
}
