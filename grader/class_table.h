// A class's reports gathered into one table (a row per student, a column per test of each lab),
// and its two renderings for instructors: a CSV for spreadsheets and grade books, and a
// self-contained HTML summary with a score histogram per lab.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace gpulab {

// One student's report of one lab: results.json as the grader wrote it.
struct StudentLab {
  bool grader_failed = false;  // the report says the grader failed: it carries no score
  nlohmann::json report;
  double score() const;
  double max_score() const;
  // The points of the test named `test`; false when the report has no such test.
  bool test_score(const std::string& test, double& score) const;
};

class ClassTable {
 public:
  explicit ClassTable(std::vector<std::string> labs) : labs_(std::move(labs)) {}
  void add(const std::string& student, const std::string& lab, nlohmann::json report);

  const std::vector<std::string>& labs() const { return labs_; }
  std::vector<std::string> students() const;  // sorted
  const StudentLab* find(const std::string& student, const std::string& lab) const;
  // The tests of `lab` that carry points in some student's report, in the order they first
  // appear (students in sorted order): a test that earns nothing anywhere (an instructors-only
  // detail, a part not graded on this backend) is no column.
  std::vector<std::string> test_names(const std::string& lab) const;
  // The test's maximum, as the reports give it (the largest, should they differ).
  double test_max(const std::string& lab, const std::string& test) const;

 private:
  std::vector<std::string> labs_;
  std::map<std::pair<std::string, std::string>, StudentLab> results_;  // (student, lab)
};

// Points as a spreadsheet reads them: up to two decimals, no trailing zeros ("7.5", "10").
std::string format_points(double points);

// Columns: student; per lab its status ("graded", "grader failed", "missing"), one column per
// test, its score and its maximum; then the total and its maximum over the labs graded.
std::string class_csv(const ClassTable& table);

// One HTML file with no external assets: per lab the score statistics, a histogram of the
// scores (as a fraction of each student's maximum), and how many earned each test's points;
// then every student's scores.
std::string class_html(const ClassTable& table, const std::string& title);

}  // namespace gpulab
