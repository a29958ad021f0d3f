// gpulab's backends by name, as lab.json's groups, the command line (--backend) and the reports
// spell them: cuda (nvcc's runners on a GPU) and sim (the CPU backend, sim/).
#pragma once

#include <string>
#include <vector>

namespace gpulab {

inline const std::vector<std::string>& backend_names() {
  static const std::vector<std::string> names = {"cuda", "sim"};
  return names;
}

}  // namespace gpulab
