#include "build/include_tree.h"

#include <sstream>

namespace gpulab {

std::vector<IncludedHeader> parse_include_tree(const std::string& output) {
  std::vector<IncludedHeader> tree;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t dots = line.find_first_not_of('.');
    // "<dots> <path>".
    if (dots == 0 || dots == std::string::npos || line[dots] != ' ' || dots + 1 == line.size())
      continue;
    tree.push_back({static_cast<int>(dots), line.substr(dots + 1)});
  }
  return tree;
}

}  // namespace gpulab
