#include "report/classroom_report.h"

#include <algorithm>

#include "core/score_lines.h"
#include "report/report_headline.h"
#include "text/safe_text.h"

namespace gpulab {

namespace {

// GitHub Classroom's reporter takes each result from an environment variable, base64 encoded,
// and Linux holds at most 128 KiB in one: the tests' messages share this much (about 85 KiB
// once encoded), the rest is room for names and fields.
constexpr size_t kMessagesBudget = 64 * 1024;
// A failing test carries its message twice (test_code, below): each copy gets half its share.
constexpr size_t kCopiesOfAFailure = 2;

std::string cut_to(const std::string& text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  const std::string more = "\n... (cut: gpulab run shows the whole message)";
  return std::string(utf8_head(text, max_bytes > more.size() ? max_bytes - more.size() : 0)) + more;
}

// "3 of 5 points", for a test that says nothing more.
std::string points(double score, double max) {
  return points_text(score) + " of " + points_text(max) + " points";
}

}  // namespace

nlohmann::json classroom_result(const Report& report) {
  const bool graded = report.graded();
  // What the report says beside its tests: why there is no score, its output, the information
  // lines (a group not run here, performance not measured). The reporter prints a test's message
  // only under a test that did not pass, so it opens the message of the first such test.
  std::string notes = report_headline(report);
  for (const auto& t : report.tests)
    if (t.info && t.visibility != "hidden")
      notes += (notes.empty() || notes.back() == '\n' ? "" : "\n") + t.name + ": " + t.output;

  struct Entry {
    std::string name, status, message;
    double score;
  };
  std::vector<Entry> entries;
  for (const auto& t : report.tests) {
    // Instructors' details (worth nothing) stay with the instructor; information lines are
    // notes. GitHub Classroom shows every result at once, so a test on hidden datasets (grade
    // only: the workflow runs the public ones) is a test like the others.
    if (t.visibility == "hidden" || t.info) continue;
    // Not graded (not accepted, did not build) or no score: every test is an error worth
    // nothing.
    const double score = graded ? t.score : 0.0;
    entries.push_back({t.name,
                       !graded    ? "error"
                       : t.passed ? "pass"
                                  : "fail",
                       !t.output.empty() ? t.output : points(score, t.max_score), score});
  }
  // The reporter's total is the sum of the tests' scores: an adjustment (a late penalty) is a
  // line of its own carrying the difference, so that the total is the score given.
  if (graded && report.adjustment) {
    const double difference = report.final_score() - report.score();
    // GitHub Classroom shows every test at once: the line counts them all.
    const std::string why = adjustment_line(report, HiddenTests::kCounted);
    entries.push_back({"score adjustment", difference < 0 ? "fail" : "pass",
                       !why.empty() ? why : "the score given replaces the tests' sum", difference});
  }
  // No test to say why there is no grade under: one of its own says it.
  if (entries.empty() && !graded) entries.push_back({"gpulab", "error", "no test was graded", 0.0});

  auto with_notes = std::find_if(entries.begin(), entries.end(),
                                 [](const Entry& e) { return e.status != "pass"; });
  if (with_notes == entries.end()) with_notes = entries.begin();
  if (with_notes != entries.end() && !notes.empty())
    with_notes->message = notes + (with_notes->message.empty() ? "" : "\n\n") + with_notes->message;

  const bool all_passed = std::all_of(entries.begin(), entries.end(),
                                      [](const Entry& e) { return e.status == "pass"; });
  nlohmann::json tests = nlohmann::json::array();
  const size_t share =
      entries.empty() ? kMessagesBudget : kMessagesBudget / entries.size() / kCopiesOfAFailure;
  for (const auto& e : entries) {
    // line_no 0: the reporter prints "line N" beside a test whose line_no is not 0.
    tests.push_back({{"name", e.name},
                     {"status", e.status},
                     {"score", e.score},
                     {"message", cut_to(e.message, share)},
                     {"line_no", 0}});
    // The reporter (v1) prints an error test's message, but of a failing test only its name
    // and its "test_code": the message goes there too, within the same share, so that the
    // student reads why it failed.
    if (e.status == "fail") tests.back()["test_code"] = tests.back()["message"];
  }
  return {{"version", 1},
          {"status", !graded      ? "error"
                     : all_passed ? "pass"
                                  : "fail"},
          {"max_score", report.max_score()},
          {"tests", tests}};
}

}  // namespace gpulab
