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

const nlohmann::json& LabJsonReader::field(const nlohmann::json& obj, const std::string& key,
                                           const std::string& where) const {
  if (!obj.is_object()) fail(where, "must be an object");
  if (!obj.contains(key)) fail(where, "missing \"" + key + "\"");
  return obj[key];
}

std::string LabJsonReader::str(const nlohmann::json& obj, const std::string& key,
                               const std::string& where) const {
  return str_at(field(obj, key, where), where + "." + key);
}

std::string LabJsonReader::str_at(const nlohmann::json& v, const std::string& path) const {
  if (!v.is_string() || v.get<std::string>().empty()) fail(path, "must be a non-empty string");
  return v.get<std::string>();
}

double LabJsonReader::num(const nlohmann::json& obj, const std::string& key,
                          const std::string& where) const {
  const auto& v = field(obj, key, where);
  if (!v.is_number()) fail(where + "." + key, "must be a number");
  return v.get<double>();
}

int LabJsonReader::integer(const nlohmann::json& obj, const std::string& key,
                           const std::string& where, int lo, int hi) const {
  return integer_at(field(obj, key, where), where + "." + key, lo, hi);
}

int LabJsonReader::integer_at(const nlohmann::json& v, const std::string& path, int lo,
                              int hi) const {
  if (!v.is_number_integer() || v.get<int64_t>() < lo || v.get<int64_t>() > hi)
    fail(path, "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
  return v.get<int>();
}

std::vector<std::string> LabJsonReader::strings(const nlohmann::json& v,
                                                const std::string& where) const {
  if (!v.is_array()) fail(where, "must be an array of strings");
  std::vector<std::string> out;
  for (const auto& s : v) {
    if (!s.is_string()) fail(where, "must be an array of strings");
    out.push_back(s.get<std::string>());
  }
  return out;
}

void LabJsonReader::only_keys(const nlohmann::json& obj, const std::string& where,
                              const std::vector<std::string>& known) const {
  if (!obj.is_object()) fail(where.empty() ? "lab" : where, "must be an object");
  for (const auto& [key, value] : obj.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string why = "unknown key";
    if (const std::string near = nearest_name(key, known); !near.empty())
      why += " (did you mean \"" + near + "\"?)";
    fail(key_path(where, key), why);
  }
}

}  // namespace gpulab
