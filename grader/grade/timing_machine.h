// The machine a time was measured on, as a kept time's key names it (kept_reference_timing.h):
// for a GPU part the GPU itself (its UUID, so one card of a cluster's many, with its driver
// release and peak clocks), for a CPU part the host (its name, processor model and CPU count).
// What the key cannot see (clocks locked lower, a warm card, another process on it) the
// drift check's run sees (docs/GRADING.md, "The reference's time, kept per GPU").
#pragma once

#include <nlohmann/json.hpp>

#include "device.h"

namespace gpulab {

// Null where there is nothing to name: a GPU part without a usable GPU.
nlohmann::json timing_machine(const DeviceInfo& gpu, bool gpu_part);

}  // namespace gpulab
