// grader/class/gradebook.h: Gradescope's "Upload scores" CSV and Canvas's gradebook import, each
// checked against the example header docs/GRADING.md gives ("Publishing results"), with the
// scores the class table counts (zeros for a submission that did not build or is missing, an
// empty cell where the grader failed).
#include "class/gradebook.h"

#include <doctest/doctest.h>

#include <sstream>

#include "test_util.h"
#include "text/csv_text.h"

namespace {

using gpulab::ClassTable;
using gpulab::Report;

Report scored(double score, double max,
              gpulab::SubmissionOutcome outcome = gpulab::SubmissionOutcome::kGraded) {
  Report r;
  gpulab::Test t;
  t.name = "p: correctness";
  t.score = score;
  t.max_score = max;
  t.tags = {"p"};
  r.tests = {t};
  r.outcome = outcome;
  return r;
}

ClassTable sample_class() {
  ClassTable t({"scatter-gather", "scan"});
  t.add_student({"ada", "s001", "Lovelace, Ada", "ada@uni.example", "L01"});
  t.add_student({"dave", "s004", "", "dave@uni.example", ""});  // no submission
  t.add("ada", "scatter-gather", scored(50, 50));
  t.add("ada", "scan", scored(12.5, 40));
  t.add("bob", "scatter-gather", scored(0, 50, gpulab::SubmissionOutcome::kNotBuilt));
  Report failed;
  failed.grader_error = "killed";
  t.add("bob", "scan", failed);
  return t;
}

// The line of docs/GRADING.md that starts with `start`: the documented example header.
std::string documented_line(const std::string& start) {
  std::istringstream doc(test::read_file(test::source_dir() / "docs" / "GRADING.md"));
  for (std::string line; std::getline(doc, line);) {
    line.erase(0, line.find_first_not_of(' '));  // inside a list item
    if (line.rfind(start, 0) == 0) return line + "\r\n";
  }
  FAIL("docs/GRADING.md has no line starting with " << start);
  return "";
}

std::vector<std::vector<std::string>> rows_of(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  for (auto& r : gpulab::parse_csv(csv)) rows.push_back(std::move(r.fields));
  return rows;
}

}  // namespace

TEST_CASE("Gradescope's upload: the documented header, a row per student with the lab's score") {
  const std::string csv = gpulab::gradescope_scores_csv(sample_class(), "scatter-gather");
  CHECK(csv.substr(0, csv.find('\n') + 1) == documented_line("Name,SID,Email,"));
  const auto rows = rows_of(csv);
  REQUIRE(rows.size() == 4);
  CHECK(rows[1] == std::vector<std::string>{"Lovelace, Ada", "s001", "ada@uni.example", "50"});
  // bob did not build: a zero; no roster CSV row: the folder stands for the name.
  CHECK(rows[2] == std::vector<std::string>{"bob", "", "", "0"});
  CHECK(rows[3] == std::vector<std::string>{"dave", "s004", "dave@uni.example", "0"});
  // The grader failed on bob's scan: an empty cell, not an invented score.
  CHECK(rows_of(gpulab::gradescope_scores_csv(sample_class(), "scan"))[2][3] == "");
}

TEST_CASE("Canvas's import: the documented header, Points Possible, a column per lab") {
  const std::string csv =
      gpulab::canvas_gradebook_csv(sample_class(), {{"scatter-gather", "1234"}});
  CHECK(csv.substr(0, csv.find('\n') + 1) == documented_line("Student,ID,SIS User ID,"));
  const auto rows = rows_of(csv);
  REQUIRE(rows.size() == 5);
  CHECK(rows[1] == std::vector<std::string>{"Points Possible", "", "", "", "", "50", "40"});
  CHECK(rows[2] == std::vector<std::string>{"Lovelace, Ada", "", "s001", "", "L01", "50", "12.5"});
  CHECK(rows[3] == std::vector<std::string>{"bob", "", "", "", "", "0", ""});
  CHECK(rows[4] == std::vector<std::string>{"dave", "", "s004", "", "", "0", "0"});
  // Without an assignment id the column is the lab alone.
  CHECK(rows_of(gpulab::canvas_gradebook_csv(sample_class(), {}))[0][5] == "scatter-gather");
}

// A report with a score of nothing (its maximum 0: no part worth points graded, as a GPU lab
// graded without a GPU once gave) is "not graded", never a 0; a lab no report gives points in
// has no Points Possible.
TEST_CASE("not graded is never a zero: an empty cell, and no Points Possible without one") {
  ClassTable t({"scan"});
  t.add("alice", "scan", scored(0, 0));
  Report stopped = scored(5, 10);
  stopped.stopped_by = 15;
  t.add("bob", "scan", stopped);
  CHECK(t.result("alice", "scan").status == "not graded");
  CHECK_FALSE(t.result("alice", "scan").score);
  CHECK_FALSE(t.part_points("alice", "scan", "p"));
  CHECK_FALSE(t.test_points("alice", "scan", "p: correctness"));
  const auto gradescope = rows_of(gpulab::gradescope_scores_csv(t, "scan"));
  REQUIRE(gradescope.size() == 3);
  CHECK(gradescope[1] == std::vector<std::string>{"alice", "", "", ""});
  CHECK(gradescope[2] == std::vector<std::string>{"bob", "", "", ""});
  const auto canvas = rows_of(gpulab::canvas_gradebook_csv(t, {}));
  REQUIRE(canvas.size() == 4);
  CHECK(canvas[1] == std::vector<std::string>{"Points Possible", "", "", "", "", ""});
  CHECK(canvas[2].back() == "");
  CHECK(canvas[3].back() == "");
  // One student graded: the lab's maximum is known, the others' cells stay empty.
  t.add("carol", "scan", scored(4, 10));
  CHECK(rows_of(gpulab::canvas_gradebook_csv(t, {}))[1].back() == "10");
  CHECK(rows_of(gpulab::canvas_gradebook_csv(t, {}))[2].back() == "");
}
