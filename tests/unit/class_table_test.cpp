// grader/class/class_table.h: the class CSV (identifiers, a column per part and per test, totals),
// who counts with what (a submission that did not build or is missing counts with zeros and is
// flagged; a grader failure has no score), the self-contained HTML summary, and in a column of
// each what to review in a student's files (review_flags.h).
#include "class/class_table.h"

#include <doctest/doctest.h>

#include <regex>

#include "class/class_findings.h"
#include "core/review_flags.h"
#include "test_util.h"
#include "text/csv_text.h"

namespace {

using gpulab::ClassTable;
using gpulab::Report;
using gpulab::SubmissionOutcome;
using test::contains;

gpulab::Test test_entry(const std::string& name, double score, double max) {
  gpulab::Test t;
  t.name = name;
  t.score = score;
  t.max_score = max;
  t.passed = score >= max;
  t.tags = {name.substr(0, name.find(": "))};
  return t;
}

Report report(std::vector<gpulab::Test> tests,
              SubmissionOutcome outcome = SubmissionOutcome::kGraded) {
  Report r;
  r.tests = std::move(tests);
  r.outcome = outcome;
  return r;
}

// The instructors' test of what a grader cannot rule out in a student's files (review_flags.h).
gpulab::Test review_of(std::vector<gpulab::ReviewFlagSite> sites) {
  gpulab::Test t;
  t.name = gpulab::review_title(sites);
  t.info = true;
  t.visibility = "hidden";
  t.review_flags = std::move(sites);
  return t;
}

const std::vector<gpulab::ReviewFlagSite> kBobsSites = {
    {"exit_handler", "scan.cu", 75, 1, "atexit", "std::atexit(stop_hog);"},
    {"thread", "scan.cu", 76, 2, "std::thread", "std::thread(hog).detach(); // <b>"}};

// What gpulab writes when the grader itself failed: no score.
Report failed_report() {
  Report r;
  r.grader_error = "gpulab grade was killed by signal 9";
  return r;
}

// The CSV's fields, through the reader gpulab itself uses.
std::vector<std::vector<std::string>> rows_of(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  for (auto& r : gpulab::parse_csv(csv)) rows.push_back(std::move(r.fields));
  return rows;
}

// scan has two parts, scan and reduce; binning one. bob built and scored, and his scan has
// something to review; alice's binning did not build (its report holds the part's placeholder, 0
// of 20); carol's grader failed; dave is in the roster CSV with no submission.
ClassTable sample_class() {
  ClassTable t({"scan", "binning"});
  t.add_student({"bob", "s002", "Bob B", "bob@uni.example", "A1"});
  t.add_student({"dave", "s004", "Dave, D", "dave@uni.example", ""});
  gpulab::Test info = test_entry("scan: performance", 0, 0);
  info.info = true;  // a line of information, not a test: no column
  t.add("bob", "scan",
        report({test_entry("scan: correctness, public", 10, 10),
                test_entry("scan: details (instructors)", 0, 0),
                test_entry("reduce: performance \"fast\", or not", 2.5, 5), info,
                review_of(kBobsSites)}));
  t.add("bob", "binning", report({test_entry("binning: correctness", 20, 20)}));
  t.add("alice", "scan",
        report({test_entry("scan: correctness, public", 0, 10),
                test_entry("reduce: performance \"fast\", or not", 0, 5)}));
  t.add("alice", "binning",
        report({test_entry("binning: does not build", 0, 20)}, SubmissionOutcome::kNotBuilt));
  t.add("carol", "scan", failed_report());
  return t;
}

}  // namespace

