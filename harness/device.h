// Device preflight: is there a usable CUDA GPU, which one, and what limits matter for timing.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace gpulab {

struct DeviceInfo {
  bool usable = false;
  std::string problem;  // set when !usable: why, in words; the reason alone (callers advise)
  int count = 0;        // the CUDA GPUs this process sees
  std::string name;
  // "GPU-8932f937-...": the identity CUDA_VISIBLE_DEVICES accepts, the same in every process
  // whatever that process's device numbering.
  std::string uuid;
  int cc_major = 0, cc_minor = 0;
  int driver_version = 0, runtime_version = 0;
  // The kernel driver's release ("580.65.06"): driver_version is only the CUDA version it
  // supports, and two releases supporting the same one can time differently. Empty if unknown.
  std::string driver_release;
  int sm_count = 0;
  // Peak clocks (kHz): a card of the same name and driver may be another SKU's clocks.
  int clock_khz = 0, memory_clock_khz = 0;
  size_t l2_bytes = 0;
  size_t persisting_l2_max_bytes = 0;
  size_t global_mem_bytes = 0;

  std::string arch() const { return "sm_" + std::to_string(cc_major * 10 + cc_minor); }
  nlohmann::json to_json() const;
};

// Never throws: a machine without a GPU or driver gives usable = false and a message. `index`
// picks one of the visible GPUs (count says how many there are).
DeviceInfo device_preflight(int index = 0);

}  // namespace gpulab
