// A dataset directory as a runner sees it: meta.json (lab, generator version, name, parameters;
// never the seed, drawn from the instructor's secret) and the input arrays as .npy files.
// Expected outputs are never in it.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "npy.h"

namespace gpulab {

struct Dataset {
  std::filesystem::path dir;
  nlohmann::json meta;

  // Throws std::runtime_error naming the directory when meta.json is missing or malformed.
  static Dataset open(const std::filesystem::path& dir);

  const nlohmann::json& params() const { return meta.at("params"); }
  NpyArray input(const std::string& name, DType dtype) const;  // maps dir/name.npy (map_npy)

  // A required integer or number parameter, with an error that names the dataset and the key.
  long long int_param(const std::string& key) const;
  double num_param(const std::string& key) const;
};

}  // namespace gpulab
