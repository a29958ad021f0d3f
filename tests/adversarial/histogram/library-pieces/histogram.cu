
// The attack: no library histogram and no library reduction by name, but the work done by
// other library pieces. The sum is the last element of CUB's inclusive scan; the global
// histogram is a sort of a copy of the keys and, for each bin, the upper bound of its key in
// the sorted keys (thrust::upper_bound), whose differences are the counts. A list of forbidden
// entry points (DeviceReduce, DeviceHistogram) names none of them.
#include <thrust/binary_search.h>
#include <thrust/iterator/counting_iterator.h>

#include <cub/device/device_scan.cuh>

namespace {

__global__ void differences(const int* ends, int bins, int* counts) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < bins) counts[b] = ends[b] - (b ? ends[b - 1] : 0);
}

}  // namespace

void reduce_sum(const int* in, int n, int* out) {
  if (n == 0) {
    cudaMemset(out, 0, sizeof(int));
    return;
  }
  int* scanned = nullptr;
  cudaMalloc(&scanned, n * sizeof(int));
  size_t bytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, bytes, in, scanned, n);
  void* temp = nullptr;
  cudaMalloc(&temp, bytes);
  cub::DeviceScan::InclusiveSum(temp, bytes, in, scanned, n);
  cudaMemcpy(out, scanned + n - 1, sizeof(int), cudaMemcpyDeviceToDevice);
  cudaFree(temp);
  cudaFree(scanned);
}

void histogram_global(const int* keys, int n, int bins, int* counts) {
  int* sorted = nullptr;
  int* ends = nullptr;
  cudaMalloc(&sorted, (n + 1) * sizeof(int));
  cudaMalloc(&ends, bins * sizeof(int));
  cudaMemcpy(sorted, keys, n * sizeof(int), cudaMemcpyDeviceToDevice);
  thrust::sort(thrust::device, sorted, sorted + n);
  thrust::upper_bound(thrust::device, sorted, sorted + n, thrust::counting_iterator<int>(0),
                      thrust::counting_iterator<int>(bins), ends);
  differences<<<(bins + 255) / 256, 256>>>(ends, bins, counts);
  cudaFree(ends);
  cudaFree(sorted);
}
