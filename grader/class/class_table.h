// A class's grades gathered into one table: a row per student (the roster's folders, and the
// roster CSV's people), per lab the report gpulab graded it with (report.h, read back from
// gpulab's own format), and its renderings: class.csv for spreadsheets, a self-contained HTML
// summary, and the gradebook uploads (gradebook.h). Every rendering asks the table for a
// student's points, so the rule for who counts with what is written once, here:
//   graded          the report's points
//   did not build,  zeros: every part and test 0 of its maximum; counted in every mean and
//   not accepted    histogram, and flagged with its status
//   missing         (in the roster CSV, no submission) zeros too, of the lab's maximum
//   grader failed,  no score (none is invented): empty cells, left out of means and totals,
//   stopped,        and flagged; "not graded" is a report with a score of nothing (its maximum
//   not graded      0: no part worth points was graded), which is no zero either
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "class/roster_csv.h"
#include "core/report.h"

namespace gpulab {

// One student's grade of one lab, as the table counts it.
struct LabResult {
  std::string status;           // "graded", "did not build", "not accepted", "missing", ...
  std::optional<double> score;  // none: the grader failed, was stopped, or graded nothing
  double max = 0;
  bool flagged() const { return status != "graded"; }
};

class ClassTable {
 public:
  explicit ClassTable(std::vector<std::string> labs) : labs_(std::move(labs)) {}
  // A student of the roster CSV, known whether or not a report follows.
  void add_student(RosterPerson person);
  // The report of the student whose roster entry is `folder`.
  void add(const std::string& folder, const std::string& lab, Report report);

  const std::vector<std::string>& labs() const { return labs_; }
  std::vector<std::string> students() const;  // folders, sorted
  // The student's identifiers: the roster CSV's row, or the folder alone.
  RosterPerson person(const std::string& folder) const;
  const Report* find(const std::string& folder, const std::string& lab) const;

  // The parts of `lab` worth points in some scored report, in the order they first appear.
  std::vector<std::string> parts(const std::string& lab) const;
  // The tests of `part` worth points in some graded report (an information line, a detail worth
  // nothing, a placeholder of a submission that did not build is no column).
  std::vector<std::string> test_names(const std::string& lab, const std::string& part) const;
  // A maximum as the scored reports give it (the largest, should they differ).
  double test_max(const std::string& lab, const std::string& test) const;
  double part_max(const std::string& lab, const std::string& part) const;
  double lab_max(const std::string& lab) const;

  LabResult result(const std::string& folder, const std::string& lab) const;
  // Points of a part (score, maximum), of a test: none where the result has no score, or where
  // a graded report has no such test (it was not part of that grading).
  std::optional<std::pair<double, double>> part_points(const std::string& folder,
                                                       const std::string& lab,
                                                       const std::string& part) const;
  std::optional<double> test_points(const std::string& folder, const std::string& lab,
                                    const std::string& test) const;
  // What a grader cannot rule out in the student's files (review_flags.h), for instructors:
  // the sites of the report's "to review" test, whatever its score; none without a report.
  std::vector<ReviewFlagSite> to_review(const std::string& folder, const std::string& lab) const;

 private:
  std::vector<std::string> labs_;
  std::map<std::string, RosterPerson> people_;                     // by folder
  std::map<std::pair<std::string, std::string>, Report> reports_;  // (folder, lab)
};

// The part a test belongs to: its first tag (every graded test carries its part there), else
// its name up to ": ".
std::string part_of(const Test& test);

// Points as a spreadsheet reads them: up to two decimals, no trailing zeros ("7.5", "10").
std::string format_points(double points);

// Columns: student (the folder), id, name, email; per lab its status, what to review in it (the
// flags' names, review_flags.h; empty where none), per part its tests then the part's score and
// maximum, then the lab's score and maximum; then the total and its maximum over the labs with a
// score.
std::string class_csv(const ClassTable& table);

// One HTML file with no external assets: per lab the score statistics, a histogram of the
// scores (as a fraction of each student's maximum), how many earned each test's points and
// what the class got wrong (class_findings.h); then every student's scores, and what to review
// in their files (review_flags.h): per lab the flags' number and names, opening to their lines.
std::string class_html(const ClassTable& table, const std::string& title);

// What the class got wrong (class_findings.h), every group of every lab, a row each. Columns:
// lab, test (a finding's: its part), row ("failed": students who failed the test, of those
// graded with it; "message": students whose failure says this, of those who failed; "finding":
// students with the finding, of those graded), students, of, kind (a finding's), where (a
// finding's file:line, one student's), group (what groups the row), example (one student's
// message, or line of code).
std::string class_findings_csv(const ClassTable& table);

}  // namespace gpulab
