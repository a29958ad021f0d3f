// compute-sanitizer's tools by name, as lab.json names them ("sanitize": {"tools": [...]}) and
// `gpulab run --sanitize` runs them. Apart from the tool's runs and log (run/compute_sanitizer.h)
// so that lab.json's loader links nothing of them.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace gpulab {

// The tools, in the order `gpulab run --sanitize` runs them.
inline const std::vector<std::string>& sanitizer_tools() {
  static const std::vector<std::string> tools = {"memcheck", "racecheck", "synccheck", "initcheck"};
  return tools;
}
inline bool is_sanitizer_tool(const std::string& name) {
  const auto& t = sanitizer_tools();
  return std::find(t.begin(), t.end(), name) != t.end();
}

}  // namespace gpulab
