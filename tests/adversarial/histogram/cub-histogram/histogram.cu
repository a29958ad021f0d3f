
// The attack: the private histogram handed to CUB under another name. The header the compiler
// reads is CUB's histogram however the source spells the call.
#include <cub/device/device_histogram.cuh>

namespace lib = cub;

void histogram_private(const int* keys, int n, int bins, int* counts) {
  static void* temp = nullptr;
  static size_t have = 0;
  size_t bytes = 0;
  lib::DeviceHistogram::HistogramEven(nullptr, bytes, keys, counts, bins + 1, 0, bins, n);
  if (bytes > have) {
    cudaFree(temp);
    cudaMalloc(&temp, bytes);
    have = bytes;
  }
  lib::DeviceHistogram::HistogramEven(temp, bytes, keys, counts, bins + 1, 0, bins, n);
}
