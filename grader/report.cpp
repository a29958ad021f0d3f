#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "atomic_file.h"
#include "safe_text.h"
#include "stop_signals.h"

namespace gpulab {

namespace {

// Every string of `j`, keys too, as safe text: whatever reached the report from a submission
// (its output, its file names, what its runs wrote) is quoted safely even where no quoting
// site cut and cleaned it first.
nlohmann::json safe_json(const nlohmann::json& j) {
  if (j.is_string()) return safe_text(j.get_ref<const std::string&>());
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : j) out.push_back(safe_json(v));
    return out;
  }
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : j.items()) out[safe_text(key)] = safe_json(value);
    return out;
  }
  return j;
}

std::string stopped_message(int signal) {
  return "The grading was stopped (" + signal_name(signal) +
         ") before it finished, so no score was given; the tests below are those finished "
         "before it stopped.";
}

}  // namespace

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

nlohmann::json Report::to_json() const {
  nlohmann::json j;
  if (grader_error.empty() && !stopped_by) j["score"] = score();
  j["execution_time"] = std::round(execution_time_s);
  j["output"] = stopped_by             ? stopped_message(stopped_by) + "\n" + output
                : grader_error.empty() ? output
                                       : "The grader failed; no score was given. " + grader_error;
  j["visibility"] = "visible";
  j["stdout_visibility"] = "hidden";
  j["tests"] = nlohmann::json::array();
  int number = 0;
  for (const auto& t : tests) {
    nlohmann::json e = {{"name", t.name},
                        {"number", std::to_string(++number)},
                        {"score", t.score},
                        {"max_score", t.max_score},
                        {"status", t.passed ? "passed" : "failed"},
                        {"output", t.output},
                        {"tags", t.tags},
                        {"visibility", t.visibility},
                        {"extra_data", t.extra}};
    j["tests"].push_back(e);
  }
  j["leaderboard"] = nlohmann::json::array();
  for (const auto& l : leaderboard)
    j["leaderboard"].push_back({{"name", l.name}, {"value", l.value}, {"order", l.order}});
  j["extra_data"] = {{"gpulab", environment}, {"datasets", nlohmann::json::array()}};
  // Per-dataset outcomes for instructors and for calibrating tolerances; hidden from students
  // along with the rest of extra_data.
  for (const auto& r : rows)
    j["extra_data"]["datasets"].push_back(
        {{"part", r.part},
         {"dataset", r.dataset},
         {"result", r.result},
         {"err_over_bound", std::isfinite(r.err_over_bound) ? nlohmann::json(r.err_over_bound)
                                                            : nlohmann::json(nullptr)},
         {"student_ms", r.student_ms},
         {"reference_ms", r.reference_ms},
         {"ratio", r.ratio}});
  if (!grader_error.empty()) j["extra_data"]["grader_error"] = grader_error;
  if (stopped_by) j["extra_data"]["stopped"] = {{"signal", signal_name(stopped_by)}};
  return safe_json(j);
}

std::string Report::summary(const TerminalStyle& style) const {
  std::string s;
  char buf[512];
  if (stopped_by)
    return style.fail("grading stopped by " + signal_name(stopped_by)) + " (no score given)\n";
  if (!grader_error.empty())
    return style.fail("grader error") + " (no score given): " + safe_text(grader_error) + "\n";
  for (const auto& t : tests) {
    if (t.visibility == "hidden") continue;
    // A test worth nothing that did not pass was not graded here (no GPU, timing off).
    const char* status = t.passed ? "ok" : t.max_score > 0 ? "FAIL" : "--";
    std::snprintf(buf, sizeof buf, "%-6s", status);
    s += "  " + style.result(status, buf);
    std::snprintf(buf, sizeof buf, " %6.1f / %-6.1f ", t.score, t.max_score);
    s += buf + safe_text(t.name) + "\n";
  }
  std::snprintf(buf, sizeof buf, "  total  %6.1f / %-6.1f", score(), max_score());
  s += style.heading(buf) + "\n";
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

std::string number(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
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
    cells.push_back({safe_text(r.part), safe_text(r.dataset), safe_text(r.result),
                     std::isfinite(r.err_over_bound) ? number("%.3g", r.err_over_bound) : "inf",
                     r.student_ms >= 0 ? number("%.4g", r.student_ms) : "-",
                     r.reference_ms >= 0 ? number("%.4g", r.reference_ms) : "-",
                     r.ratio > 0 ? number("%.2fx", r.ratio) : "-"});
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

std::string report_text(const Report& report) {
  // to_json made every string safe; the replacing dump is a second line of defence should one
  // slip through, so that a report is always written.
  return report.to_json().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

void write_report(const std::filesystem::path& path, const Report& report) {
  write_file_atomically(path, report_text(report));
}

}  // namespace gpulab
