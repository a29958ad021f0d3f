// scan's baseline: cub::DeviceScan on the same inputs, trusted code timed in the same process
// as the scan it is compared with. CUB has no CPU back-end, so the sim build leaves it out.
#include <stdexcept>

#include "driver_baseline.h"

#ifndef GPULAB_SIM_BACKEND
#include <cub/device/device_scan.cuh>

#include "device_buffer.h"

void baseline_cub_scan(const int* in, int* out, int n, ScanKind kind) {
  static gpulab::DeviceScratch scratch;  // kept between calls: the timed calls are CUB's work alone
  size_t need = 0;
  if (kind == ScanKind::exclusive) {
    GPULAB_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, need, in, out, n));
    GPULAB_CUDA(cub::DeviceScan::ExclusiveSum(scratch.reserve(need), need, in, out, n));
  } else {
    GPULAB_CUDA(cub::DeviceScan::InclusiveSum(nullptr, need, in, out, n));
    GPULAB_CUDA(cub::DeviceScan::InclusiveSum(scratch.reserve(need), need, in, out, n));
  }
}

#else

void baseline_cub_scan(const int*, int*, int, ScanKind) {
  throw std::runtime_error("the CUB baseline needs a GPU: the sim backend does not run it");
}

#endif
