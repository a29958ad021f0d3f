// Every test of a grading's report passes through here, one call adding a test's points and
// its maximum together: a test that ran with what a scoring rule gave it (scoring.h), a test
// that could not run with 0 of the maximum it stands for, a note worth nothing. The maximum of a
// part that did not run (it did not build, or there is no GPU) is scoring's part_max under the
// grading's scope: the sum of the maxima of the tests grading it would have held.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/grade_scope.h"
#include "core/report.h"
#include "lab/lab_config.h"

namespace gpulab {

class ReportBuilder {
 public:
  // `lab` and `scope` must outlive the builder.
  ReportBuilder(Report& report, const LabConfig& lab, const GradeScope& scope)
      : report_(report), lab_(lab), scope_(scope) {}

  // A test that ran: `score` of `max`. Returns its place, for a later look (test()).
  size_t scored(std::string name, double score, double max, bool passed, std::string output,
                std::vector<std::string> tags);
  // A test a timed step built, its score and maximum set by scoring.h's rules.
  size_t add(Test t);
  // A test that could not run: 0 of `max` (scoring.h's placeholder).
  size_t placeholder(std::string name, double max, std::string why, std::vector<std::string> tags);
  // `part` not graded, named "<part>: <what>": 0 of the part's maximum under the scope.
  size_t part_not_run(const PartSpec& part, const std::string& what, std::string why);
  // Every part the scope selects, not graded (the submission was not accepted, or did not
  // build).
  void parts_not_run(const std::string& what, const std::string& why);
  // A line of information for the student, not a test (Test::info): something not run or
  // not measured here, and why.
  size_t info(std::string name, std::string output, std::vector<std::string> tags);
  // A test worth nothing that instructors alone see (visibility "hidden"): the details behind
  // a test on hidden datasets.
  size_t instructors_detail(std::string name, std::string output, std::vector<std::string> tags,
                            bool passed);

  // The instructors' test of what a grader cannot rule out in the student's files
  // (review_flags.h): an information line students never see, worth nothing, titled "to
  // review: ..." with a line per site. Nothing where there are no sites.
  void to_review(std::vector<ReviewFlagSite> sites);

  Test& test(size_t at) { return report_.tests.at(at); }
  // A picture for the student (report.h's ReportImage).
  void image(ReportImage i) { report_.images.push_back(std::move(i)); }

  // A row of the per-dataset table (gpulab run's), and a leaderboard entry.
  void row(DatasetRow r) { report_.rows.push_back(std::move(r)); }
  void leaderboard(LeaderboardEntry e) { report_.leaderboard.push_back(std::move(e)); }

 private:
  Report& report_;
  const LabConfig& lab_;
  const GradeScope& scope_;
};

}  // namespace gpulab
