#include "text/csv_text.h"

#include <cstdlib>
#include <stdexcept>

namespace gpulab {

namespace {

// Whether `s` is a plain number ("7.5", "-1"), which a spreadsheet must read as one.
bool is_number(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

std::string csv_field(std::string s) {
  // A cell a spreadsheet would take for a formula (=, +, -, @, a tab or CR first) is text with
  // a quote before it: a name is a student's to choose (a folder named after them, a roster
  // exported from a platform), and "=HYPERLINK(...)" must not run in an instructor's sheet.
  if (!s.empty() && std::string("=+-@\t\r").find(s[0]) != std::string::npos && !is_number(s))
    s = "'" + s;
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

std::string csv_row(const std::vector<std::string>& fields) {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csv_field(fields[i]);
  return out + "\r\n";
}

std::vector<CsvRecord> parse_csv(const std::string& text) {
  std::vector<CsvRecord> records;
  size_t i = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
  size_t line = 1;
  CsvRecord record{line, {std::string()}};
  bool quoted = false, field_was_quoted = false;
  size_t quote_line = 0;
  const auto end_record = [&] {
    const bool blank = record.fields.size() == 1 && record.fields[0].empty() && !field_was_quoted;
    if (!blank) records.push_back(std::move(record));
    record = CsvRecord{line, {std::string()}};
    field_was_quoted = false;
  };
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        record.fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        record.fields.back() += c;
      }
    } else if (c == '"') {
      if (!record.fields.back().empty() || field_was_quoted)
        throw std::runtime_error("line " + std::to_string(line) +
                                 ": a quote inside a field that does not start with one (quote "
                                 "the whole field and double the quote: \"a \"\"b\"\"\")");
      quoted = field_was_quoted = true;
      quote_line = line;
    } else if (c == ',') {
      record.fields.emplace_back();
      field_was_quoted = false;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      ++line;
      end_record();
    } else {
      record.fields.back() += c;
    }
  }
  if (quoted)
    throw std::runtime_error("line " + std::to_string(quote_line) +
                             ": a quoted field is never closed (a quote is missing)");
  end_record();
  return records;
}

}  // namespace gpulab
