#include "report/prairielearn_report.h"

#include <algorithm>
#include <cstdint>

#include "core/score_lines.h"
#include "report/report_headline.h"

namespace gpulab {

namespace {

// A test's output as PrairieLearn shows it: a one-line message over the rest.
std::pair<std::string, std::string> message_and_output(const Test& t) {
  const size_t end = t.output.find('\n');
  std::string first = t.output.substr(0, end);
  std::string rest = end == std::string::npos ? "" : t.output.substr(end + 1);
  if (first.empty()) first = t.passed ? "passed" : "failed";
  return {std::move(first), std::move(rest)};
}

// Why a report is not gradable, or "" where it is.
std::string not_gradable_because(const Report& report) {
  if (!report.scored()) return report_headline(report);  // stopped, or the grader failed
  switch (report.outcome) {
    case SubmissionOutcome::kNotAccepted:
      return "Your submission was not accepted, so it was not graded; the reason is below.";
    case SubmissionOutcome::kNotBuilt:
      return "Your code did not build, so it was not graded; the compiler's messages are below.";
    case SubmissionOutcome::kGraded:
      break;
  }
  if (report.max_score() <= 0)
    return "Nothing graded here carries points (the parts this question grades are left out on "
           "this backend), so there is no score. Please tell your instructor.\n" +
           report.output;
  return "";
}

// The tests' outputs, each once: a part not graded repeats the reason of every other.
std::string reasons(const Report& report) {
  std::vector<std::string> seen;
  std::string text;
  for (const auto& t : report.tests) {
    if (t.visibility == "hidden" || t.output.empty()) continue;
    if (std::find(seen.begin(), seen.end(), t.output) != seen.end()) continue;
    seen.push_back(t.output);
    text += t.output + (t.output.back() == '\n' ? "" : "\n");
  }
  return text;
}

// The information lines (Test::info), one per line: what was not run or not measured, and why.
std::string info_lines(const Report& report) {
  std::string text;
  for (const auto& t : report.tests)
    if (t.info && t.visibility != "hidden") text += t.name + ": " + t.output + "\n";
  return text;
}

// The PNG file's bytes as a data URL: base64 (RFC 4648), written here so that the report
// writers need no library beyond JSON (tests/fuzz builds them alone).
std::string png_data_url(const std::string& png) {
  static const char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string url = "data:image/png;base64,";
  for (size_t i = 0; i < png.size(); i += 3) {
    const size_t n = std::min<size_t>(3, png.size() - i);
    uint32_t v = 0;
    for (size_t k = 0; k < 3; ++k)
      v = v << 8 | (k < n ? static_cast<unsigned char>(png[i + k]) : 0u);
    for (size_t k = 0; k < 4; ++k) url += k <= n ? kDigits[(v >> (18 - 6 * k)) & 63] : '=';
  }
  return url;
}

// The report's images while their URLs fit kPrairieLearnImageBytes.
nlohmann::json images_json(const Report& report) {
  nlohmann::json a = nlohmann::json::array();
  size_t bytes = 0;
  for (const auto& image : report.images) {
    std::string url = png_data_url(image.png);
    if (bytes + url.size() > kPrairieLearnImageBytes) break;
    bytes += url.size();
    a.push_back({{"label", image.label}, {"url", std::move(url)}});
  }
  return a;
}

nlohmann::json test_json(const Test& t) {
  auto [message, output] = message_and_output(t);
  nlohmann::json j = {{"name", t.name},
                      {"points", t.score},
                      {"max_points", t.max_score},
                      {"message", std::move(message)},
                      {"output", std::move(output)}};
  if (t.on_hidden_datasets)
    j["description"] =
        "Graded on the instructor's hidden datasets: how many passed is shown, not which.";
  return j;
}

}  // namespace

nlohmann::json prairielearn_results(const Report& report) {
  const std::string why_not = not_gradable_because(report);
  const bool gradable = why_not.empty();
  nlohmann::json j = {{"gradable", gradable}, {"score", 0.0}, {"tests", nlohmann::json::array()}};
  if (!gradable && report.scored()) {
    // Not accepted or not built: every part's placeholder says the same reason, given once.
    j["message"] = why_not;
    j["output"] =
        report.outcome == SubmissionOutcome::kGraded ? info_lines(report) : reasons(report);
    return j;
  }
  std::string message = gradable ? report_headline(report) : why_not;
  if (gradable) {
    const double max = report.max_score();
    j["score"] = std::clamp(report.final_score() / max, 0.0, 1.0);
    // PrairieLearn shows every test at once, the hidden datasets' too: its lines count them.
    if (report.adjustment) {
      if (!message.empty() && message.back() != '\n') message += "\n";
      message += score_given_line(report, HiddenTests::kCounted) + " points (" +
                 adjustment_line(report, HiddenTests::kCounted) + ").";
    }
  }
  j["message"] = message;
  j["output"] = info_lines(report);
  for (const auto& t : report.tests)
    if (t.visibility != "hidden" && !t.info) j["tests"].push_back(test_json(t));
  if (nlohmann::json images = images_json(report); !images.empty()) j["images"] = std::move(images);
  return j;
}

}  // namespace gpulab
