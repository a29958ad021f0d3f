// Names compared whatever their letter case (ALICE.ZIP, Report.md, a roster's headers): ASCII
// letters only, as file systems and CSV headers spell them.
#pragma once

#include <cctype>
#include <string>

namespace gpulab {

inline std::string lower_case(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace gpulab