TEST_CASE("the class CSV: identifiers, a column per part and per test, zeros where not built") {
  const auto rows = rows_of(gpulab::class_csv(sample_class()));
  REQUIRE(rows.size() == 5);  // header, alice, bob, carol, dave (sorted by folder)
  const std::vector<std::string> header = {"student",
                                           "id",
                                           "name",
                                           "email",
                                           "scan status",
                                           "scan to review",
                                           "scan: scan: correctness, public",
                                           "scan: scan score",
                                           "scan: scan max",
                                           "scan: reduce: performance \"fast\", or not",
                                           "scan: reduce score",
                                           "scan: reduce max",
                                           "scan score",
                                           "scan max",
                                           "binning status",
                                           "binning to review",
                                           "binning: binning: correctness",
                                           "binning: binning score",
                                           "binning: binning max",
                                           "binning score",
                                           "binning max",
                                           "total",
                                           "max"};
  // No zero-point detail, no information line (what to review among them), no placeholder.
  CHECK(rows[0] == header);
  for (const auto& r : rows) CHECK(r.size() == header.size());
  // alice's binning did not build: every cell a zero of the part's maximum, and flagged.
  CHECK(rows[1] ==
        std::vector<std::string>{"alice", "",  "",  "",   "graded",        "", "0", "0", "10", "0",
                                 "0",     "5", "0", "15", "did not build", "", "0", "0", "20", "0",
                                 "20",    "0", "35"});
  // bob's scan has two flags to review, named in its own column; none is a score.
  CHECK(rows[2] == std::vector<std::string>{"bob",    "s002",
                                            "Bob B",  "bob@uni.example",
                                            "graded", "exit handler, thread",
                                            "10",     "10",
                                            "10",     "2.5",
                                            "2.5",    "5",
                                            "12.5",   "15",
                                            "graded", "",
                                            "20",     "20",
                                            "20",     "20",
                                            "20",     "32.5",
                                            "35"});
  // The grader failed on carol's scan: no score is invented for it. Her binning has no
  // report (she is not in the roster CSV, so no row of it vouches for her): zeros.
  CHECK(rows[3] ==
        std::vector<std::string>{"carol", "",  "",  "", "grader failed", "", "",  "",  "",   "",
                                 "",      "",  "",  "", "missing",       "", "0", "0", "20", "0",
                                 "20",    "0", "20"});
  // dave: in the roster CSV, no submission: missing, zeros of each maximum.
  CHECK(rows[4] == std::vector<std::string>{"dave",    "s004", "Dave, D", "dave@uni.example",
                                            "missing", "",     "0",       "0",
                                            "10",      "0",    "0",       "5",
                                            "0",       "15",   "missing", "",
                                            "0",       "0",    "20",      "0",
                                            "20",      "0",    "35"});
}

TEST_CASE("a late penalty's score is the lab's score, the tests keep their points") {
  ClassTable t({"scan"});
  Report r = report({test_entry("scan: correctness", 10, 10)});
  r.adjustment = gpulab::ScoreAdjustment{7, "late", std::nullopt};
  t.add("bob", "scan", r);
  const auto rows = rows_of(gpulab::class_csv(t));
  REQUIRE(rows.size() == 2);
  CHECK(rows[1] == std::vector<std::string>{"bob", "", "", "", "graded", "", "10", "10", "10", "7",
                                            "10", "7", "10"});
}

TEST_CASE("format_points: up to two decimals, no trailing zeros") {
  CHECK(gpulab::format_points(10) == "10");
  CHECK(gpulab::format_points(7.5) == "7.5");
  CHECK(gpulab::format_points(1.0 / 3) == "0.33");
  CHECK(gpulab::format_points(-0.0) == "0");
}

