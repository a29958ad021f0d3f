// segmented-scan's baseline: CUB's DeviceScan::InclusiveSumByKey / ExclusiveSumByKey, the
// library's segmented scan, on the same values with int32 keys (CUB scans by key, not by head
// flag: a run of equal keys is a segment). Trusted code, built with the lab's flags; `gpulab
// bench segmented-scan` times it right after the reference, on the same inputs, so the two
// throughputs come from the same run. The keys are 4 bytes per element where the lab's flags are
// 1: CUB moves 12 bytes per element (keys, values, output) to the reference's 9 or more.
//
// CUB has no CPU back-end: under the sim backend (gpulab sim-cc defines GPULAB_SIM_BACKEND) the
// baseline says that it needs a GPU instead.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "driver_baseline.h"

#ifndef GPULAB_SIM_BACKEND
#include <cub/device/device_scan.cuh>

namespace {

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string("the CUB baseline: ") + what +
                             " failed: " + cudaGetErrorString(err));
}

cudaError_t scan_by_key(bool inclusive, void* temp, size_t& temp_bytes, const int* keys,
                        const float* in, float* out, int n) {
  if (inclusive) return cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, keys, in, out, n);
  return cub::DeviceScan::ExclusiveSumByKey(temp, temp_bytes, keys, in, out, n);
}

}  // namespace

CubScanByKey::CubScanByKey(const std::vector<uint8_t>& flags, int n_sets, bool inclusive)
    : n_(static_cast<int>(flags.size())), inclusive_(inclusive) {
  std::vector<int> keys(flags.size());
  int id = 0;
  for (size_t i = 0; i < flags.size(); ++i) {
    if (i > 0 && flags[i]) ++id;
    keys[i] = id;
  }
  try {
    for (int s = 0; s < n_sets; ++s) {
      int* k = nullptr;
      check(cudaMalloc(&k, keys.size() * sizeof(int)), "cudaMalloc of the keys");
      keys_.push_back(k);
      check(cudaMemcpy(k, keys.data(), keys.size() * sizeof(int), cudaMemcpyHostToDevice),
            "uploading the keys");
    }
    check(scan_by_key(inclusive_, nullptr, temp_bytes_, keys_[0], nullptr, nullptr, n_),
          "the temporary storage query");
    check(cudaMalloc(&temp_, temp_bytes_ ? temp_bytes_ : 1), "cudaMalloc of CUB's storage");
  } catch (...) {
    for (int* k : keys_) cudaFree(k);
    throw;
  }
}

CubScanByKey::~CubScanByKey() {
  for (int* k : keys_) cudaFree(k);
  cudaFree(temp_);
}

void CubScanByKey::run(int set, const float* in, float* out) const {
  size_t bytes = temp_bytes_;
  check(scan_by_key(inclusive_, temp_, bytes, keys_[static_cast<size_t>(set)], in, out, n_),
        inclusive_ ? "cub::DeviceScan::InclusiveSumByKey" : "cub::DeviceScan::ExclusiveSumByKey");
}

#else  // GPULAB_SIM_BACKEND

CubScanByKey::CubScanByKey(const std::vector<uint8_t>&, int, bool) {
  throw std::runtime_error(
      "the CUB baseline needs a GPU: CUB has no CPU back-end, so the sim backend cannot run it");
}

CubScanByKey::~CubScanByKey() {}

void CubScanByKey::run(int, const float*, float*) const {}

#endif  // GPULAB_SIM_BACKEND

const char* CubScanByKey::name() const {
  return inclusive_ ? "CUB DeviceScan::InclusiveSumByKey, int32 keys"
                    : "CUB DeviceScan::ExclusiveSumByKey, int32 keys";
}
