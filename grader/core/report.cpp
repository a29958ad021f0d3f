#include "core/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/score_lines.h"
#include "os/stop_signals.h"
#include "text/number_text.h"
#include "text/safe_text.h"

namespace gpulab {

namespace {

struct OutcomeInfo {
  SubmissionOutcome outcome;
  const char* name;
};

constexpr OutcomeInfo kOutcomes[] = {
#define GPULAB_OUTCOME_INFO(id, name, what) {SubmissionOutcome::id, name},
    GPULAB_SUBMISSION_OUTCOMES(GPULAB_OUTCOME_INFO)
#undef GPULAB_OUTCOME_INFO
};

}  // namespace

const char* outcome_name(SubmissionOutcome outcome) {
  for (const auto& o : kOutcomes)
    if (o.outcome == outcome) return o.name;
  return "?";
}

std::optional<SubmissionOutcome> outcome_named(const std::string& name) {
  for (const auto& o : kOutcomes)
    if (name == o.name) return o.outcome;
  return std::nullopt;
}

std::string points_text(double points) {
  return printf_text("%g", points);
}

double Report::score() const {
  double s = 0;
  for (const auto& t : tests) s += t.score;
  return s;
}

double Report::max_score() const {
  double s = 0;
  for (const auto& t : tests) s += t.max_score;
  return s;
}

std::string Report::summary(const TerminalStyle& style, bool student) const {
  const HiddenTests hidden = student ? HiddenTests::kHeldBack : HiddenTests::kCounted;
  std::string s;
  char buf[512];
  if (stopped_by)
    return style.fail("grading stopped by " + signal_name(stopped_by)) + " (no score given)\n";
  if (!grader_error.empty())
    return style.fail("grader error") + " (no score given): " + safe_text(grader_error) + "\n";
  for (const auto& t : tests) {
    if (t.visibility == "hidden" || !counts(t, hidden)) continue;
    // A test worth nothing that did not pass was not graded here (no GPU, timing off).
    const char* status = t.info ? "--" : t.passed ? "ok" : t.max_score > 0 ? "FAIL" : "--";
    std::snprintf(buf, sizeof buf, "%-6s", status);
    s += "  " + style.result(status, buf);
    std::snprintf(buf, sizeof buf, " %6.1f / %-6.1f ", t.score, t.max_score);
    s += buf + safe_text(t.name) + "\n";
  }
  const CountedPoints counted = counted_points(*this, hidden);
  std::snprintf(buf, sizeof buf, "  total  %6.1f / %-6.1f", counted.score, counted.max);
  s += style.heading(buf) + "\n";
  if (adjustment) {
    const std::optional<double> given = given_points(*this, hidden);
    if (given)
      std::snprintf(buf, sizeof buf, "  given  %6.1f", *given);
    else
      std::snprintf(buf, sizeof buf, "  given  %6s", "-");
    s += style.heading(buf) + "  (" + safe_text(adjustment_line(*this, hidden)) + ")\n";
  }
  if (!output.empty()) s += safe_text(output) + "\n";
  return s;
}

bool Report::any_failed() const {
  for (const auto& t : tests)
    if (t.visibility != "hidden" && t.max_score > 0 && !t.passed) return true;
  return false;
}

namespace {

// The columns a piece of safe text takes: one per character (UTF-8 lead byte).
size_t columns(const std::string& text) {
  size_t n = 0;
  for (const unsigned char c : text) n += (c & 0xC0) != 0x80;
  return n;
}

std::string padded(const std::string& text, size_t width, bool right) {
  const std::string pad(width > columns(text) ? width - columns(text) : 0, ' ');
  return right ? pad + text : text + pad;
}

}  // namespace

std::string Report::table(const TerminalStyle& style) const {
  // Each column as wide as its longest value, so that a long part or dataset name shifts
  // nothing; numbers on the right.
  const std::vector<std::string> header = {"part",    "dataset", "result", "err/bound",
                                           "time ms", "ref ms",  "ratio"};
  const std::vector<bool> right = {false, false, false, true, true, true, true};
  std::vector<std::vector<std::string>> cells;
  for (const auto& r : rows)
    cells.push_back(
        {safe_text(r.part), safe_text(r.dataset), safe_text(r.result),
         std::isfinite(r.err_over_bound) ? printf_text("%.3g", r.err_over_bound) : "inf",
         r.student_ms >= 0 ? printf_text("%.4g", r.student_ms) : "-",
         r.reference_ms >= 0 ? printf_text("%.4g", r.reference_ms) : "-",
         r.ratio > 0 ? printf_text("%.2fx", r.ratio) : "-"});
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = columns(header[c]);
    for (const auto& row : cells) width[c] = std::max(width[c], columns(row[c]));
  }
  const auto line = [&](const std::vector<std::string>& row, bool is_header) {
    std::string s = " ";
    for (size_t c = 0; c < row.size(); ++c) {
      const std::string cell = padded(row[c], width[c], right[c]);
      s += " " + (is_header ? style.heading(cell) : c == 2 ? style.result(row[c], cell) : cell);
    }
    return s + "\n";
  };
  std::string s = line(header, true);
  for (const auto& row : cells) s += line(row, false);
  return s;
}

}  // namespace gpulab
