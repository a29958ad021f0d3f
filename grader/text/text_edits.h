// Small edits and tests of plain text that messages and tables make: white space off both ends,
// a prefix taken out wherever it stands, whether a text starts with one.
#pragma once

#include <string>

namespace gpulab {

// `s` without white space (blanks, tabs, line ends, form feeds) at either end.
inline std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n\f\v");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n\f\v") - first + 1);
}

// Each occurrence of `prefix` in `s` removed.
inline std::string without(std::string s, const std::string& prefix) {
  for (size_t at; !prefix.empty() && (at = s.find(prefix)) != std::string::npos;)
    s.erase(at, prefix.size());
  return s;
}

inline bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace gpulab
