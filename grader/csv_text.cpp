#include "csv_text.h"

#include <stdexcept>

namespace gpulab {

namespace {

std::string csv_field(const std::string& s) {
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
