#include "lab/library_work.h"

#include <filesystem>

namespace gpulab {

const std::vector<LibraryWork>& library_work() {
  static const std::vector<LibraryWork> table = {
#define GPULAB_HEADERS(...)  \
  std::vector<std::string> { \
    __VA_ARGS__              \
  }
#define GPULAB_ENTITIES(...) \
  std::vector<std::string> { \
    __VA_ARGS__              \
  }
#define GPULAB_LIBRARY_WORK(name, what, headers, entities) {name, what, headers, entities},
#include "lab/library_work.def"
  };
  return table;
}

const LibraryWork* library_work_named(const std::string& name) {
  for (const LibraryWork& w : library_work())
    if (w.name == name) return &w;
  return nullptr;
}

std::vector<std::string> library_work_names() {
  std::vector<std::string> names;
  for (const LibraryWork& w : library_work()) names.push_back(w.name);
  return names;
}

std::string library_header(const std::string& path) {
  // The last such folder: the libraries have no folder of these names below their own, and the
  // folders above (where CUDA is installed) may have any names.
  std::filesystem::path rest;
  bool found = false;
  for (const auto& part : std::filesystem::path(path).lexically_normal()) {
    if (part == "cub" || part == "thrust" || part == "cooperative_groups") {
      found = true;
      rest.clear();
    }
    if (found) rest /= part;
  }
  return found && rest.has_parent_path() ? rest.generic_string() : "";
}

bool header_pattern_matches(const std::string& pattern, const std::string& path) {
  // Backtracking over the last `*` only: a `*` never crosses a '/'.
  size_t p = 0, s = 0, star = std::string::npos, resume = 0;
  while (s < path.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = s;
    } else if (p < pattern.size() && pattern[p] == path[s]) {
      ++p;
      ++s;
    } else if (star != std::string::npos && path[resume] != '/') {
      p = star + 1;
      s = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<const LibraryWork*> work_of_header(const std::string& header) {
  std::vector<const LibraryWork*> kinds;
  if (header.empty()) return kinds;
  for (const LibraryWork& w : library_work())
    for (const std::string& pattern : w.headers)
      if (header_pattern_matches(pattern, header)) {
        kinds.push_back(&w);
        break;
      }
  return kinds;
}

}  // namespace gpulab
