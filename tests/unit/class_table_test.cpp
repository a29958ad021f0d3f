// grader/class_table.h: the class CSV (a row per student, a column per test, totals) and the
// self-contained HTML summary with a histogram per lab.
#include "class_table.h"

#include <doctest/doctest.h>

#include <regex>
#include <sstream>

#include "report_formats.h"
#include "test_util.h"

namespace {

using gpulab::ClassTable;
using nlohmann::json;
using test::contains;

json test_entry(const std::string& name, double score, double max) {
  return {{"name", name}, {"score", score}, {"max_score", max}};
}

json report(std::vector<json> tests) {
  double score = 0;
  for (const auto& t : tests) score += t["score"].get<double>();
  return {{"score", score}, {"tests", tests}};
}

// What gpulab writes when the grader itself failed: no score.
json failed_report() {
  gpulab::Report r;
  r.grader_error = "gpulab grade was killed by signal 9";
  return gpulab::report_json(r, gpulab::ReportFormat::kGradescope);
}

std::vector<std::vector<std::string>> parse_csv(const std::string& csv) {
  std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
  bool quoted = false;
  for (size_t i = 0; i < csv.size(); ++i) {
    const char c = csv[i];
    if (quoted) {
      if (c == '"' && i + 1 < csv.size() && csv[i + 1] == '"') {
        rows.back().back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        rows.back().back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().emplace_back();
    } else if (c == '\r') {
    } else if (c == '\n') {
      rows.emplace_back(1);
    } else {
      rows.back().back() += c;
    }
  }
  if (rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();
  return rows;
}

ClassTable sample_class() {
  ClassTable t({"scan", "binning"});
  t.add("bob", "scan",
        report({test_entry("scan: correctness, public", 10, 10),
                test_entry("scan: details (instructors)", 0, 0),
                test_entry("scan: performance \"fast\", or not", 2.5, 5)}));
  t.add("alice", "scan",
        report({test_entry("scan: correctness, public", 0, 10),
                test_entry("scan: performance \"fast\", or not", 0, 5)}));
  t.add("alice", "binning", report({test_entry("binning: does not build", 0, 20)}));
  t.add("carol", "scan", failed_report());
  return t;
}

}  // namespace

TEST_CASE("the class CSV: a row per student, a column per test with points, totals") {
  const auto rows = parse_csv(gpulab::class_csv(sample_class()));
  REQUIRE(rows.size() == 4);  // header, alice, bob, carol (sorted)
  const auto& h = rows[0];
  const std::vector<std::string> header = {"student",
                                           "scan status",
                                           "scan: scan: correctness, public",
                                           "scan: scan: performance \"fast\", or not",
                                           "scan score",
                                           "scan max",
                                           "binning status",
                                           "binning: binning: does not build",
                                           "binning score",
                                           "binning max",
                                           "total",
                                           "max"};
  CHECK(h == header);  // the zero-point instructors' test is no column
  for (const auto& r : rows) CHECK(r.size() == header.size());
  CHECK(rows[1] == std::vector<std::string>{"alice", "graded", "0", "0", "0", "15", "graded", "0",
                                            "0", "20", "0", "35"});
  CHECK(rows[2] == std::vector<std::string>{"bob", "graded", "10", "2.5", "12.5", "15", "missing",
                                            "", "", "", "12.5", "15"});
  // The grader failed on carol's scan: no score is invented for it.
  CHECK(rows[3] == std::vector<std::string>{"carol", "grader failed", "", "", "", "", "missing", "",
                                            "", "", "0", "0"});
}

TEST_CASE("format_points: up to two decimals, no trailing zeros") {
  CHECK(gpulab::format_points(10) == "10");
  CHECK(gpulab::format_points(7.5) == "7.5");
  CHECK(gpulab::format_points(1.0 / 3) == "0.33");
  CHECK(gpulab::format_points(-0.0) == "0");
}

TEST_CASE("the HTML summary is one self-contained file with a histogram per lab") {
  ClassTable t = sample_class();
  t.add("dave<script>", "scan",
        report({test_entry("scan: correctness, public", 10, 10),
                test_entry("scan: performance \"fast\", or not", 5, 5)}));
  const std::string html = gpulab::class_html(t, "gpulab: class results");
  CHECK(contains(html, "<!DOCTYPE html>"));
  CHECK(contains(html, "</html>"));
  // Nothing fetched from elsewhere: no links, scripts, images or remote fonts.
  for (const char* external : {"http:", "https:", "src=", "<link", "<script", "@import", "url("})
    CHECK_MESSAGE(!contains(html, external), external);
  CHECK(contains(html, "dave&lt;script&gt;"));  // names are escaped
  // One histogram per lab, and the bars count the graded students of that lab: scan has
  // alice 0/15, bob 12.5/15 (83%), dave 15/15; carol's grader failure is counted apart.
  const std::regex svg("<svg class=\"hist\"");
  CHECK(std::distance(std::sregex_iterator(html.begin(), html.end(), svg),
                      std::sregex_iterator()) == 2);
  const std::string scan = html.substr(0, html.find("<h2>binning</h2>"));
  CHECK(contains(scan, "0-10%: 1 students"));
  CHECK(contains(scan, "80-90%: 1 students"));
  CHECK(contains(scan, "90-100%: 1 students"));
  CHECK(contains(scan, "1 where the grader failed"));
  CHECK(contains(html, "grader failed"));
}
