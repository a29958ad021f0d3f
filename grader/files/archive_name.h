// The archive formats gpulab reads and writes, told by a file's name: .zip, .tar.gz and .tgz,
// in any letter case (students' machines name them ALICE.ZIP too).
#pragma once

#include <string>

#include "text/letter_case.h"

namespace gpulab {

// The archive suffix of a file name, lower case (".zip", ".tar.gz", ".tgz"), or "" when it has
// none. The name's own suffix is that many characters long.
inline std::string archive_suffix(const std::string& file_name) {
  const std::string lower = lower_case(file_name);
  for (const std::string s : {".tar.gz", ".tgz", ".zip"})
    if (lower.size() > s.size() && lower.compare(lower.size() - s.size(), s.size(), s) == 0)
      return s;
  return "";
}

}  // namespace gpulab
