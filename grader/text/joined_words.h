// Words in one string, `sep` between them: a list in a message ("sm_90, sm_100"), a command line
// quoted in one, an option's comma-separated value.
#pragma once

#include <string>
#include <vector>

namespace gpulab {

inline std::string joined(const std::vector<std::string>& words, const std::string& sep = ", ") {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : sep) + w;
  return s;
}

}  // namespace gpulab
