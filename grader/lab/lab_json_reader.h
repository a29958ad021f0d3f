// Reads lab.json's values with checks: each error names the file, the key's path
// (`dataset_groups[1].datasets[0].seed`) and what is wrong. Shared by lab_config.cpp and
// lab_timing.cpp; labs/lab.schema.json states the same rules for editors and CI, and is where
// only_keys' lists come from (lab_schema.h).
#pragma once

#include <filesystem>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpulab {

class LabJsonReader {
 public:
  explicit LabJsonReader(std::filesystem::path file) : file_(std::move(file)) {}

  // Throws LabConfigError "<file>: <where>: <why>".
  [[noreturn]] void fail(const std::string& where, const std::string& why) const;
  const nlohmann::json& field(const nlohmann::json& obj, const std::string& key,
                              const std::string& where) const;
  std::string str(const nlohmann::json& obj, const std::string& key,
                  const std::string& where) const;
  // The same check of a value already found, at `path` ("lab.title").
  std::string str_at(const nlohmann::json& v, const std::string& path) const;
  double num(const nlohmann::json& obj, const std::string& key, const std::string& where) const;
  // A whole number from `lo` to `hi`.
  int integer(const nlohmann::json& obj, const std::string& key, const std::string& where, int lo,
              int hi) const;
  int integer_at(const nlohmann::json& v, const std::string& path, int lo, int hi) const;
  std::vector<std::string> strings(const nlohmann::json& v, const std::string& where) const;
  // Every key of the object `obj` (at `where`; "" for the top level) must be one of `known`:
  // a misspelt key would otherwise be ignored and its setting silently lost. The error names
  // the closest known key when one is near.
  void only_keys(const nlohmann::json& obj, const std::string& where,
                 const std::vector<std::string>& known) const;

 private:
  std::filesystem::path file_;
};

// `where`.`key`, or `key` alone at the top level.
std::string key_path(const std::string& where, const std::string& key);

}  // namespace gpulab
