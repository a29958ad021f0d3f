// CSV as spreadsheets and grade books read and write it (RFC 4180): fields quoted where they
// hold a comma, a quote or a line break, rows ended by CRLF; a text field that a spreadsheet
// would run as a formula written with a quote before it. One writer for every CSV gpulab
// writes (class.csv, the gradebook uploads), one reader for those it reads (a roster CSV).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpulab {

// One row, fields quoted where needed, CRLF-ended.
std::string csv_row(const std::vector<std::string>& fields);

struct CsvRecord {
  size_t line = 0;  // the line it starts on, from 1 (a quoted field may span lines)
  std::vector<std::string> fields;
};

// Every record of `text`; blank lines are none. A UTF-8 byte order mark (spreadsheets write
// one) is dropped. Throws std::runtime_error "line N: ..." for a quote left open or a quote
// inside an unquoted field.
std::vector<CsvRecord> parse_csv(const std::string& text);

}  // namespace gpulab
