// The class CSVs (class_table.h): class.csv, a row per student (with what to review in each
// lab, for instructors), and class-findings.csv, a row per group of what the class got wrong; RFC
// 4180 (csv_text.h), so test names with commas stay one column, and a student's text that starts
// like a formula stays text.
#include "class/class_findings.h"
#include "class/class_table.h"
#include "core/review_flags.h"
#include "text/csv_text.h"
#include "text/joined_words.h"

namespace gpulab {

namespace {

std::string cell(const std::optional<double>& points) {
  return points ? format_points(*points) : "";
}

}  // namespace

std::string class_csv(const ClassTable& table) {
  std::vector<std::string> header = {"student", "id", "name", "email"};
  for (const auto& lab : table.labs()) {
    header.push_back(lab + " status");
    header.push_back(lab + " to review");
    for (const auto& part : table.parts(lab)) {
      for (const auto& test : table.test_names(lab, part)) header.push_back(lab + ": " + test);
      header.push_back(lab + ": " + part + " score");
      header.push_back(lab + ": " + part + " max");
    }
    header.push_back(lab + " score");
    header.push_back(lab + " max");
  }
  header.push_back("total");
  header.push_back("max");
  std::string out = csv_row(header);
  for (const auto& student : table.students()) {
    const RosterPerson p = table.person(student);
    std::vector<std::string> row = {student, p.id, p.name, p.email};
    double total = 0, max = 0;
    for (const auto& lab : table.labs()) {
      const LabResult result = table.result(student, lab);
      row.push_back(result.status);
      row.push_back(joined(review_flag_names(table.to_review(student, lab))));
      for (const auto& part : table.parts(lab)) {
        for (const auto& test : table.test_names(lab, part))
          row.push_back(cell(table.test_points(student, lab, test)));
        const auto points = table.part_points(student, lab, part);
        row.push_back(points ? format_points(points->first) : "");
        row.push_back(points ? format_points(points->second) : "");
      }
      row.push_back(cell(result.score));
      row.push_back(result.score ? format_points(result.max) : "");
      if (result.score) {
        total += *result.score;
        max += result.max;
      }
    }
    row.push_back(format_points(total));
    row.push_back(format_points(max));
    out += csv_row(row);
  }
  return out;
}

std::string class_findings_csv(const ClassTable& table) {
  std::string out =
      csv_row({"lab", "test", "row", "students", "of", "kind", "where", "group", "example"});
  for (const auto& lab : table.labs()) {
    const LabFindings view = lab_findings(table, lab);
    for (const auto& t : view.tests) {
      out += csv_row(
          {lab, t.test, "failed", std::to_string(t.failed), std::to_string(t.of), "", "", "", ""});
      for (const auto& m : t.messages)
        out += csv_row({lab, t.test, "message", std::to_string(m.students),
                        std::to_string(t.failed), "", "", m.pattern, m.example});
    }
    for (const auto& f : view.findings)
      out += csv_row({lab, f.part, "finding", std::to_string(f.students),
                      std::to_string(view.graded), f.kind, f.where, f.key, f.source});
  }
  return out;
}

}  // namespace gpulab
