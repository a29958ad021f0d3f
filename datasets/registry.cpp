#include "registry.h"

#include <map>

namespace gpulab {

static std::map<std::string, std::unique_ptr<DatasetGenerator>>& generators() {
  static std::map<std::string, std::unique_ptr<DatasetGenerator>> all;
  return all;
}

bool register_generator(const std::string& lab, std::unique_ptr<DatasetGenerator> generator) {
  generators()[lab] = std::move(generator);
  return true;
}

const DatasetGenerator* find_generator(const std::string& lab) {
  auto it = generators().find(lab);
  return it == generators().end() ? nullptr : it->second.get();
}

}  // namespace gpulab
