
// The attack: histogram-private handed to CUB's DeviceHistogram through its umbrella header and
// a namespace alias, so that no line names the histogram's header or cub::DeviceHistogram.
#include <cub/cub.cuh>

namespace lib = cub;
using Histogram = lib::DeviceHistogram;

void histogram_private(const int* keys, int n, int bins, int* counts) {
  static void* temp = nullptr;
  static size_t have = 0;
  size_t bytes = 0;
  Histogram::HistogramEven(nullptr, bytes, keys, counts, bins + 1, 0, bins, n);
  if (bytes > have) {
    cudaFree(temp);
    cudaMalloc(&temp, bytes);
    have = bytes;
  }
  Histogram::HistogramEven(temp, bytes, keys, counts, bins + 1, 0, bins, n);
}
