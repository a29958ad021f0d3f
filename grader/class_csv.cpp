// The class CSV (class_table.h): RFC 4180 quoting, so test names with commas stay one column.
#include "class_table.h"

namespace gpulab {

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

void add_row(std::string& out, const std::vector<std::string>& fields) {
  for (size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csv_field(fields[i]);
  out += "\r\n";
}

}  // namespace

std::string class_csv(const ClassTable& table) {
  std::string out;
  std::vector<std::string> header = {"student"};
  for (const auto& lab : table.labs()) {
    header.push_back(lab + " status");
    for (const auto& test : table.test_names(lab)) header.push_back(lab + ": " + test);
    header.push_back(lab + " score");
    header.push_back(lab + " max");
  }
  header.push_back("total");
  header.push_back("max");
  add_row(out, header);
  for (const auto& student : table.students()) {
    std::vector<std::string> row = {student};
    double total = 0, max = 0;
    for (const auto& lab : table.labs()) {
      const StudentLab* r = table.find(student, lab);
      row.push_back(!r ? "missing" : r->grader_failed ? "grader failed" : "graded");
      const bool scored = r && !r->grader_failed;
      for (const auto& test : table.test_names(lab)) {
        double points = 0;
        row.push_back(scored && r->test_score(test, points) ? format_points(points) : "");
      }
      row.push_back(scored ? format_points(r->score()) : "");
      row.push_back(scored ? format_points(r->max_score()) : "");
      if (scored) {
        total += r->score();
        max += r->max_score();
      }
    }
    row.push_back(format_points(total));
    row.push_back(format_points(max));
    add_row(out, row);
  }
  return out;
}

}  // namespace gpulab
