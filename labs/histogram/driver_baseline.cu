// histogram's baselines: cub::DeviceReduce and cub::DeviceHistogram on the same inputs, trusted
// code timed in the same process as the functions they are compared with. CUB has no CPU
// back-end, so the sim build leaves them out.
#include <stdexcept>

#include "driver_baseline.h"

#ifndef GPULAB_SIM_BACKEND
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>

#include "device_buffer.h"

namespace {
gpulab::DeviceScratch scratch;  // kept between calls: the timed calls are CUB's work alone
}

void baseline_cub_sum(const int* in, int n, int* out) {
  size_t need = 0;
  GPULAB_CUDA(cub::DeviceReduce::Sum(nullptr, need, in, out, n));
  GPULAB_CUDA(cub::DeviceReduce::Sum(scratch.reserve(need), need, in, out, n));
}

void baseline_cub_histogram(const int* keys, int n, int bins, int* counts) {
  size_t need = 0;
  GPULAB_CUDA(
      cub::DeviceHistogram::HistogramEven(nullptr, need, keys, counts, bins + 1, 0, bins, n));
  GPULAB_CUDA(cub::DeviceHistogram::HistogramEven(scratch.reserve(need), need, keys, counts,
                                                  bins + 1, 0, bins, n));
}

#else

void baseline_cub_sum(const int*, int, int*) {
  throw std::runtime_error("the CUB baseline needs a GPU: the sim backend does not run it");
}

void baseline_cub_histogram(const int*, int, int, int*) {
  throw std::runtime_error("the CUB baseline needs a GPU: the sim backend does not run it");
}

#endif
