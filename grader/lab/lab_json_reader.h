// What the loader says of a lab.json that met labs/lab.schema.json (schema_check.h) but breaks a
// rule no schema can state: a cross-reference (a part's outputs, a dataset's parts, a rubric's
// parts and groups) or a name that must differ from the lab's files. Each error names the file,
// the key's path (`dataset_groups[1].datasets[0].parts`) and what is wrong. Shared by
// lab_config.cpp and the sections it hands to parsers of their own.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpulab {

class LabJsonReader {
 public:
  explicit LabJsonReader(std::filesystem::path file) : file_(std::move(file)) {}

  // Throws LabConfigError "<file>: <where>: <why>".
  [[noreturn]] void fail(const std::string& where, const std::string& why) const;
  // Every key of the object `obj` (at `where`) must be one of `known`, names the lab declares
  // elsewhere (the rubric's keys are its parts); the error names the closest when one is near.
  void only_keys(const nlohmann::json& obj, const std::string& where,
                 const std::vector<std::string>& known) const;

 private:
  std::filesystem::path file_;
};

// `where`.`key`, or `key` alone at the top level ("" or "lab").
std::string key_path(const std::string& where, const std::string& key);

// "unknown key", with the closest of `known` where one is near: the schema check's words for a
// key the schema does not allow, and the loader's for one the lab does not declare.
std::string unknown_key_why(const std::string& key, const std::vector<std::string>& known);

}  // namespace gpulab
