// particle-grid's baseline: cub::DeviceRadixSort::SortPairs on the cell ids of the same particles
// (computed on the host, untimed) with the particle indices as values, over only the key bits
// the ids use (22 for 128^3 + 1 ids: 3 onesweep passes, not 4): the sort alone, without
// the map before it or the search for cell starts after it. Trusted code, timed in the same
// process as the build it is compared with. CUB has no CPU back-end, so the sim build leaves it
// out.
#include <stdexcept>

#include "driver_baseline.h"

#ifndef GPULAB_SIM_BACKEND
#include <cub/device/device_radix_sort.cuh>

#include "device_buffer.h"

void baseline_cub_sort_pairs(const int* keys_in, int* keys_out, const int* values_in,
                             int* values_out, int n, int key_bits) {
  static gpulab::DeviceScratch scratch;  // kept between calls: the timed calls are CUB's work alone
  size_t need = 0;
  GPULAB_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, need, keys_in, keys_out, values_in,
                                              values_out, n, 0, key_bits));
  GPULAB_CUDA(cub::DeviceRadixSort::SortPairs(scratch.reserve(need), need, keys_in, keys_out,
                                              values_in, values_out, n, 0, key_bits));
}

#else

void baseline_cub_sort_pairs(const int*, int*, const int*, int*, int, int) {
  throw std::runtime_error("the CUB baseline needs a GPU: the sim backend does not run it");
}

#endif
