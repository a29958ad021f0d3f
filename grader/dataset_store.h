// Materializing datasets: generate the inputs and the oracle's expected outputs once per
// (lab, generator version, params, seed), into a cache the grader alone reads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "lab_config.h"

namespace gpulab {

struct DatasetDirs {
  std::string group, name;
  bool hidden = false;
  uint64_t seed = 0;
  std::filesystem::path input, expected;  // input/ is what a runner sees
};

// The seed a dataset is generated with: its fixed seed, or one derived from the instructor's
// hidden seed and its name.
uint64_t dataset_seed(const DatasetSpec& ds, uint64_t hidden_seed);

// Generates into root/<group>/<name>/{input,expected} unless an identical one is there already.
// Throws std::runtime_error naming the lab and dataset when generation fails.
DatasetDirs materialize(const LabConfig& lab, const GroupSpec& group, const DatasetSpec& ds,
                        uint64_t hidden_seed, const std::filesystem::path& root);

}  // namespace gpulab
