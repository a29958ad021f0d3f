#include "text/text_table.h"

#include <algorithm>
#include <stdexcept>

#include "text/safe_text.h"

namespace gpulab {

namespace {

// What a terminal shows of a cell: safe text, its width counted in characters (UTF-8 lead
// bytes), not bytes, so a name with "ü" does not shift its row.
size_t shown_width(const std::string& s) {
  return std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; });
}

}  // namespace

std::string text_table(const std::vector<TextColumn>& columns,
                       const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::vector<std::string>> lines;
  std::vector<std::string> heading;
  for (const auto& c : columns) heading.push_back(c.heading);
  lines.push_back(heading);
  for (const auto& r : rows) {
    if (r.size() != columns.size())
      throw std::logic_error("text_table: a row of " + std::to_string(r.size()) + " cells in " +
                             std::to_string(columns.size()) + " columns");
    std::vector<std::string> safe;
    for (const auto& cell : r) safe.push_back(safe_text(cell));
    lines.push_back(safe);
  }
  std::vector<size_t> width(columns.size(), 0);
  for (const auto& l : lines)
    for (size_t i = 0; i < l.size(); ++i) width[i] = std::max(width[i], shown_width(l[i]));
  std::string out;
  for (const auto& l : lines) {
    std::string line = " ";
    for (size_t i = 0; i < l.size(); ++i) {
      const std::string pad(width[i] - shown_width(l[i]), ' ');
      line += " ";
      line += columns[i].right ? pad + l[i] : (i + 1 == l.size() ? l[i] : l[i] + pad);
      if (i + 1 < l.size()) line += " ";
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace gpulab
