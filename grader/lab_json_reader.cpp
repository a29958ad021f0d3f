#include "lab_json_reader.h"

#include <algorithm>

#include "lab_config.h"

namespace gpulab {

namespace {

// Edits (insert, delete, substitute, swap two neighbours) that turn a into b.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

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
  const auto& v = field(obj, key, where);
  if (!v.is_string() || v.get<std::string>().empty())
    fail(where + "." + key, "must be a non-empty string");
  return v.get<std::string>();
}

double LabJsonReader::num(const nlohmann::json& obj, const std::string& key,
                          const std::string& where) const {
  const auto& v = field(obj, key, where);
  if (!v.is_number()) fail(where + "." + key, "must be a number");
  return v.get<double>();
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
    // A near miss (a typo, a swapped pair): at most a third of the key's letters differ.
    const std::string* best = nullptr;
    size_t best_d = key.size() / 3 + 1;
    for (const auto& k : known)
      if (const size_t d = edit_distance(key, k); d < best_d) best = &k, best_d = d;
    if (best) why += " (did you mean \"" + *best + "\"?)";
    fail(key_path(where, key), why);
  }
}

}  // namespace gpulab
