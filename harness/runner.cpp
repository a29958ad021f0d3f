#include "runner.h"

namespace gpulab {

static std::vector<Part>& registry() {
  static std::vector<Part> parts;
  return parts;
}

bool register_part(const Part& part) {
  registry().push_back(part);
  return true;
}

const Part* find_part(const std::string& name) {
  for (const auto& p : registry())
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<Part> all_parts() {
  return registry();
}

}  // namespace gpulab
