// The score report in Gradescope's results.json schema, and the short terminal summary.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "terminal_style.h"

namespace gpulab {

struct Test {
  std::string name;
  double score = 0, max_score = 0;
  bool passed = false;
  std::string output;
  std::string visibility = "visible";  // "hidden": instructors only
  std::vector<std::string> tags;
  nlohmann::json extra = nlohmann::json::object();
};

struct LeaderboardEntry {
  std::string name;
  double value = 0;
  std::string order = "asc";
};

// One row of `gpulab run`'s per-dataset table.
struct DatasetRow {
  std::string part, dataset, result;  // result: "pass", "FAIL", "error", ...
  double err_over_bound = 0;
  double student_ms = -1, reference_ms = -1;
  double ratio = -1;  // the scored time ratio (median over rounds), where timed
};

struct Report {
  std::vector<Test> tests;
  std::vector<LeaderboardEntry> leaderboard;
  std::vector<DatasetRow> rows;
  std::string output;  // shown to students above the tests
  double execution_time_s = 0;
  nlohmann::json environment = nlohmann::json::object();  // version, backend, GPU, compiler
  std::string grader_error;  // set when the grader itself failed: then no score is given
  // The signal (SIGTERM, SIGINT) that stopped the grading before it finished (stop_signals.h):
  // then no score is given, and the tests are those finished before it stopped.
  int stopped_by = 0;

  double score() const;
  double max_score() const;
  nlohmann::json to_json() const;
  // A few lines for a terminal, and the per-dataset table of `gpulab run`, in `style`.
  std::string summary(const TerminalStyle& style = {}) const;
  std::string table(const TerminalStyle& style = {}) const;
  // Whether a visible test worth points did not pass (summary's FAIL): gpulab run's exit status.
  bool any_failed() const;
};

// The report as written: JSON whose every string is safe text (safe_text.h), whatever a
// submission made it quote.
std::string report_text(const Report& report);

// Writes report_text through a temporary file and a rename, so a reader never sees half of it.
void write_report(const std::filesystem::path& path, const Report& report);

}  // namespace gpulab
