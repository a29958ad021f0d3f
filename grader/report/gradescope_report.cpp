#include "report/gradescope_report.h"

#include <cmath>

#include "core/score_lines.h"
#include "os/stop_signals.h"
#include "report/report_headline.h"
#include "text/markdown_text.h"

namespace gpulab {

namespace {

using nlohmann::json;

// A test on the instructor's hidden datasets that students see (not the instructors' details):
// its result reaches them when the lab's policy says.
bool shown_later(const Test& t) {
  return t.on_hidden_datasets && t.visibility != "hidden";
}

std::string visibility_of(const Test& t, const Report& report) {
  return shown_later(t) ? report.hidden_tests_visibility : t.visibility;
}

std::string when_shown(const std::string& visibility) {
  return visibility == "after_published" ? "once your instructor publishes the grades"
                                         : "after the due date";
}

// The visible line about the tests whose results come later: how many, worth how much, when.
std::string hidden_tests_line(const Report& report) {
  int count = 0;
  double points = 0;
  for (const auto& t : report.tests)
    if (shown_later(t) && !t.info) {
      ++count;
      points += t.max_score;
    }
  if (count == 0) return "";
  return std::to_string(count) + (count == 1 ? " test" : " tests") +
         " on the instructor's hidden datasets, worth " + points_text(points) +
         " points, graded with this submission: " + (count == 1 ? "its" : "their") +
         " results are shown " + when_shown(report.hidden_tests_visibility) + ".";
}

// The information lines (Test::info): not tests, so not in "tests", but said in the output,
// each with the first line of its reason (a failing test beside it holds any details).
std::string not_graded_section(const Report& report) {
  std::string s;
  for (const auto& t : report.tests)
    if (t.info && t.visibility != "hidden") {
      const std::string why = t.output.substr(0, t.output.find('\n'));
      s += "- " + markdown_text(t.name) + (why.empty() ? "" : ": " + markdown_text(why)) + "\n";
    }
  return s.empty() ? s : "**Not graded here**\n\n" + s;
}

// The output above the tests, in markdown: the score given and why, where adjusted; why there
// is no score, where there is none; the report's own lines; the tests on hidden datasets; what
// was not graded here. Each line of text escaped: an intake note names the submission's files.
std::string output_markdown(const Report& report) {
  std::vector<std::string> blocks;
  // Students read the output before the tests on hidden datasets are shown: its lines count
  // only the tests shown now (score_lines.h).
  if (report.adjustment && report.scored())
    // gpulab's own words and numbers: nothing of the submission's to escape.
    blocks.push_back("**" + score_given_line(report, HiddenTests::kHeldBack) + "**. " +
                     markdown_text(adjustment_line(report, HiddenTests::kHeldBack)));
  const std::string headline = report_headline(report);
  size_t at = 0;
  while (at < headline.size()) {
    size_t eol = headline.find('\n', at);
    if (eol == std::string::npos) eol = headline.size();
    const std::string line = markdown_text(headline.substr(at, eol - at));
    if (!line.empty()) blocks.push_back(line);
    at = eol + 1;
  }
  if (const std::string h = hidden_tests_line(report); !h.empty())
    blocks.push_back(markdown_text(h));
  if (const std::string n = not_graded_section(report); !n.empty()) blocks.push_back(n);
  std::string out;
  for (const auto& b : blocks) {
    if (!out.empty()) out += "\n\n";
    out += b;
  }
  return out;
}

}  // namespace

json gradescope_results(const Report& report) {
  json j;
  if (report.scored()) j["score"] = report.final_score();
  j["execution_time"] = std::round(report.execution_time_s);
  j["output"] = output_markdown(report);
  // Every message is markdown built by markdown_text.h (quoted text escaped or fenced); test
  // names are plain text, whatever file names they quote.
  j["output_format"] = "md";
  j["test_output_format"] = "md";
  j["test_name_format"] = "text";
  j["visibility"] = "visible";
  // The autograder's stdout is gpulab's log, for instructors: build commands, paths and the
  // progress of every group, the hidden ones included, before the due date. Students read the
  // report, which holds all that is theirs.
  j["stdout_visibility"] = "hidden";
  j["tests"] = json::array();
  int number = 0;
  for (const auto& t : report.tests) {
    // An information line students see is said in the output (not_graded_section). One for
    // instructors alone (what to review in the student's files) cannot go there, since students
    // read the output: it is a hidden test, worth nothing.
    if (t.info && t.visibility != "hidden") continue;
    j["tests"].push_back({{"name", t.name},
                          {"number", std::to_string(++number)},
                          {"score", t.score},
                          {"max_score", t.max_score},
                          {"status", t.passed ? "passed" : "failed"},
                          {"output", markdown_message(t.output)},
                          {"tags", t.tags},
                          {"visibility", visibility_of(t, report)},
                          {"extra_data", t.extra.is_object() ? t.extra
                                         : t.extra.is_null() ? json::object()
                                                             : json{{"value", t.extra}}}});
  }
  // Gradescope shows a leaderboard wherever the key is present: only with entries (timed GPU
  // parts, timed_tests.cpp).
  for (const auto& l : report.leaderboard)
    j["leaderboard"].push_back({{"name", l.name}, {"value", l.value}, {"order", l.order}});
  j["extra_data"] = {{"gpulab", report.environment}, {"datasets", json::array()}};
  // Per-dataset outcomes for instructors and for calibrating tolerances; hidden from students
  // along with the rest of extra_data.
  for (const auto& r : report.rows)
    j["extra_data"]["datasets"].push_back(
        {{"part", r.part},
         {"dataset", r.dataset},
         {"result", r.result},
         {"err_over_bound",
          std::isfinite(r.err_over_bound) ? json(r.err_over_bound) : json(nullptr)},
         {"student_ms", r.student_ms},
         {"reference_ms", r.reference_ms},
         {"ratio", r.ratio}});
  if (report.adjustment)
    // For instructors: the full numbers.
    j["extra_data"]["adjustment"] = {{"score", report.adjustment->score},
                                     {"tests_score", report.score()},
                                     {"why", adjustment_line(report, HiddenTests::kCounted)}};
  if (!report.grader_error.empty()) j["extra_data"]["grader_error"] = report.grader_error;
  if (report.stopped_by) j["extra_data"]["stopped"] = {{"signal", signal_name(report.stopped_by)}};
  return j;
}

}  // namespace gpulab
