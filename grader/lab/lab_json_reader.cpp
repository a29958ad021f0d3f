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

std::string unknown_key_why(const std::string& key, const std::vector<std::string>& known) {
  return "unknown key" + did_you_mean(key, known);
}

void LabJsonReader::only_keys(const nlohmann::json& obj, const std::string& where,
                              const std::vector<std::string>& known) const {
  for (const auto& [key, value] : obj.items())
    if (std::find(known.begin(), known.end(), key) == known.end())
      fail(key_path(where, key), unknown_key_why(key, known));
}

}  // namespace gpulab
