// Device preflight: is there a usable CUDA GPU, which one, and what limits matter for timing.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace gpulab {

struct DeviceInfo {
  bool usable = false;
  std::string problem;  // set when !usable: why, in words
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int driver_version = 0, runtime_version = 0;
  int sm_count = 0;
  size_t l2_bytes = 0;
  size_t persisting_l2_max_bytes = 0;
  size_t global_mem_bytes = 0;

  std::string arch() const { return "sm_" + std::to_string(cc_major * 10 + cc_minor); }
  nlohmann::json to_json() const;
};

// Never throws: a machine without a GPU or driver gives usable = false and a message.
DeviceInfo device_preflight();

}  // namespace gpulab
