
// The attack: a GNU line marker tells the compiler it is entering thrust/sort.h, a header of the
// sort that histogram-sort may use, and a second one that it is back. The compiler's list of
// the headers it opens (-H) then shows CUB's histogram as included by thrust/sort.h, whose
// includes a rule that trusts allowed headers would let through.
# 1 "/usr/local/cuda/include/cccl/thrust/sort.h" 1
#include <cub/device/device_histogram.cuh>
# 8 "histogram.cu" 2

void histogram_private(const int* keys, int n, int bins, int* counts) {
  static void* temp = nullptr;
  static size_t have = 0;
  size_t bytes = 0;
  cub::DeviceHistogram::HistogramEven(nullptr, bytes, keys, counts, bins + 1, 0, bins, n);
  if (bytes > have) {
    cudaFree(temp);
    cudaMalloc(&temp, bytes);
    have = bytes;
  }
  cub::DeviceHistogram::HistogramEven(temp, bytes, keys, counts, bins + 1, 0, bins, n);
}
