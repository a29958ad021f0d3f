#include "lab/lab_json_reader.h"

#include <algorithm>

#include "lab/lab_config.h"
#include "text/nearest_name.h"

namespace gpulab {

std::string key_path(const std::string& where, const std::string& key) {
  // "lab" is what messages call the top level.
  return where.empty() || where == "lab" ? key : where + "." + key;
}

void LabJsonReader::fail(const std::string& where, const std::string& why) const {
  throw LabConfigError(file_.string() + ": " + where + ": " + why);
}

void LabJsonReader::only_keys(const nlohmann::json& obj, const std::string& where,
                              const std::vector<std::string>& known) const {
  for (const auto& [key, value] : obj.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string why = "unknown key";
    if (const std::string near = nearest_name(key, known); !near.empty())
      why += " (did you mean \"" + near + "\"?)";
    fail(key_path(where, key), why);
  }
}

}  // namespace gpulab