TEST_CASE("the HTML summary is one self-contained file with a histogram per lab") {
  ClassTable t = sample_class();
  t.add("eve<script>", "scan",
        report({test_entry("scan: correctness, public", 10, 10),
                test_entry("reduce: performance \"fast\", or not", 5, 5)}));
  const std::string html = gpulab::class_html(t, "gpulab: class results");
  CHECK(contains(html, "<!DOCTYPE html>"));
  CHECK(contains(html, "</html>"));
  // Nothing fetched from elsewhere: no links, scripts, images or remote fonts.
  for (const char* external : {"http:", "https:", "src=", "<link", "<script", "@import", "url("})
    CHECK_MESSAGE(!contains(html, external), external);
  CHECK(contains(html, "eve&lt;script&gt;"));  // names are escaped
  // One histogram per lab, and the bars count every student with a score: scan has alice 0/15,
  // dave (missing) 0/15, bob 12.5/15 (83%), eve 15/15; carol's grader failure is apart.
  const std::regex svg("<svg class=\"hist\"");
  CHECK(std::distance(std::sregex_iterator(html.begin(), html.end(), svg),
                      std::sregex_iterator()) == 2);
  const std::string scan = html.substr(0, html.find("<h2>binning</h2>"));
  CHECK(contains(scan, "0-10%: 2 students"));
  CHECK(contains(scan, "80-90%: 1 students"));
  CHECK(contains(scan, "90-100%: 1 students"));
  CHECK(contains(scan, "4 counted"));
  CHECK(contains(scan, "1 grader failed"));
  CHECK(contains(scan, "mean 6.88"));  // (0 + 0 + 12.5 + 15) / 4
  // binning: bob 20, alice did not build (0), carol and dave missing (0), eve missing (0): the
  // zeros are in the mean and in the lowest bar.
  const std::string binning = html.substr(html.find("<h2>binning</h2>"));
  CHECK(contains(binning, "5 counted"));
  CHECK(contains(binning, "1 did not build</strong> (counted with zeros)"));
  CHECK(contains(scan, "1 grader failed</strong> (no score: not counted)"));
  CHECK(contains(binning, "mean 4"));
  CHECK(contains(binning, "0-10%: 4 students"));
  CHECK(contains(binning, "1 of 5"));  // binning: correctness, full points
  CHECK(contains(html, "(did not build)"));
}

TEST_CASE("the HTML's to review column: per lab the flags' number and names, opening to lines") {
  ClassTable t = sample_class();
  t.add("bob", "binning",
        report({test_entry("binning: correctness", 20, 20),
                review_of({{"environment", "binning.cu", 9, 40, "getenv", "getenv(\"X\");"}})}));
  const std::string html = gpulab::class_html(t, "gpulab: class results");
  const std::string students = html.substr(html.find("<h2>Students</h2>"));
  CHECK(contains(students, "<th>total</th><th>to review</th>"));
  // Only instructors read class.html; it is not a score, and nothing in the labs' sections.
  CHECK_FALSE(contains(html.substr(0, html.find("<h2>Students</h2>")), "exit handler"));
  const std::string bob = students.substr(students.find("<tr><td>bob</td>"));
  const std::string bob_row = bob.substr(0, bob.find("</tr>"));
  CHECK(contains(bob_row, "<details><summary>scan: 2 (exit handler, thread)</summary>"));
  CHECK(contains(bob_row, "<details><summary>binning: 1 (environment)</summary>"));
  CHECK(contains(bob_row, "<li>scan.cu:75: exit handler (atexit): runs after gpulab&#39;s last"));
  CHECK(contains(bob_row, "scan.cu:76: thread (std::thread, 2 places)"));
  CHECK(contains(bob_row, "binning.cu:9: environment (getenv, 40 places)"));
  // The student's line of code, escaped.
  CHECK(contains(bob_row, "<code>std::thread(hog).detach(); // &lt;b&gt;</code>"));
  CHECK_FALSE(contains(bob_row, "<b>"));
  // Empty where nothing was flagged.
  const std::string alice = students.substr(students.find("<tr><td>alice</td>"));
  CHECK(contains(alice.substr(0, alice.find("</tr>")), "</td><td></td>"));
  CHECK(alice.substr(0, alice.find("</tr>")).find("<details>") == std::string::npos);
}

TEST_CASE("what to review is no test some student failed") {
  const gpulab::LabFindings view = gpulab::lab_findings(sample_class(), "scan");
  for (const auto& t : view.tests) CHECK(t.test.rfind("to review", 0) == std::string::npos);
}
